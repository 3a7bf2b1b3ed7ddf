# Completes one command line the way readline would and prints the candidates, one a line.
# Usage: bash complete.bash SCRIPT 'chain-metrics fees --chain e'
# The script is sourced, and the function that `complete -p` registered for the command is
# called with COMP_WORDS and friends set as readline sets them (the words of the line, split
# on blanks; none of our tests type a word-break character such as = or :).
source "$1" || exit 5
line=$2
read -ra COMP_WORDS <<< "$line"
[[ $line == *" " ]] && COMP_WORDS+=("")
COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
COMP_LINE=$line
COMP_POINT=${#line}
COMP_TYPE=9
spec=$(complete -p "${COMP_WORDS[0]}") || exit 4
function=${spec#* -F }
function=${function%% *}
"$function" "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
(( ${#COMPREPLY[@]} )) && printf '%s\n' "${COMPREPLY[@]}"
exit 0
