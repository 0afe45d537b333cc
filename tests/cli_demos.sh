#!/bin/sh
# tests/cli_demos.sh -- the ADI and DE demos end to end: every model, grid,
# thread count and tile height prints the checksum of the plain sequential
# loop (and --verify compares every point), at 1-4 processes; bad arguments
# give a clear message naming the argument and a non-zero exit, never a hang.
set -u
. tests/lib.sh

checksum() { sed -n 's/.*"checksum": "\([0-9a-f]*\)".*/\1/p'; }

for demo in adi de; do
    space=11x37x45
    ref=$(timeout 60 "$B/bench/seq_kernels" $demo 11 37 45 | checksum)
    [ -n "$ref" ] || { notok "$demo: sequential reference ran"; continue; }
    runs=0 bad=""
    for cfg in "1 mpi 1 7" "2 mpi 1 100" "3 mpi 1 1" "4 mpi 1 13" "4 mpi 1 5 --grid latency" \
               "2 mpi 1 9 --grid 2x1" "1 fine 2 6" "2 fine 3 10" "3 funneled 2 4" \
               "2 funneled 2 8 --bal 0.5" "4 funneled 2 3 --bal 0" "1 multiple 3 5" \
               "2 multiple 2 45" "4 multiple 2 2" \
               "2 funneled 2 3 --balance adaptive --bal 0.3 --adapt-period 2" \
               "3 funneled 3 4 --balance variable" \
               "2 funneled 2 5 --balance constant --tcomp 1e-8 --tstartup 1e-3 --bandwidth 1e6" \
               "1 mpi 1 6 --order z" "3 funneled 2 4 --order z" "4 multiple 2 3 --order z" \
               "2 mpi 1 5 --order planes" "3 fine 2 4 --order hyper"; do
        pick 2 || continue      # the quick tier: a sample (tests/lib.sh)
        set -- $cfg
        np=$1 model=$2 th=$3 z=$4; shift 4
        out=$(timeout 120 $MPIEXEC -n $np "$DEMODIR/$demo" --space $space --tile-height $z \
              --model $model --threads $th "$@" --verify --json 2>&1)
        got=$(echo "$out" | checksum)
        runs=$((runs + 1))
        if [ "$got" != "$ref" ] || ! echo "$out" | grep -q '"verify": "ok"'; then
            bad="$bad [np=$np $model T=$th z=$z $* -> ${got:-no output}]"
        fi
    done
    if [ -z "$bad" ] && [ $runs -gt 0 ]; then ok "$demo: $runs runs (1-4 processes, 4 models, 1-3 threads, every balancing policy, every in-tile order) print the sequential checksum $ref and verify every point"
    else notok "$demo: checksum or verify mismatch:$bad"; fi
done

# the fine model when OpenMP grants fewer threads than asked (OMP_THREAD_LIMIT):
# the threads present compute the missing threads' tiles, results stay exact
out=$(OMP_THREAD_LIMIT=1 timeout 60 $MPIEXEC -n 2 "$DEMODIR/adi" --space 11x37x45 --model fine \
      --threads 3 --tile-height 4 --verify 2>&1)
echo "$out" | grep -q "verify: ok" && ok "fine model with OMP_THREAD_LIMIT=1 below 3 threads: every point verified" \
    || notok "fine model with OMP_THREAD_LIMIT=1: $out"

# the JSON report has the promised keys
out=$(timeout 60 $MPIEXEC -n 2 "$DEMODIR/adi" --space 8x16x20 --model funneled --threads 2 --json)
missing=""
for k in checksum seconds grid threads model bytes_sent_max messages_max per_thread compute comm idle; do
    echo "$out" | grep -q "\"$k\"" || missing="$missing $k"
done
[ -z "$missing" ] && ok "adi --json has checksum, seconds, grid, threads, model, bytes_sent_max, messages_max, per-thread times" \
    || notok "adi --json misses:$missing"

# bytes sent by the busiest process equal the topology model's volume:
# 64x256x1000, grid 2x2: d*ceil(256/2)*Z + d*ceil(64/2)*Z elements of 8 bytes
out=$(timeout 60 $MPIEXEC -n 4 "$DEMODIR/adi" --space 64x256x1000 --grid 2x2 --json)
b=$(echo "$out" | sed -n 's/.*"bytes_sent_max": \([0-9]*\).*/\1/p')
[ "$b" = "$(( (128 + 32) * 1000 * 8 ))" ] && ok "bytes sent per process equal the model volume (2x2 grid: $b bytes)" \
    || notok "bytes sent $b, model $(( (128 + 32) * 1000 * 8 ))"

# bad input: message naming the argument, non-zero exit, no hang
expect_fail() { # np "args" pattern description
    np=$1 args=$2 pat=$3 what=$4
    out=$(timeout 60 $MPIEXEC -n $np "$DEMODIR/adi" $args 2>&1); rc=$?
    if [ $rc -ne 0 ] && [ $rc -ne 124 ] && echo "$out" | grep -q -- "$pat"; then ok "adi rejects $what"
    else notok "adi rejects $what (exit $rc): $out"; fi
}
expect_fail 1 "--space 0x16x16" "--space" "a zero extent"
expect_fail 1 "--space 16x16" "--space" "a space with the wrong number of dimensions"
expect_fail 1 "--tile-height 0" "--tile-height" "tile height 0"
expect_fail 1 "--model hybrid" "--model" "an unknown model"
expect_fail 1 "--threads 2" "--threads" "threads in the mpi model"
expect_fail 1 "--model funneled --bal 1.5" "--bal" "bal above 1"
expect_fail 1 "--frobnicate 3" "unknown option" "an unknown option"
expect_fail 2 "--grid 3x3" "grid" "a grid that does not match the process count"
expect_fail 2 "--space 16x64x64 --grid 3x1" "^adi: rank 0: the grid 3x1 (cfg.grid; the demos' --grid) has 3 processes but the communicator has 2$" \
    "--grid 3x1 on 2 ranks, naming --grid and 3 processes"
# the time policy's model overflowing names the cost (it said "no process
# grid ... has blocks at least as wide as the dependences"), the rank once
expect_fail 2 "--space 16x64x64 --grid time --tcomp 1e308 --tstartup 1e-6 --bandwidth 1e9" \
    "^adi: rank 0: the time policy's cost model overflows: with tcomp = 1e+308 (cfg.balance.tcomp; the demos' --tcomp)" \
    "--grid time --tcomp 1e308: the model overflows, naming --tcomp"
expect_fail 2 "--space 16x64x64 --grid time --tstartup 1e308" "^adi: rank 0: the time policy's cost model overflows: with tstartup = 1e+308" \
    "--grid time --tstartup 1e308: the model overflows, naming --tstartup"
expect_fail 2 "--space 1x1x50" "^adi: rank 0: [^r]" "more processes than points, naming the rank once"
# the tile height's model overflowing: refused naming --tcomp (--json
# printed "predicted_seconds": inf, "predicted_efficiency": -nan)
out=$(timeout 60 $MPIEXEC -n 2 "$DEMODIR/adi" --space 16x64x64 --tcomp 1e308 --tstartup 1e-6 \
      --bandwidth 1e9 --json 2>&1); rc=$?
if [ $rc -eq 2 ] && ! echo "$out" | grep -qi -e 'inf\|nan' &&
   echo "$out" | grep -q "^adi: rank 0: the tile height's cost model overflows: with tcomp = 1e+308 (cfg.balance.tcomp; the demos' --tcomp)"; then
    ok "adi --tcomp 1e308 --json: refused naming --tcomp, no inf/nan printed"
else
    notok "adi --tcomp 1e308 --json (exit $rc): $out"
fi
expect_fail 2 "--space 1x1x50" "processes" "more processes than points"
expect_fail 1 "--space 4x4x10 --model funneled --threads 17" "thread" "more threads than points"
out=$(timeout 60 $MPIEXEC -n 4 "$DEMODIR/de" --space 8x8x10 --grid 4x1 2>&1); rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] && echo "$out" | grep -q "wider" && ok "de rejects a dependence wider than a block" \
    || notok "de rejects a dependence wider than a block (exit $rc): $out"

# --grid time: the grid of tilectl topo --policy time for the same nest and
# costs (the papers' cluster by default; --tstartup changes the answer)
for extra in "" "--tstartup 1e-6 --bandwidth 1e10"; do
    want=$("$TILECTL" topo --procs 4 --space 16x256x4096 --deps 1,1 --policy time \
           --tile-height 100 $extra 2>&1 |
           sed -n 's/^grid \([0-9x]*\).*/\1/p')
    got=$(timeout 60 $MPIEXEC -n 4 "$DEMODIR/adi" --space 16x256x4096 --grid time $extra --json 2>&1 |
          sed -n 's/.*"grid": \[\([0-9]*\), \([0-9]*\)\].*/\1x\2/p')
    [ -n "$want" ] && [ "$got" = "$want" ] &&
        ok "adi --grid time ${extra:+($extra) }runs on tilectl topo --policy time's grid $want" ||
        notok "adi --grid time $extra: grid '$got', tilectl topo --policy time says '$want'"
done

# --order: every value runs the order asked for (the JSON's "order" is the
# order that ran, plan.store.order; "order_asked" is --order), and all give
# the plain loop's checksum, at 1 and 2 processes, pure MPI and funneled.
# auto (the default) is the plan's choice: the hyperplane order where a
# thread tile is at least 8 points wide along both X dimensions (16x64), the
# plane order where it is not (6x64); hyper forced runs there too.
word() { sed -n "s/.*\"$1\": \"\([a-z0-9]*\)\".*/\1/p"; }
for demo in adi de; do
    bad="" runs=0
    for space in 16x64x30 6x64x30; do
        ref=$(timeout 60 "$B/bench/seq_kernels" $demo $(echo $space | tr x ' ') | checksum)
        [ -n "$ref" ] || { bad="$bad [$space: no sequential reference]"; continue; }
        for run in "1 mpi 1" "2 mpi 1" "1 funneled 2" "2 funneled 2"; do
            set -- $run
            for order in planes z hyper auto; do
                [ $space = 6x64x30 ] && [ $order != auto ] && [ $order != hyper ] && continue
                want=$order
                [ $order = auto ] && { [ $space = 16x64x30 ] && want=hyper || want=planes; }
                out=$(timeout 60 $MPIEXEC -n $1 "$DEMODIR/$demo" --space $space --model $2 \
                      --threads $3 --order $order --json 2>&1)
                got="$(echo "$out" | word order) $(echo "$out" | word order_asked) $(echo "$out" | checksum)"
                runs=$((runs + 1))
                [ "$got" = "$want $order $ref" ] ||
                    bad="$bad [$space np=$1 $2 T=$3 --order $order: want '$want $order $ref', got '$got']"
            done
        done
    done
    [ -z "$bad" ] && ok "$demo --order planes|z|hyper|auto: $runs runs (1-2 processes, mpi and funneled x 2) run the order asked for (auto: hyper on 16x64, planes on 6x64) with the sequential checksum" ||
        notok "$demo --order:$bad"
    # the default is auto, and the summary names the order that ran
    out=$(timeout 60 $MPIEXEC -n 2 "$DEMODIR/$demo" --space 16x64x30 2>&1)
    echo "$out" | grep -q "^$demo 16x64x30, .*, in-tile order hyper (the plan's choice)$" &&
        ok "$demo without --order: the plan's choice, the summary says 'in-tile order hyper (the plan's choice)'" ||
        notok "$demo without --order, summary: $out"
    out=$(timeout 60 $MPIEXEC -n 1 "$DEMODIR/$demo" --space 6x64x30 --order z 2>&1)
    echo "$out" | grep -q "^$demo 6x64x30, .*, in-tile order z (--order)$" &&
        ok "$demo --order z: the summary says 'in-tile order z (--order)'" ||
        notok "$demo --order z, summary: $out"
done
out=$(timeout 60 $MPIEXEC -n 2 "$DEMODIR/de" --order diagonal 2>&1); rc=$?
# (the demo's lines only: Open MPI's launcher adds its own banner on a failed job)
[ $rc -eq 2 ] && [ "$(printf '%s\n' "$out" | grep '^de: ')" = "de: rank 0: --order 'diagonal': expected planes, z, hyper or auto" ] &&
    ok "de --order diagonal: exit 2, one message listing planes, z, hyper and auto" ||
    notok "de --order diagonal (exit $rc): $out"

done_testing
