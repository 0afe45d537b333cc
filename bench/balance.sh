#!/bin/sh
# bench/balance.sh -- where the threads' time goes in the funneled model,
# without and with balancing.  2 processes x 2 threads (the papers' dual
# SMP node, here twice oversubscribed on 2 cores); thread 0 is the master,
# the only one that talks MPI.
#
#   balance.csv   per policy, process and thread: median compute,
#                 communication and idle seconds; the master's share factor
#                 at the start and at the end of the run; the wall time.
# Policies: none (even split), constant, variable, adaptive, and two runs
# that start from a deliberately bad split (the master gets half its
# share): fixed at 0.5, and adaptive from 0.5, which must find its way back.
#
# Run by bench/run.sh; alone: QUICK=1 RUNS=1 sh bench/balance.sh
set -eu
. bench/lib.sh
RUNS=${RUNS:-3}
if [ "$QUICK" = 1 ]; then SPACE=64x256x2048; KERNELS=adi
else SPACE=64x256x8192; KERNELS="adi de"; fi
POLICIES="none constant variable adaptive fixed-0.5 adaptive-0.5"

raw=$RESULTS/balance-raw.csv
echo "kernel,space,policy,rank,thread,run,compute,comm,idle,seconds,bal_start,bal_end" > "$raw"
ncase=$(($(echo $KERNELS | wc -w) * 6 * RUNS)); i=0
for r in $(seq "$RUNS"); do
    for kernel in $KERNELS; do
        for pol in $POLICIES; do
            case $pol in
                *-0.5) args="--balance ${pol%-0.5} --bal 0.5" ;;
                *) args="--balance $pol" ;;
            esac
            i=$((i + 1))
            j=$(run_json 2 $DEMODIR/$kernel --space "$SPACE" --model funneled --threads 2 $args)
            check_sum "$kernel" "$SPACE" "$j"
            s=$(echo "$j" | jnum seconds)
            fs=$(echo "$j" | sed -n 's/.*"bal_start": \[\([^]]*\)\].*/\1/p' | tr -d ' ')
            fe=$(echo "$j" | sed -n 's/.*"bal_end": \[\([^]]*\)\].*/\1/p' | tr -d ' ')
            say "[balance $i/$ncase] $kernel $SPACE, 2 x 2 funneled, $pol, run $r: $s s, factors $fs -> $fe"
            { echo "$j" | jrows compute; echo "$j" | jrows comm; echo "$j" | jrows idle; } |
                awk -v pre="$kernel,$SPACE,$pol" -v run="$r" -v s="$s" -v fs="$fs" -v fe="$fe" '
                    { k = $1 "," $2; if (!(k in c)) { ord[++n] = k; c[k] = $3 } else if (!(k in m)) m[k] = $3; else d[k] = $3 }
                    END { split(fs, a, ","); split(fe, b, ",");
                          for (i = 1; i <= n; i++) { k = ord[i]; split(k, rt, ",");
                              printf "%s,%s,%s,%s,%s,%s,%s,%s,%s\n", pre, k, run, c[k], m[k], d[k], s,
                                     a[rt[1] + 1], b[rt[1] + 1] } }' >> "$raw"
        done
    done
done
out=$RESULTS/balance.csv
echo "kernel,space,policy,rank,thread,compute,comm,idle,seconds,bal_start,bal_end" > "$out"
csv_median "$raw" 5 7 8 9 10 11 12 >> "$out"
rm -f "$RESULTS/.stderr"
