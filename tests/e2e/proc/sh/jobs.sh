# trap, signals to the shell, wait and background jobs
trap 'echo trapped USR1' USR1
kill -USR1 $$
echo after trap
sleep 0.05 &
p=$!
wait $p
echo "waited $?"
(sleep 0.02; exit 7) &
wait $!
echo "background status $?"
for i in 1 2 3; do (echo "job $i" >job$i; exit $i) & done
wait
cat job1 job2 job3
sh -c 'kill -TERM $$'
echo "killed child shell: $?"
sh -c 'exit 9'
echo "child shell: $?"
trap 'echo exit trap' EXIT
exit 0
