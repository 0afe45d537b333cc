#!/bin/sh
# tests/cli_checkpoint.sh -- checkpoints of real programs (tiling.h's
# tile_checkpoint_*, through demos/checkpoint.h): a run killed with SIGKILL
# (one random rank, at a random moment after its first checkpoint)
# restarts from its last checkpoint and ends bitwise equal to the plain
# sequential reference (--verify) -- demos/lu (u and rsd at every point,
# the residual norms the exact sums of its residual; 20 kills at 2-4
# processes across the four models in the full tier, 2 in the quick one)
# and demos/heat (jacobi-2d and heat-3d as maps, adi as plans in a random
# model; 6 and 2) and demos/p2p (the corner between the sweeps; 3 and 1)
# and demos/ssor (two chained plans, the backward one's result a field; 3
# and 1, and a SIGUSR1 stop);
# SIGUSR1 to one rank writes a checkpoint and stops every
# rank with exit status 75, and the restart completes bitwise; a restart
# with another process count or --iterations is refused with its reason
# (exit 1); a damaged PATH falls back to PATH.1, saying why.  Inside one
# plan's run (tiling.h's 79-run-checkpoint.h): demos/adi, de, sw and
# seidel, killed the same way, restart inside the run and end bitwise as the
# sequential loop (--verify: every point and the checksum; demos/sw the
# best score and its end, demos/seidel's skewed plan the checksum; 12 kills
# across the models in the full tier, 4 in the quick one), and SIGUSR1
# stops adi's run with 75.
set -u
. tests/lib.sh
D=$DEMODIR
scratch cli_checkpoint

if [ ! -x "$D/lu" ] || [ ! -x "$D/heat" ] || [ ! -x "$D/adi" ] || [ ! -x "$D/de" ] ||
    [ ! -x "$D/sw" ] || [ ! -x "$D/seidel" ] || [ ! -x "$D/p2p" ] || [ ! -x "$D/ssor" ]; then
    notok "$D/lu, heat, adi, de, sw, seidel, p2p and ssor are built (make builds them)"
    done_testing
fi

# rnd N: a number 0 .. N-1 from CHECK_SEED and a counter (reproducible);
# the counter lives in a file, as rnd runs in $(...)'s subshell (a shell
# variable there never moved: every draw of a seed was the same)
rnd() {
    rnd_n=$(($(cat "$T/rnd_n" 2> /dev/null || echo 0) + 1))
    echo $rnd_n > "$T/rnd_n"
    echo $(( (((${CHECK_SEED:-1} % 65521) * 7919 + rnd_n * 104729) * 2654435761 % 4294967296 >> 7) % $1 ))
}

# ranks: the pids of the running ranks of this test's demo (their command
# line starts with the demo's path and names $T; read from /proc, as a
# fresh machine may have no pgrep)
ranks() {
    for d in /proc/[0-9]*; do
        # (the name first, read without a process: a run may last a second)
        { read -r comm < "$d/comm"; } 2> /dev/null || continue
        case $comm in adi | de | sw | seidel | lu | heat | p2p | ssor) ;; *) continue ;; esac
        c=$({ tr '\0' ' ' < "$d/cmdline"; } 2> /dev/null) || continue
        case $c in "$D/"[a-z]*" "*"$T/"*) echo "${d#/proc/}" ;; esac
    done
}

# launch NP DEMO ARGS...: the demo in the background ($job), output in
# $T/run.out and $T/run.err
launch() {
    np=$1 demo=$2
    shift 2
    timeout 600 $MPIEXEC -n "$np" "$D/$demo" "$@" > "$T/run.out" 2> "$T/run.err" &
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

# finish NP DEMO ARGS...: run the demo to the end with --verify; "" or
# what is wrong in $why (lu: u and rsd bitwise lu_plain's, the norms the
# exact sums; heat: every value bitwise the plain loops')
finish() {
    np=$1 demo=$2
    shift 2
    timeout 900 $MPIEXEC -n "$np" "$D/$demo" --verify "$@" > "$T/fin.out" 2> "$T/fin.err"
    rc=$?
    why=""
    if [ $rc -ne 0 ]; then why="exit $rc: $(tail -n 2 "$T/fin.err" | tr '\n' ' ')"
    elif [ "$demo" = lu ] && ! grep -q '^ verify: ok: 0 and 0 of the' "$T/fin.out"; then
        why="$(grep 'verify:' "$T/fin.out" || echo 'no verify line')"
    elif [ "$demo" = lu ] && ! grep -q 'residual norms are bitwise' "$T/fin.out"; then
        why="norms not bitwise"
    elif [ "$demo" = heat ] && ! grep -q '^verify: bitwise equal to the plain loops' "$T/fin.out"; then
        why="$(grep 'verify:' "$T/fin.out" || echo 'no verify line')"
    elif [ "$demo" = p2p ] && { ! grep -q '^Solution validates' "$T/fin.out" ||
                                ! grep -q '^verify: ok' "$T/fin.out"; }; then
        why="$(grep 'verify:\|ERROR' "$T/fin.out" || echo 'no verify line')"
    elif [ "$demo" = ssor ] && ! grep -q '^verify: ok' "$T/fin.out"; then
        why="$(grep 'verify:' "$T/fin.out" || echo 'no verify line')"
    fi
}

# kill_run NP DEMO ARGS...: run with checkpoints every $every steps into
# $T/ck, SIGKILL one random rank at a random moment after the first
# checkpoint (counted in $killed, the run in $trials); 1 (added to $bad)
# when no checkpoint was written (neither PATH nor PATH.1)
kill_run() {
    np=$1 demo=$2
    shift 2
    rm -f "$T"/ck*
    launch $np $demo "$@" --checkpoint "$T/ck" --checkpoint-every "${every}steps"
    if wait_for "$T/ck"; then           # (a quiet machine runs these in a second or two)
        sleep "0.0$(rnd 10)"
        victim=$(ranks | awk -v k="$(rnd 4)" '{ p[NR] = $1 } END { if (NR) print p[k % NR + 1] }')
        [ -n "$victim" ] && kill -9 "$victim" 2> /dev/null && killed=$((killed + 1))
    fi
    wait "$job" 2> /dev/null
    trials=$((trials + 1))
    # (a kill between rank 0's two renames leaves PATH.1 alone: the
    # restart falls back to it)
    [ -e "$T/ck" ] || [ -e "$T/ck.1" ] && return 0
    bad="$bad [$demo np=$np $*: no checkpoint written: $(tail -n 1 "$T/run.err")]"
    return 1
}

# kill_trial NP DEMO ARGS...: kill_run with checkpoints every 2-6 steps,
# restart from the last one with --verify: a failure is added to $bad
kill_trial() {
    every=$((2 + $(rnd 5)))
    kill_run "$@" || return
    np=$1 demo=$2
    shift 2
    finish $np $demo "$@" --restart "$T/ck"
    [ -n "$why" ] && bad="$bad [$demo np=$np $* every ${every}: $why]"
}

# (ssor converges after 6519 iterations: a few seconds)
ssor_args="--space 12x10x14 --omega 0.02 --tol 1e-12 --max-iter 8000"

# 1. kills: lu in every model, heat's maps (jacobi-2d, heat-3d) and adi's
# plans; 20 lu runs and 6 heat runs in the full tier, 2 and 2 in the quick
models="mpi fine funneled multiple"
nlu=20 nheat=3
[ "${CHECK_TIER:-}" = quick ] && nlu=2 nheat=1
bad="" killed=0 trials=0 i=0
while [ $i -lt $nlu ]; do
    i=$((i + 1))
    np=$((2 + $(rnd 3)))
    [ "${CHECK_TIER:-}" = quick ] && np=2       # (3-4 processes oversubscribe: slow)
    m=$(echo $models | cut -d' ' -f$((1 + $(rnd 4))))
    th=2; [ $m = mpi ] && th=1
    it=1500; [ $np -gt 2 ] && it=60
    kill_trial $np lu --class S --iterations $it --model $m --threads $th
done
i=0
while [ $i -lt $nheat ]; do
    i=$((i + 1))
    k=jacobi-2d; [ $((i % 2)) -eq 0 ] && k=heat-3d
    kill_trial $((2 + $(rnd 3))) heat --kernel $k --n 41 --steps 400 --init mixed
    m=$(echo $models | cut -d' ' -f$((1 + $(rnd 4))))
    th=2; [ $m = mpi ] && th=1
    [ "${CHECK_TIER:-}" = quick ] && th=1
    kill_trial 2 heat --kernel adi --n 41 --steps 300 --init mixed --model $m --threads $th
    # PRK's p2p: its state between the sweeps is the corner fed back
    kill_trial $((2 + $(rnd 3))) p2p --size 1001,1503 --iterations 300 --model $m --threads $th
    # ssor: two chained plans, the backward one's result a field
    kill_trial 2 ssor $ssor_args --model $m --threads $th     # (4 x 2 threads: minutes)
done
[ -z "$bad" ] && [ $((2 * killed)) -ge $trials ] &&
    ok "$trials runs of lu, heat (maps, adi's plans), p2p and ssor at 2-4 processes across the models, $killed of them killed (SIGKILL, one random rank, at a random moment): each restarted from its last checkpoint ends bitwise as the plain sequential run" ||
    notok "kills and restarts ($killed of $trials killed):$bad"

# 1b. kills inside one plan's run: adi, de, sw and seidel (a skewed plan),
# every 20-119 tile steps (adi and de store the whole space: --verify
# compares every point and the checksum; sw's --verify the best score and
# its end, seidel's the checksum, with the plain loops)
nplan=12
[ "${CHECK_TIER:-}" = quick ] && nplan=4
bad="" killed=0 trials=0 i=0
while [ $i -lt $nplan ]; do
    i=$((i + 1))
    np=$((2 + $(rnd 3)))
    [ "${CHECK_TIER:-}" = quick ] && np=2
    m=$(echo $models | cut -d' ' -f$((1 + $(rnd 4))))
    th=2; [ $m = mpi ] && th=1
    every=$((20 + $(rnd 100)))
    case $((i % 4)) in
        1) demo=adi; set -- --space 16x24x8000 --tile-height 2 ;;
        2) demo=de; set -- --space 16x24x8000 --tile-height 2 ;;
        3) demo=sw; set -- --random 3000,60000 --tile-height 64 ;;
        *) demo=seidel; set -- --n 201 --steps 300 --tile-height 2 ;;
    esac
    set -- "$@" --model $m --threads $th --verify
    kill_run $np $demo "$@" || continue
    timeout 900 $MPIEXEC -n "$np" "$D/$demo" "$@" --restart "$T/ck" > "$T/fin.out" 2> "$T/fin.err"
    rc=$?
    if [ $rc -ne 0 ] || ! grep -q '^verify: ok' "$T/fin.out" ||
        ! grep -q 'resuming the run inside' "$T/fin.err"; then
        bad="$bad [$demo np=$np $* every $every: exit $rc: $(grep 'verify' "$T/fin.out") $(tail -n 2 "$T/fin.err" | tr '\n' ' ')]"
    fi
done
[ -z "$bad" ] && [ $((2 * killed)) -ge $trials ] &&
    ok "$trials runs of adi, de, sw and seidel at 2-4 processes across the models, $killed of them killed inside their one plan's run: each restarted inside it ends bitwise as the sequential loop" ||
    notok "kills inside a plan's run ($killed of $trials killed):$bad"

# usr1_stop NP DEMO FILE ARGS...: the demo with --checkpoint FILE and ARGS,
# SIGUSR1 to one rank after its first checkpoint (the loop runs: the
# handler is in place); its exit status in $sig_rc
usr1_stop() {
    np=$1 demo=$2 file=$3
    shift 3
    rm -f "$file"*
    launch $np $demo "$@" --checkpoint "$file"
    wait_for "$file"
    victim=$(ranks | tail -n 1)
    [ -n "$victim" ] && kill -USR1 "$victim"
    wait "$job"
    sig_rc=$?
}

# 1c. SIGUSR1 inside adi's run (after its first checkpoint: the handler is
# in place): every rank stops with 75; the restart
set -- --space 64x256x100000 --tile-height 2
usr1_stop 2 adi "$T/us" "$@" --checkpoint-every 2000steps
why="exit $sig_rc"
if [ $sig_rc -eq 75 ] && [ -e "$T/us" ] && [ -z "$(ranks)" ]; then
    ref=$(timeout 900 $MPIEXEC -n 2 "$D/adi" "$@" | sed -n 's/^checksum \([0-9a-f]*\).*/\1/p')
    got=$(timeout 900 $MPIEXEC -n 2 "$D/adi" "$@" --restart "$T/us" 2> "$T/fin.err" |
          sed -n 's/^checksum \([0-9a-f]*\).*/\1/p')
    why=""
    [ -n "$ref" ] && [ "$ref" = "$got" ] || why="checksum '$got', uninterrupted '$ref'"
fi
[ -z "$why" ] &&
    ok "SIGUSR1 inside adi's run (100000 planes, 2 processes): a checkpoint, every rank stopped with 75; the restart's checksum is the uninterrupted run's" ||
    notok "SIGUSR1 inside adi's run: $why: $(tail -n 2 "$T/run.err" | tr '\n' ' ')"

# 2. SIGUSR1 to one rank: a checkpoint, every rank stops with 75; restart
sm=funneled sth=2 sit=2000
[ "${CHECK_TIER:-}" = quick ] && sm=mpi sth=1
usr1_stop 2 lu "$T/sig" --class S --iterations $sit --model $sm --threads $sth \
    --checkpoint-every 25steps
step=$(sed -n 's/.*stopped after step \([0-9]*\) on the signal.*/\1/p' "$T/run.err")
why="no checkpoint"
if [ $sig_rc -eq 75 ] && [ -n "$step" ] && [ -e "$T/sig" ] && [ -z "$(ranks)" ]; then
    finish 2 lu --class S --iterations $sit --model $sm --threads $sth --restart "$T/sig"
fi
[ $sig_rc -eq 75 ] && [ -n "$step" ] && [ -z "$why" ] &&
    ok "SIGUSR1 to one rank: checkpoint after step $step, every rank stopped, exit status 75; the restart completes bitwise" ||
    notok "SIGUSR1: status $sig_rc, step '$step', $why: $(tail -n 2 "$T/run.err" | tr '\n' ' ')"

# 2b. the same for ssor (its own loop's stop): 75, the restart bitwise
usr1_stop 2 ssor "$T/sig" $ssor_args --checkpoint-every 500steps
why="no checkpoint"
if [ $sig_rc -eq 75 ] && grep -q 'stopped after step [0-9]* on the signal' "$T/run.err" &&
    [ -z "$(ranks)" ]; then
    finish 2 ssor $ssor_args --restart "$T/sig"
fi
[ $sig_rc -eq 75 ] && [ -z "$why" ] &&
    ok "SIGUSR1 to one rank of ssor: every rank stopped with 75 after a checkpoint; the restart ends bitwise as the sequential implementation" ||
    notok "ssor's SIGUSR1: status $sig_rc, $why: $(tail -n 2 "$T/run.err" | tr '\n' ' ')"

# 3. refusals, and PATH.1 when PATH is damaged
rm -f "$T"/ck*
launch 2 lu --class S --iterations 20 --checkpoint "$T/ck" --checkpoint-every 5steps
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
timeout 120 $MPIEXEC -n 2 "$D/heat" --skewed --checkpoint "$T/sk" > "$T/ref.out" 2> "$T/ref.err"
rc=$?
[ $rc -eq 2 ] && grep -q "takes no --checkpoint or --restart" "$T/ref.err" && [ ! -e "$T/sk" ] &&
    ok "heat --skewed --checkpoint is refused (one plan: no step boundary): $(head -n 1 "$T/ref.err")" ||
    notok "heat --skewed --checkpoint: exit $rc: $(cat "$T/ref.err")"
timeout 120 $MPIEXEC -n 2 "$D/lu" --class S --checkpoint-every 5steps > "$T/ref.out" 2> "$T/ref.err"
rc=$?
[ $rc -eq 2 ] && grep -q "checkpoint-every needs --checkpoint PATH" "$T/ref.err" &&
    ok "--checkpoint-every without --checkpoint is refused: $(head -n 1 "$T/ref.err")" ||
    notok "--checkpoint-every alone: exit $rc: $(cat "$T/ref.err")"
printf 'damaged' | dd of="$T/ck" bs=1 seek=5000 conv=notrunc 2> /dev/null
finish 2 lu --class S --iterations 20 --restart "$T/ck"
[ -z "$why" ] && grep -q "does not match its checksum.*resuming after step [0-9]* from $T/ck.1 instead" "$T/fin.err" &&
    ok "a damaged checkpoint: lu says why and resumes from PATH.1, ending bitwise" ||
    notok "a damaged checkpoint: $why $(cat "$T/fin.err")"

# a kill between rank 0's two renames leaves PATH.1 alone: a plan's run
# resumes inside it from PATH.1, saying so, and ends as the sequential loop
rm -f "$T"/ck*
set -- --space 16x24x3000 --tile-height 2 --model funneled --threads 2 --verify
timeout 300 $MPIEXEC -n 2 "$D/de" "$@" --checkpoint "$T/ck" --checkpoint-every 100steps \
    > "$T/run.out" 2> "$T/run.err"
rm -f "$T/ck"
timeout 300 $MPIEXEC -n 2 "$D/de" "$@" --restart "$T/ck" > "$T/fin.out" 2> "$T/fin.err"
rc=$?
[ $rc -eq 0 ] && [ -e "$T/ck.1" ] && grep -q '^verify: ok' "$T/fin.out" &&
    grep -q "resuming the run inside, from $T/ck.1 instead" "$T/fin.err" &&
    ok "PATH gone, PATH.1 there (killed between the renames): de resumes inside its run from PATH.1, ending as the sequential loop" ||
    notok "PATH gone: exit $rc: $(grep verify "$T/fin.out") $(cat "$T/fin.err")"

done_testing
