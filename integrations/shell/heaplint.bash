# bash completion for heaplint: its options and subcommands, the rule ids
# after --checks= and --warnings-as-errors= (asked of the heaplint being
# completed, with --list-rules), build directories after -p, files where a
# file goes. Installed as share/bash-completion/completions/heaplint, where
# bash-completion loads it on first use; or source it from ~/.bashrc.
# tests/cli/completion.test checks that it names every option --help names.

_heaplint_check_opts='-p --extra-arg= --extra-arg-before= --remove-arg= -j --shard= --cache-dir= --cache-max-size=
  --index= --link-only --diff --diff= --checks= --config-file= --config= --warnings-as-errors= --header-filter=
  --exclude-header-filter= --line-filter= --system-headers --dump-config --list-checks --explain-config
  --verify-config --allow-no-checks --profile= --profile-dir= --list-rules --format= --color= -o --source-root=
  --baseline= --write-baseline= --report-undecided --use-color --use-color= --docs-url= --fix --fix-errors
  --export-fixes= --werror -q --quiet -v --verbose --version -h --help'
_heaplint_lsp_opts='--compile-commands-dir= -p --extra-arg= --extra-arg-before= --config-file= --config= --checks=
  --warnings-as-errors= --header-filter= --exclude-header-filter= --system-headers --profile= --profile-dir=
  --debounce= --index= --docs-url= --version -h --help'
_heaplint_calibrate_opts='-o --report --wrapper= --header= --replacement= -I --compare= --emulator= --keep -h --help'
_heaplint_merge_sarif_opts='-o -h --help'
_heaplint_merge_index_opts='-o -h --help'
_heaplint_subcommands='lsp calibrate merge-sarif merge-index'

# Files (or with "dirs", directories and compile databases) matching cur,
# added to COMPREPLY with prefix before each.
_heaplint_files() {
  local kind=$1 cur=$2 prefix=$3 f
  local IFS=$'\n'
  if [[ $kind == dirs ]]; then
    for f in $(compgen -d -- "$cur") $(compgen -f -X '!*.json' -- "$cur"); do COMPREPLY+=("$prefix$f"); done
  else
    for f in $(compgen -f -- "$cur"); do COMPREPLY+=("$prefix$f"); done
  fi
  compopt -o filenames 2>/dev/null
}

# Rule globs: cur is a comma-separated list; the last element is completed
# to a rule id (with its '-' kept), the others stay.
_heaplint_rules() {
  local heaplint=$1 cur=$2 prefix=$3 head='' last=$2 sign='' id
  if [[ $cur == *,* ]]; then head=${cur%,*},; last=${cur##*,}; fi
  if [[ $last == -* ]]; then sign=-; last=${last#-}; fi
  local ids
  ids=$("$heaplint" --list-rules 2>/dev/null | awk '{print $1}')
  for id in '*' $ids; do
    [[ $id == "$last"* ]] && COMPREPLY+=("$prefix$head$sign$id")
  done
  compopt -o nospace 2>/dev/null
}

# The values of option opt (given as "--opt" or "-o"), completing cur; each
# reply starts with prefix (the "--opt=" typed in the same word).
_heaplint_value() {
  local heaplint=$1 opt=$2 cur=$3 prefix=$4 v
  [[ $opt == -[!-]?* ]] && opt=-$opt # -checks is --checks, as in clang-tidy
  case $opt in
  -p | --compile-commands-dir) _heaplint_files dirs "$cur" "$prefix" ;;
  --checks | --warnings-as-errors) _heaplint_rules "$heaplint" "$cur" "$prefix" ;;
  --format) for v in text json sarif; do [[ $v == "$cur"* ]] && COMPREPLY+=("$prefix$v"); done ;;
  --color) for v in auto always never; do [[ $v == "$cur"* ]] && COMPREPLY+=("$prefix$v"); done ;;
  --use-color) for v in true false; do [[ $v == "$cur"* ]] && COMPREPLY+=("$prefix$v"); done ;;
  --debounce) [[ auto == "$cur"* ]] && COMPREPLY+=("${prefix}auto") ;;
  --index)
    [[ none == "$cur"* ]] && COMPREPLY+=("${prefix}none")
    _heaplint_files files "$cur" "$prefix"
    ;;
  --diff)
    local IFS=$'\n'
    for v in HEAD $(git for-each-ref --format='%(refname:short)' 2>/dev/null); do
      [[ $v == "$cur"* ]] && COMPREPLY+=("$prefix$v")
    done
    ;;
  --cache-dir | --source-root | --profile-dir | -I) _heaplint_files dirs "$cur" "$prefix" ;;
  -o | --config-file | --profile | --baseline | --write-baseline | --export-fixes | --compare | --header)
    _heaplint_files files "$cur" "$prefix" ;;
  *) return 1 ;;
  esac
  return 0
}

# Whether option word opt takes the next word as its value.
_heaplint_takes_next() {
  local opt=$1
  [[ $opt == -[!-]?* ]] && opt=-$opt
  case $opt in
  -p | -j | -o | -I) return 0 ;;
  --extra-arg | --extra-arg-before | --remove-arg | --shard | --cache-dir | --cache-max-size | --index | --checks | \
    --config-file | --config | --warnings-as-errors | --header-filter | --exclude-header-filter | --line-filter | \
    --profile | --profile-dir | --format | --color | --source-root | --baseline | --write-baseline | --docs-url | \
    --export-fixes | --compile-commands-dir | --debounce | --wrapper | --header | --replacement | --compare | \
    --emulator) return 0 ;;
  esac
  return 1
}

_heaplint() {
  COMPREPLY=()
  local heaplint=${COMP_WORDS[0]} cur=${COMP_WORDS[COMP_CWORD]} i=1 sub='' opts=$_heaplint_check_opts
  # The heaplint typed (for its rule ids): a path as given, "~/" expanded.
  heaplint=${heaplint/#\~\//$HOME/}
  [[ $heaplint == */* ]] || heaplint=heaplint
  case ${COMP_WORDS[1]} in
  lsp) sub=lsp opts=$_heaplint_lsp_opts i=2 ;;
  calibrate) sub=calibrate opts=$_heaplint_calibrate_opts i=2 ;;
  merge-sarif) sub=merge-sarif opts=$_heaplint_merge_sarif_opts i=2 ;;
  merge-index) sub=merge-index opts=$_heaplint_merge_index_opts i=2 ;;
  esac
  # After '--': compiler flags, or for calibrate the compiler and its flags.
  for ((; i < COMP_CWORD; i++)); do
    if [[ ${COMP_WORDS[i]} == -- ]]; then
      if [[ $sub == calibrate && $i -eq $((COMP_CWORD - 1)) ]]; then
        local IFS=$'\n'
        COMPREPLY=($(compgen -c -- "$cur" | sort -u))
      else
        _heaplint_files files "$cur" ''
      fi
      return 0
    fi
  done
  # bash splits "--opt=value" at '=' (COMP_WORDBREAKS): "--opt" "=" "value".
  local prev=${COMP_WORDS[COMP_CWORD - 1]}
  if [[ $cur == = && $prev == -* ]]; then
    _heaplint_value "$heaplint" "$prev" '' '' && return 0
  elif [[ $prev == = && $COMP_CWORD -ge 2 && ${COMP_WORDS[COMP_CWORD - 2]} == -* ]]; then
    _heaplint_value "$heaplint" "${COMP_WORDS[COMP_CWORD - 2]}" "$cur" '' && return 0
  elif [[ $cur == -*=* ]]; then
    _heaplint_value "$heaplint" "${cur%%=*}" "${cur#*=}" "${cur%%=*}=" && return 0
  elif [[ $COMP_CWORD -ge 2 && $prev == -* ]] && _heaplint_takes_next "$prev"; then
    _heaplint_value "$heaplint" "$prev" "$cur" '' || true
    return 0
  fi
  if [[ $cur == -* ]]; then
    local o
    for o in $opts; do [[ $o == "$cur"* ]] && COMPREPLY+=("$o"); done
    [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null
    return 0
  fi
  if [[ $COMP_CWORD -eq 1 ]]; then
    local s
    for s in $_heaplint_subcommands; do [[ $s == "$cur"* ]] && COMPREPLY+=("$s"); done
  fi
  case $sub in
  lsp) ;;
  calibrate) ;;
  *) _heaplint_files files "$cur" '' ;;
  esac
  return 0
}
complete -F _heaplint heaplint
