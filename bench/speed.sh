#!/bin/sh
# bench/speed.sh -- tiles at SIMD speed (issue 13): the ADI and DE kernels
# on one process in G points/s against the plain loop and the machine's
# limit, each built at plain -O2 (flags "O2", the Makefile's CFLAGS) and at
# -O2 -march=native (flags "native": build/bench-native/, NATIVE_CFLAGS);
# and the speedup of 2 cores over the toolkit's own 1-process run.
#
#   speed.csv        per kernel (and space), flags and variant: median
#                    seconds, G points/s, checksum, the order that ran and
#                    the tile height (the median of the runs' last heights):
#                      plain      the plain x, y, z loop (bench/seq_kernels.c)
#                      planes, z, hyper   the toolkit with its in-tile order
#                                 forced (bench/inner_order.c), the tile
#                                 height the plan's
#                      auto       the plan's own choices: no tuning flags
#                      limit      the same expression over independent points
#                                 from the L1 cache, vectorised
#                                 (bench/limit.c): the division-throughput
#                                 bound no variant can pass
#                      limit-512  (native) the same at 512-bit vectors
#   speed-cores.csv  per kernel and flags: the toolkit's defaults (auto) on
#                    1 process, pure MPI on 2 processes, funneled 1 process
#                    x 2 threads: median seconds, G points/s, speedup over
#                    the 1-process run (issue target: at least 1.7 each).
#
# A toolkit run is one plan run 3 times (the first run times the body and
# the plan may re-choose its height), the median of the three; a case's time
# is the median of RUNS such runs, the cases interleaved.  Wall time (the
# slowest rank's): take it on a quiet machine.  Every run's checksum (the
# native plain loop's too) is the -O2 plain loop's, and the limit's is the
# same at every flag set, or the benchmark stops.  The full set should take
# about 7 minutes on 2 cores (estimated from the parts' single-run times);
# --quick (64x256x256, 2 runs of a plan, 1 run each) takes seconds.
# Run by bench/run.sh; alone (after make bench-quick builds both sets):
# QUICK=1 RUNS=1 sh bench/speed.sh
set -eu
speed_wait=${OMP_WAIT_POLICY-}
. bench/lib.sh
# No run here has more processes or threads than the 2 cores, so the OpenMP
# threads wait as a user's would (OMP_WAIT_POLICY unset, unless you set it),
# not passive as bench/lib.sh sets for oversubscribed runs: a passive thread
# sleeps at the barrier that ends every tile step (funneled 1 x 2, ADI -O2:
# a median of 0.172 s passive against 0.127 s by default, docs/RESULTS.md,
# "The targets at the end of issue 13").
if [ -n "$speed_wait" ]; then export OMP_WAIT_POLICY="$speed_wait"; else unset OMP_WAIT_POLICY; fi
RUNS=${RUNS:-3}
NB=$B/bench-native
if [ "$QUICK" = 1 ]; then
    SPACE=64x256x256; ROUNDS=2; LROUNDS=1
else
    SPACE=64x256x16384; ROUNDS=3; LROUNDS=5
fi
set -- $(echo "$SPACE" | tr x ' ')
POINTS=$(($1 * $2 * $3))
for p in $B/bench/inner_order $B/bench/seq_kernels $B/bench/limit \
         $NB/inner_order $NB/seq_kernels $NB/limit $NB/limit-512; do
    [ -x "$p" ] || die "$p is missing (make bench builds it; alone: make $NB/inner_order ...)"
done
say "load before: $(cut -d' ' -f1-3 /proc/loadavg)"

raw=$RESULTS/speed-raw.csv
echo "kernel,flags,variant,processes,threads,run,seconds,gpoints,checksum,order_run,tile_height" > "$raw"
row() { # row KERNEL FLAGS VARIANT NP THREADS JSON: a run's line in $raw, and its progress line
    r_j=$6 r_s=$(echo "$6" | jnum seconds) r_g=$(echo "$6" | jnum gpoints)
    [ -n "$r_g" ] || r_g=$(awk -v n="$POINTS" -v s="$r_s" 'BEGIN { printf "%.4f", n / s / 1e9 }')
    printf '%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n' "$1" "$2" "$3" "$4" "$5" "$r" "$r_s" "$r_g" \
        "$(echo "$r_j" | jnum checksum)" "$(echo "$r_j" | jnum order_run)" \
        "$(echo "$r_j" | jnum tile_height)" >> "$raw"
    say "[speed] $1 $SPACE, $2, $3, $4 x $5, run $r: $r_s s, $r_g G points/s$(
        o=$(echo "$r_j" | jnum order_run); [ -z "$o" ] || echo ", order $o, tile height $(echo "$r_j" | jnum tile_height)")"
}
# seq_run_in DIR KERNEL: the plain loop of that build over $SPACE
seq_run_in() { "$1/seq_kernels" "$2" $(echo "$SPACE" | tr x ' '); }
# toolkit KERNEL FLAGS VARIANT DIR NP ORDER [MODEL THREADS]
toolkit() {
    t_k=$1 t_f=$2 t_v=$3 t_d=$4 t_np=$5 t_o=$6; shift 6
    t_j=$(run_json "$t_np" "$t_d/inner_order" "$t_k" $(echo "$SPACE" | tr x ' ') "$t_o" 0 "$ROUNDS" "$@")
    check_sum "$t_k" "$SPACE" "$t_j"
    row "$t_k" "$t_f" "$t_v" "$t_np" "${2:-1}" "$t_j"
}
for r in $(seq "$RUNS"); do
    for k in adi de; do
        lsum=
        for f in O2 native; do
            if [ $f = O2 ]; then d=$B/bench; else d=$NB; fi
            j=$(seq_run_in "$d" "$k") || die "$d/seq_kernels $k $SPACE failed"
            check_sum "$k" "$SPACE" "$j"
            row "$k" "$f" plain 1 1 "$j"
            for o in planes z hyper auto; do toolkit "$k" "$f" "$o" "$d" 1 "$o"; done
            toolkit "$k" "$f" mpi-2 "$d" 2 auto mpi 1
            toolkit "$k" "$f" funneled-1x2 "$d" 1 auto funneled 2
            for l in limit limit-512; do
                [ $l = limit ] || [ $f = native ] || continue
                j=$("$d/$l" "$k" "$POINTS" "$LROUNDS") || die "$d/$l $k failed"
                c=$(echo "$j" | jnum checksum)
                [ "${lsum:=$c}" = "$c" ] ||
                    die "$d/$l $k: checksum $c, the -O2 build's $lsum (floating-point contraction?)"
                row "$k" "$f" "$l" 1 1 "$j"
            done
        done
    done
done
say "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

# medians: kernel,flags,variant,processes,threads,seconds,gpoints,tile height;
# the checksum and the order from the group's last run (the checksum is the
# same in every run: checked above)
csv_median "$raw" 5 7 8 11 > "$RESULTS/.med"
out=$RESULTS/speed.csv
echo "kernel,space,flags,variant,seconds,gpoints,checksum,order_run,tile_height" > "$out"
cores=$RESULTS/speed-cores.csv
echo "kernel,space,flags,variant,processes,threads,seconds,gpoints,speedup_over_1_process" > "$cores"
awk -F, -v sp="$SPACE" 'NR == FNR { if (FNR > 1) { key = $1 "," $2 "," $3; cs[key] = $9; ord[key] = $10 } next }
    { key = $1 "," $2 "," $3 }
    $4 == 1 && $5 == 1 { printf "%s,%s,%s,%s,%.6f,%.4f,%s,%s,%s\n", $1, sp, $2, $3, $6, $7, cs[key],
                               ord[key], (ord[key] == "" ? "" : sprintf("%d", $8)) >> out }
    $3 == "auto" { base[$1 "," $2] = $6 }
    $3 == "auto" || $4 * $5 > 1 { c[++n] = $0; ck[n] = $1 "," $2 }
    END { for (i = 1; i <= n; i++) { split(c[i], v, ",");
            printf "%s,%s,%s,%s,%s,%s,%.6f,%.4f,%.3f\n", v[1], sp, v[2], (v[3] == "auto" ? "toolkit-1" : v[3]),
                   v[4], v[5], v[6], v[7], base[ck[i]] / v[6] >> cores } }' \
    out="$out" cores="$cores" "$raw" "$RESULTS/.med"
rm -f "$RESULTS/.med" "$RESULTS/.stderr"
cat "$out" "$cores"
