#!/bin/sh
# tests/cli_checkpoint.sh -- checkpoints of a real program (demos/lu over
# tiling.h's tile_checkpoint_*): a run killed with SIGKILL (one random
# rank, at a random moment after its first checkpoint) restarts from its
# last checkpoint and ends bitwise equal to the plain sequential reference
# (--verify: u and rsd at every point, the residual norms the exact sums of
# its residual) -- 20 kills at 2-4 processes across the four models in the
# full tier, 2 in the quick one; SIGUSR1 to one rank writes a checkpoint
# and stops every rank with exit status 75, and the restart completes
# bitwise; a restart with another process count or --iterations is refused
# with its reason (exit 1); a damaged PATH falls back to PATH.1, saying why.
set -u
. tests/lib.sh
D=$DEMODIR
scratch cli_checkpoint

if [ ! -x "$D/lu" ]; then
    notok "$D/lu is built (make builds it)"
    done_testing
fi

# rnd N: a number 0 .. N-1 from CHECK_SEED and a counter (reproducible)
rnd_n=0
rnd() {
    rnd_n=$((rnd_n + 1))
    echo $(( (((${CHECK_SEED:-1} % 65521) * 7919 + rnd_n * 104729) * 2654435761 % 4294967296 >> 7) % $1 ))
}

# ranks: the pids of the running ranks of this test's lu (their command
# line starts with the demo's path and names $T)
ranks() {
    pgrep -f "^$D/lu --class S .*$T/" 2> /dev/null
}

# launch NP ITERS MODEL ARGS...: lu in the background ($job), output in
# $T/run.out and $T/run.err
launch() {
    np=$1 it=$2 m=$3
    shift 3
    th=2; [ "$m" = mpi ] && th=1
    timeout 600 $MPIEXEC -n "$np" "$D/lu" --class S --iterations "$it" --model "$m" \
        --threads "$th" "$@" > "$T/run.out" 2> "$T/run.err" &
    job=$!
}

# wait_for FILE: until FILE exists or the job ended (0: it exists)
wait_for() {
    w=0
    while [ ! -e "$1" ] && kill -0 "$job" 2> /dev/null && [ $w -lt 1200 ]; do
        sleep 0.05; w=$((w + 1))
    done
    [ -e "$1" ]
}

# finish NP ITERS MODEL ARGS...: run lu to the end with --verify; "" or
# what is wrong in $why
finish() {
    np=$1 it=$2 m=$3
    shift 3
    th=2; [ "$m" = mpi ] && th=1
    timeout 900 $MPIEXEC -n "$np" "$D/lu" --class S --iterations "$it" --model "$m" \
        --threads "$th" --verify "$@" > "$T/fin.out" 2> "$T/fin.err"
    rc=$?
    why=""
    if [ $rc -ne 0 ]; then why="exit $rc: $(tail -n 2 "$T/fin.err" | tr '\n' ' ')"
    elif ! grep -q '^ verify: ok: 0 and 0 of the' "$T/fin.out"; then
        why="$(grep 'verify:' "$T/fin.out" || echo 'no verify line')"
    elif ! grep -q 'residual norms are bitwise' "$T/fin.out"; then why="norms not bitwise"
    fi
}

# 1. kills: SIGKILL one random rank at a random moment, restart, verify
models="mpi fine funneled multiple"
trials=20
[ "${CHECK_TIER:-}" = quick ] && trials=2
bad="" killed=0 trial=0
while [ $trial -lt $trials ]; do
    trial=$((trial + 1))
    np=$((2 + $(rnd 3)))
    m=$(echo $models | cut -d' ' -f$((1 + $(rnd 4))))
    it=300; [ $np -gt 2 ] && it=40
    every=$((2 + $(rnd 5)))
    rm -f "$T"/ck*
    launch $np $it $m --checkpoint "$T/ck" --checkpoint-every "${every}steps"
    if wait_for "$T/ck"; then
        sleep "0.$(rnd 10)"
        victim=$(ranks | awk -v k="$(rnd 4)" '{ p[NR] = $1 } END { if (NR) print p[k % NR + 1] }')
        [ -n "$victim" ] && kill -9 "$victim" 2> /dev/null && killed=$((killed + 1))
    fi
    wait "$job" 2> /dev/null
    if [ ! -e "$T/ck" ]; then
        bad="$bad [trial $trial np=$np $m: no checkpoint written: $(tail -n 1 "$T/run.err")]"
        continue
    fi
    finish $np $it $m --restart "$T/ck"
    [ -n "$why" ] && bad="$bad [trial $trial np=$np $m every ${every}: $why]"
done
[ -z "$bad" ] && [ $killed -ge 1 ] &&
    ok "$trials runs of lu at 2-4 processes across the models, $killed of them killed (SIGKILL, one random rank, at a random moment): each restarted from its last checkpoint ends bitwise as the plain sequential run" ||
    notok "kills and restarts ($killed killed):$bad"

# 2. SIGUSR1 to one rank: a checkpoint, every rank stops with 75; restart
launch 2 2000 funneled --checkpoint "$T/sig" --checkpoint-every 100000steps
started=0
for w in $(seq 1 600); do
    grep -q '^ Processes:' "$T/run.out" 2> /dev/null && { started=1; break; }
    sleep 0.05
done
sleep 0.5
victim=$(ranks | tail -n 1)
[ $started -eq 1 ] && [ -n "$victim" ] && kill -USR1 "$victim"
wait "$job"
sig_rc=$?
step=$(sed -n 's/.*stopped after step \([0-9]*\) on the signal.*/\1/p' "$T/run.err")
why="no checkpoint"
if [ $sig_rc -eq 75 ] && [ -n "$step" ] && [ -e "$T/sig" ] && [ -z "$(ranks)" ]; then
    finish 2 2000 funneled --restart "$T/sig"
fi
[ $sig_rc -eq 75 ] && [ -n "$step" ] && [ -z "$why" ] &&
    ok "SIGUSR1 to one rank: checkpoint after step $step, every rank stopped, exit status 75; the restart completes bitwise" ||
    notok "SIGUSR1: status $sig_rc, step '$step', $why: $(tail -n 2 "$T/run.err" | tr '\n' ' ')"

# 3. refusals, and PATH.1 when PATH is damaged
rm -f "$T"/ck*
launch 2 20 mpi --checkpoint "$T/ck" --checkpoint-every 5steps
wait "$job"
expect_refusal() {   # NP ITERS TEXT WHAT
    timeout 300 $MPIEXEC -n "$1" "$D/lu" --class S --iterations "$2" --restart "$T/ck" \
        > "$T/ref.out" 2> "$T/ref.err"
    rc=$?
    [ $rc -eq 1 ] && grep -q "$3" "$T/ref.err" &&
        ok "a restart with $4 is refused: $(grep "$3" "$T/ref.err" | head -n 1)" ||
        notok "a restart with $4: exit $rc, want 1 and '$3': $(cat "$T/ref.err")"
}
expect_refusal 3 20 "was written by 2 processes, this run has 3" "3 processes (written by 2)"
expect_refusal 2 25 "another configuration" "another --iterations"
printf 'damaged' | dd of="$T/ck" bs=1 seek=5000 conv=notrunc 2> /dev/null
finish 2 20 mpi --restart "$T/ck"
[ -z "$why" ] && grep -q "does not match its checksum.*resuming from $T/ck.1 instead" "$T/fin.err" &&
    ok "a damaged checkpoint: lu says why and resumes from PATH.1, ending bitwise" ||
    notok "a damaged checkpoint: $why $(cat "$T/fin.err")"

done_testing
