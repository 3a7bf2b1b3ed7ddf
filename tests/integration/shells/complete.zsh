#!/usr/bin/env zsh
# Completes one command line in a real interactive zsh and prints the matches, one a line.
# Usage: zsh complete.zsh FPATH_DIR 'chain-metrics fees --chain e' DUMP
# DUMP is compinit's dump file for this fpath: made by the first run that finds none (a scan of
# every file in fpath, the slow part of starting a completion system), read by the others.
# The zsh runs under zsh/zpty: the line and a TAB are typed into it, the completion system runs
# the function installed in FPATH_DIR, and compadd is wrapped to print what it adds. The
# approach is that of github.com/Valodim/zsh-capture-completion.
zmodload zsh/zpty || { print -u2 'zsh/zpty is missing'; exit 2 }
zpty z zsh -f -i
setup=$(mktemp)
trap 'rm -f $setup' EXIT
cat > $setup <<SETUP
PROMPT=
fpath=(${(q)1} \$fpath)
autoload -U compinit && compinit -u -d ${(q)3}
bindkey '^M' undefined
bindkey '^J' undefined
bindkey '^I' complete-word
marker() { print -r -- '<<<MARK>>>' }
compprefuncs=(marker)
comppostfuncs=(marker exit)
zstyle ':completion:*' insert-tab false
compadd() {
    # Calls that only compute (-O, -A, -D) are the completion system's own business.
    if [[ \${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then
        builtin compadd "\$@"
        return
    fi
    local -a __hits
    builtin compadd -A __hits "\$@"
    local -A apre hpre
    zparseopts -E P:=apre p:=hpre
    local hit
    for hit in \$__hits; do
        print -r -- "\$IPREFIX\${apre[-P]}\${hpre[-p]}\$hit"
    done
}
print ready
SETUP
zpty -w z "source ${(q)setup}"
local line
repeat 20; do
    zpty -r z line
    [[ $line == ready* ]] && break
done
zpty -w -n z "$2"$'\t'
integer marks=0
while zpty -r z line; do
    line=${line%$'\r'*}
    line=${line%$'\n'}
    if [[ $line == *'<<<MARK>>>'* ]]; then
        (( marks++ ))
        (( marks == 2 )) && exit 0
        continue
    fi
    (( marks == 1 )) && print -r -- $line
done
exit 3
