#!/bin/bash
# Runs integrations/shell/heaplint.bash's completion as bash would at
# "heaplint <word>... <cursor on the last word>", without bash-completion
# (the script needs none of it), and prints COMPREPLY, one per line.
#   complete.sh <heaplint.bash> <heaplint> <word>...
# A word "=" stands for bash splitting "--opt=value" at '='.
script=$1
shift
# shellcheck source=/dev/null
source "$script" || exit 1
COMP_WORDS=("$@")
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
COMP_LINE="${COMP_WORDS[*]}"
COMP_POINT=${#COMP_LINE}
_heaplint heaplint "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
printf '%s\n' "${COMPREPLY[@]}"
