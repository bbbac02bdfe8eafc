# pipelines, command substitution, subshells, redirections, loops
echo start
a=$(echo sub | tr a-z A-Z)
echo "subst: $a"
echo one two three | wc -w
seq 1 20 | sort -r | head -3
(exit 3)
echo "subshell status $?"
( echo in a subshell; exit 0 ) | cat
x=0
while [ $x -lt 50 ]; do x=$((x + 1)); done
echo "loop $x"
echo data >file; cat <file; cat file | cat | cat
false || echo "or works"
true && echo "and works"
f() { echo "function $1"; return 4; }
f arg
echo "function status $?"
echo "nested $(echo $(echo deep))"
exit 2
