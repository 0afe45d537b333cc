#!/bin/sh
# bench/models.sh -- the four programming models on ADI and DE, after
# Fig. 3, 4 and 6 of the balancing paper.
#
#   models.csv        median wall time of pure MPI, fine-grain, funneled
#                     under each balancing policy, and multiple, normalised
#                     to pure MPI, in two settings:
#                       cores:   the machine's 2 cores, so pure MPI is
#                                2 processes and the hybrids 1 process x 2
#                                threads (no process has anything to send,
#                                so every balancing policy gives factor 1);
#                       over2x:  twice oversubscribed like the papers' dual
#                                nodes: pure MPI 4 processes, hybrids
#                                2 processes x 2 threads on the 2 cores.
#   granularity.csv   the same models on the 2 cores, tile height z swept.
#
# Every run's checksum is compared with the plain sequential loop's.
# Run by bench/run.sh; alone: QUICK=1 RUNS=1 sh bench/models.sh
set -eu
. bench/lib.sh
RUNS=${RUNS:-3}
if [ "$QUICK" = 1 ]; then
    SPACES="64x256x1024"; GSPACE=64x256x1024; TILES="10 100 400"; GKERNELS=adi
else
    SPACES="16x256x4096 64x256x4096 256x256x4096"; GSPACE=64x256x4096
    TILES="5 10 25 50 100 200 400 800"; GKERNELS="adi de"
fi
CONFIGS="mpi:none fine:none funneled:none funneled:constant funneled:variable funneled:adaptive multiple:none"

raw=$RESULTS/models-raw.csv
echo "kernel,space,setting,model,balance,processes,threads,run,seconds" > "$raw"
ncase=$((2 * $(echo $SPACES | wc -w) * 2 * 7 * RUNS)); i=0
for r in $(seq "$RUNS"); do
    for kernel in adi de; do
        for sp in $SPACES; do
            for setting in cores over2x; do
                for c in $CONFIGS; do
                    model=${c%%:*}; bal=${c#*:}
                    if [ "$model" = mpi ]; then th=1; np=$([ $setting = cores ] && echo 2 || echo 4)
                    else th=2; np=$([ $setting = cores ] && echo 1 || echo 2); fi
                    i=$((i + 1))
                    j=$(run_json "$np" $DEMODIR/$kernel --space "$sp" --model "$model" --threads "$th" --balance "$bal")
                    check_sum "$kernel" "$sp" "$j"
                    s=$(echo "$j" | jnum seconds)
                    say "[models $i/$ncase] $kernel $sp, $setting, $model ($bal), $np x $th, run $r: $s s"
                    echo "$kernel,$sp,$setting,$model,$bal,$np,$th,$r,$s" >> "$raw"
                done
            done
        done
    done
done
out=$RESULTS/models.csv
echo "kernel,space,setting,model,balance,processes,threads,seconds,ratio_to_mpi" > "$out"
csv_median "$raw" 7 9 > "$RESULTS/.med"
awk -F, '{ k = $1 "," $2 "," $3; if ($4 == "mpi") base[k] = $8; l[NR] = $0; t[NR] = $8; kk[NR] = k }
    END { for (i = 1; i <= NR; i++) printf "%s,%.4f\n", l[i], t[i] / base[kk[i]] }' "$RESULTS/.med" >> "$out"

# granularity -------------------------------------------------------------
raw=$RESULTS/granularity-raw.csv
echo "kernel,space,model,balance,processes,threads,tile_height,run,seconds" > "$raw"
GCONFIGS="mpi:none fine:none funneled:none multiple:none"
ncase=$(($(echo $GKERNELS | wc -w) * $(echo $TILES | wc -w) * 4 * RUNS)); i=0
for r in $(seq "$RUNS"); do
    for kernel in $GKERNELS; do
        for zt in $TILES; do
            for c in $GCONFIGS; do
                model=${c%%:*}; bal=${c#*:}
                if [ "$model" = mpi ]; then np=2; th=1; else np=1; th=2; fi
                i=$((i + 1))
                j=$(run_json "$np" $DEMODIR/$kernel --space "$GSPACE" --model "$model" --threads "$th" \
                    --tile-height "$zt")
                check_sum "$kernel" "$GSPACE" "$j"
                s=$(echo "$j" | jnum seconds)
                say "[granularity $i/$ncase] $kernel $GSPACE, $model, $np x $th, tile height $zt, run $r: $s s"
                echo "$kernel,$GSPACE,$model,$bal,$np,$th,$zt,$r,$s" >> "$raw"
            done
        done
    done
done
out=$RESULTS/granularity.csv
echo "kernel,space,model,balance,processes,threads,tile_height,seconds" > "$out"
csv_median "$raw" 7 9 >> "$out"
rm -f "$RESULTS/.med" "$RESULTS/.stderr"
