# exec chains: every x86 program a guest execs (the shell itself, through
# /proc/self/exe or PATH) runs under sysgate again
echo start
sh -c 'true; echo "inner $?"'
echo "outer $?"
sh -c 'sh -c "sh -c \"exit 5\""'
echo "three deep $?"
sh -c 'exec sh -c "echo replaced; exit 6"'
echo "exec in a child $?"
X=exported sh -c 'echo "env $X"'
sh -c 'kill -SEGV $$'
echo "child shell killed by SEGV: $?"
sh -c 'trap "echo caught SEGV" SEGV; kill -SEGV $$; echo alive'
echo "$(sh -c 'echo from a substitution')"
exec sh -c 'echo last; exit 4'
