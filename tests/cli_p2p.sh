#!/bin/sh
# tests/cli_p2p.sh -- demos/p2p, the Parallel Research Kernels' Synch_p2p:
# the whole m x n array after the sweeps equals the plain loop's bit for bit
# (--verify) in every model at 1-4 processes, on odd sizes of either shape;
# the corner is PRK's (iterations + 1)(m + n - 2), exactly, and the result
# lines are PRK's; sizes the processes cannot share and bad arguments are
# refused with one message and exit 2.
set -u
. tests/lib.sh
D=$DEMODIR
scratch cli_p2p

# 1. every model, 1-4 processes, odd sizes, a tile height that divides
# nothing; the two shapes (m < n: x along i; m > n: the sides swapped)
# alternate
bad=""
runs=0
shape=37,91
for np in 1 2 3 4; do
    for m in mpi fine funneled multiple; do
        shape=$([ $shape = 37,91 ] && echo 91,37 || echo 37,91)
        pick 2 || continue      # the quick tier: a sample (tests/lib.sh)
        th=2; [ $m = mpi ] && th=1
        out=$(timeout 120 $MPIEXEC -n $np $D/p2p --size $shape --iterations 3 --model $m \
              --threads $th --tile-height 7 --verify 2>&1)
        runs=$((runs + 1))
        echo "$out" | grep -q '^Solution validates$' && echo "$out" | grep -q '^verify: ok (0 of' ||
            bad="$bad [np=$np $m $shape: $(echo "$out" | tail -2 | tr '\n' ' ')]"
    done
done
[ -z "$bad" ] && [ $runs -gt 0 ] && ok "p2p --verify: $runs runs (4 models x 1-4 processes, both shapes) equal the plain loop, the corner validates" \
    || notok "p2p --verify:$bad"

# 2. the corner, exactly: (K + 1)(m + n - 2) in the JSON; the plan's own
# tile height (timed on the first sweep); a side of 2 (one row to compute)
for run in "1 2,9 4 mpi 1" "2 9,5 5 fine 2" "3 45,23 2 funneled 3" "4 64,33 6 multiple 2" \
           "2 1001,777 1 mpi 1"; do
    set -- $run
    want=$(( ($3 + 1) * (${2%,*} + ${2#*,} - 2) ))
    out=$(timeout 120 $MPIEXEC -n $1 $D/p2p --size $2 --iterations $3 --model $4 --threads $5 \
          --verify --json 2>&1)
    echo "$out" | grep -q "\"corner\": $want, \"expected\": $want, \"validates\": true," &&
        echo "$out" | grep -q '"verify": "ok", "mismatches": 0,' &&
        ok "p2p --size $2 --iterations $3 at $1 process(es), $4 x $5: the corner is $want, every point equal" ||
        notok "p2p --size $2 --iterations $3 ($run): want corner $want: $out"
done

# 3. PRK's lines, as a bench reads them beside PRK's binary
out=$(timeout 120 $MPIEXEC -n 2 $D/p2p --size 300,200 --iterations 4 2>&1)
if echo "$out" | grep -q '^Solution validates$' &&
   echo "$out" | grep -Eq '^Rate \(MFlops/s\): [0-9]+\.[0-9]{6} Avg time \(s\): [0-9]+\.[0-9]{6}$' &&
   echo "$out" | grep -q '^Grid sizes                     = 300, 200$' &&
   echo "$out" | grep -q '^Number of iterations           = 4$' &&
   echo "$out" | grep -q '^Number of ranks                = 2$'; then
    ok "p2p prints PRK's lines (sizes, iterations, ranks, Solution validates, Rate ... Avg time)"
else
    notok "p2p PRK's lines: $out"
fi

# 4. refusals: one line on stderr, exit 2, on every rank
refused() { # NP WANT ARGS...
    np=$1 want=$2
    shift 2
    run_job $np $D/p2p "$@"
    [ $rc -eq 2 ] && [ "$(wc -l < "$T/err")" -eq 1 ] && grep -qF -e "$want" "$T/err" &&
        ok "p2p $* at $np: exit 2, $(cat "$T/err")" ||
        notok "p2p $* at $np: exit $rc, want '$want', stderr: $(head -c 300 "$T/err")"
}
refused 2 "--size '5': expected M,N" --size 5
refused 2 "--size '1,5': expected M,N, two whole numbers in 2..1000000000" --size 1,5
refused 2 "--iterations '0': expected a whole number in 1..1000000000" --iterations 0
refused 2 "--threads > 1 needs --model fine, funneled or multiple" --threads 2
refused 2 "--model 'hybrid': expected mpi, fine, funneled or multiple" --model hybrid
refused 2 "--tile-height '0': expected a whole number >= 1" --tile-height 0
refused 2 "unknown option '--m' (see --help)" --m 5
refused 2 "past 2^53" --size 1000000000,1000000000 --iterations 1000000000
# the shorter side minus 1 (the points to compute across) must reach the
# process count: 3 x 100 has 2, so 4 processes are refused, 2 run
refused 4 "--size 3,100: the shorter side has 2 points to compute (its length - 1), fewer than the 4 processes" --size 3,100
refused 3 "--size 200,3: the shorter side has 2 points" --size 200,3
out=$(timeout 60 $MPIEXEC -n 2 $D/p2p --size 3,100 --iterations 2 --verify 2>&1)
echo "$out" | grep -q '^verify: ok (0 of' && ok "p2p --size 3,100 at 2 processes (2 rows, one each): verified" \
    || notok "p2p --size 3,100 at 2: $out"
# more threads than a block's points: the plan's message, naming --threads
run_job 2 $D/p2p --size 5,50 --model fine --threads 3
[ $rc -eq 2 ] && [ "$(wc -l < "$T/err")" -eq 1 ] && grep -q -e "--threads 3" "$T/err" &&
    ok "p2p --size 5,50 --threads 3 at 2 (2 rows each): exit 2, $(cat "$T/err")" ||
    notok "p2p too many threads: exit $rc: $(head -c 300 "$T/err")"
done_testing
