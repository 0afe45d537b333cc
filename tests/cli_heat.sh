#!/bin/sh
# tests/cli_heat.sh -- demos/heat, PolyBench/C 4.2's heat-3d and jacobi-2d
# time loops as map steps over fields, and its adi as a map and four plans:
# --verify finds every value bitwise equal to PolyBench's plain loops at 1-4
# processes, with 1 and 2 threads (adi: in every model), at sizes that do
# not divide among the processes; the checksum is the same string in every
# run; bad arguments are refused with exit 2 and one message.
set -u
. tests/lib.sh
D=$DEMODIR
scratch cli_heat

# 1. both kernels, 1-4 processes, 1 and 2 threads, odd sizes, values that
# are not linear (PolyBench's heat-3d values never change: a wrong order
# would not show)
bad=""
runs=0
sums=""
for np in 1 2 3 4; do
    for th in 1 2; do
        pick 2 || continue      # the quick tier: a sample (tests/lib.sh)
        for k in heat-3d jacobi-2d; do
            n=13; steps=6
            [ $k = jacobi-2d ] && n=37 && steps=11
            out=$(OMP_WAIT_POLICY=passive timeout 120 $MPIEXEC -n $np $D/heat --kernel $k \
                  --n $n --steps $steps --threads $th --init mixed --verify 2>&1)
            runs=$((runs + 1))
            echo "$out" | grep -q '^verify: bitwise equal to the plain loops (0 of' ||
                bad="$bad [np=$np threads=$th $k: $(echo "$out" | tail -1)]"
            sums="$sums $k:$(echo "$out" | sed -n 's/^checksum \([^ ]*\) .*/\1/p')"
        done
    done
done
[ -z "$bad" ] && [ $runs -gt 0 ] && ok "heat --verify: $runs runs (1-4 processes x 1-2 threads x heat-3d and jacobi-2d) bitwise PolyBench's loops" \
    || notok "heat --verify:$bad"
n1=$(echo "$sums" | tr ' ' '\n' | grep '^heat-3d:' | sort -u | wc -l)
n2=$(echo "$sums" | tr ' ' '\n' | grep '^jacobi-2d:' | sort -u | wc -l)
[ "$n1" -le 1 ] && [ "$n2" -le 1 ] && ok "heat: one checksum per kernel over every run" \
    || notok "heat: checksums differ between runs:$sums"

# 2. PolyBench's datasets: MINI of both, at 2 processes
out=$(timeout 120 $MPIEXEC -n 2 $D/heat --kernel heat-3d --size MINI --verify 2>&1;
      timeout 120 $MPIEXEC -n 2 $D/heat --kernel jacobi-2d --size MINI --verify 2>&1)
[ "$(echo "$out" | grep -c '^verify: bitwise equal')" -eq 2 ] &&
    echo "$out" | grep -q '^heat: heat-3d n 10, 20 steps (MINI)' &&
    echo "$out" | grep -q '^heat: jacobi-2d n 30, 20 steps (MINI)' &&
    ok "heat --size MINI: PolyBench's n and steps, verified" || notok "heat --size MINI: $out"

# 3. --skewed: the same loops as one skewed plan, bitwise at 1-4 processes,
# and the size of the box it walks said
bad=""
runs=0
for np in 1 2 3 4; do
    for k in heat-3d jacobi-2d; do
        n=9; steps=4
        [ $k = jacobi-2d ] && n=23 && steps=7
        out=$(timeout 120 $MPIEXEC -n $np $D/heat --kernel $k --n $n --steps $steps \
              --init mixed --skewed --verify 2>&1)
        runs=$((runs + 1))
        echo "$out" | grep -q '^verify: bitwise equal to the plain loops (0 of' &&
            echo "$out" | grep -q "one skewed plan, $np process" &&
            echo "$out" | grep -q "^the skewed plan: its space's box holds [0-9]* points for the loop's [0-9]* ([0-9.]*x)$" ||
            bad="$bad [np=$np $k: $(echo "$out" | tail -2 | tr '\n' ' ')]"
    done
done
[ -z "$bad" ] && ok "heat --skewed --verify: $runs runs (1-4 processes x heat-3d and jacobi-2d) bitwise PolyBench's loops" \
    || notok "heat --skewed --verify:$bad"

# 4. refusals: exit 2, one message, nothing on stdout
for args in "--kernel heat" "--size HUGE" "--n 2" "--steps -1" "--threads 0" "--init linear" "--bogus 1" \
            "--skewed --threads 2" "--skewed --steps 0" "--kernel adi --skewed" "--model fine" \
            "--kernel jacobi-2d --tile-height 4" "--kernel adi --threads 2" "--kernel adi --model gpu" \
            "--kernel adi --tile-height 0" "--kernel adi --n 3"; do
    timeout 60 $MPIEXEC -n 2 $D/heat $args > "$T/out" 2> "$T/err.raw"
    rc=$?
    strip_launcher < "$T/err.raw" > "$T/err"
    [ $rc -eq 2 ] && [ "$(wc -l < "$T/err")" -eq 1 ] && [ ! -s "$T/out" ] &&
        ok "heat $args: exit 2, one message: $(cat "$T/err")" \
        || notok "heat $args: exit $rc, stderr: $(head -c 300 "$T/err")"
done
# no step, and the smallest n at 4 processes (blocks of one point): verified
out=$(timeout 120 $MPIEXEC -n 4 $D/heat --kernel jacobi-2d --n 3 --steps 2 --verify 2>&1;
      timeout 120 $MPIEXEC -n 3 $D/heat --kernel heat-3d --n 5 --steps 0 --verify 2>&1)
[ "$(echo "$out" | grep -c '^verify: bitwise equal')" -eq 2 ] &&
    ok "heat: n 3 at 4 processes (2x2 blocks of 1-2 points) and 0 steps: verified" ||
    notok "heat: small blocks, 0 steps: $out"

# 5. adi: a map and four plans a step, every model at 1-4 processes (the
# threaded ones with 2 threads), sizes that do not divide, PolyBench's
# values and mixed ones, the tile height chosen and given
bad=""
runs=0
sums=""
for np in 1 2 3 4; do
    for m in mpi fine funneled multiple; do
        pick 4 || continue      # the quick tier: a sample
        th=2
        [ $m = mpi ] && th=1
        for c in "23 5 mixed" "37 3 polybench --tile-height 5"; do
            set -- $c
            out=$(OMP_WAIT_POLICY=passive timeout 120 $MPIEXEC -n $np $D/heat --kernel adi --n $1 \
                  --steps $2 --init $3 ${4:-} ${5:-} --model $m --threads $th --verify 2>&1)
            runs=$((runs + 1))
            echo "$out" | grep -q '^verify: bitwise equal to the plain loops (0 of' &&
                echo "$out" | grep -q "a map and 4 plans, model $m, $np process" ||
                bad="$bad [np=$np $m threads=$th n=$1: $(echo "$out" | tail -2 | tr '\n' ' ')]"
            sums="$sums $1:$(echo "$out" | sed -n 's/^checksum \([^ ]*\) .*/\1/p')"
        done
    done
done
[ -z "$bad" ] && [ $runs -gt 0 ] && ok "heat --kernel adi --verify: $runs runs (1-4 processes x every model, n 23 and 37) bitwise PolyBench's loop" \
    || notok "heat --kernel adi --verify:$bad"
n1=$(echo "$sums" | tr ' ' '\n' | grep '^23:' | sort -u | wc -l)
n2=$(echo "$sums" | tr ' ' '\n' | grep '^37:' | sort -u | wc -l)
[ "$n1" -le 1 ] && [ "$n2" -le 1 ] && ok "heat --kernel adi: one checksum per size over every run" \
    || notok "heat --kernel adi: checksums differ between runs:$sums"
# PolyBench's MINI and SMALL (its n and steps, its values), at 3 processes
# (blocks of 6 and 5 columns, of 20 and 19); 0 steps at 2
out=$(timeout 120 $MPIEXEC -n 3 $D/heat --kernel adi --size MINI --verify 2>&1;
      timeout 120 $MPIEXEC -n 3 $D/heat --kernel adi --size SMALL --verify 2>&1;
      timeout 120 $MPIEXEC -n 2 $D/heat --kernel adi --n 5 --steps 0 --verify 2>&1)
[ "$(echo "$out" | grep -c '^verify: bitwise equal')" -eq 3 ] &&
    echo "$out" | grep -q '^heat: adi n 20, 20 steps (MINI), polybench values' &&
    echo "$out" | grep -q '^heat: adi n 60, 40 steps (SMALL), polybench values' &&
    ok "heat --kernel adi --size MINI, SMALL: PolyBench's n and steps, verified; 0 steps too" ||
    notok "heat --kernel adi MINI, SMALL, 0 steps: $out"

done_testing
