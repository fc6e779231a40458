# Runs integrations/shell/_heaplint's _heaplint at "heaplint <word>...",
# with stand-ins for zsh's completion functions that print what they are
# given: which specs (_arguments) or candidates (_describe, compadd) each
# position gets; then, with HL_CALL set, that helper of _heaplint's (e.g.
# _heaplint_rule_glob: the rule ids, asked of words[1]).
#   zsh -f zsh-dispatch.zsh <shell dir> <word>...
fpath=($1 $fpath)
shift
_arguments() { print -rl -- "$@" }
_describe() { [[ $1 == -t ]] && shift 2; print -r -- "describe: $1"; print -rl -- ${(P)2} }
_files() { print -r -- "files $*" }
_call_program() { shift; eval "$@" }
compset() { [[ $1 == -P && $PREFIX == -* ]] && PREFIX=${PREFIX#-}; return 0 }
compadd() {
  local array=0 w
  for w; do
    if (( array )); then print -rl -- ${(P)w}; array=0
    elif [[ $w == -a ]]; then array=1
    elif [[ $w != -* ]]; then print -r -- $w
    fi
  done
}
autoload -Uz _heaplint
words=("$@")
CURRENT=$#
PREFIX=${words[-1]}
_heaplint
[[ -z $HL_CALL ]] || $HL_CALL
