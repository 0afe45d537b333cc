#!/bin/sh
# bench/run-models.sh -- ADI and DE on this machine: the plain sequential
# triple loop against the four models (same compiler flags: -O2).
#   sh bench/run-models.sh [SPACE] [RUNS]      default 64x256x16384, 3 runs
# Prints medians of RUNS runs, measured in one go, and the ratios.
set -eu
MPIEXEC=${MPIEXEC:-mpiexec}
SPACE=${1:-64x256x16384}
RUNS=${2:-3}
X=$(echo "$SPACE" | cut -dx -f1); Y=$(echo "$SPACE" | cut -dx -f2); Z=$(echo "$SPACE" | cut -dx -f3)

field() { sed -n "s/.*\"$1\": \"\{0,1\}\([0-9a-f.]*\)\"\{0,1\}.*/\1/p"; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

for kernel in adi de; do
    echo "== $kernel $SPACE, median of $RUNS runs (seconds), tile height 100"
    seqs="" ; ref=""
    for r in $(seq "$RUNS"); do
        out=$(./build/bench/seq_kernels $kernel "$X" "$Y" "$Z")
        seqs="$seqs $(echo "$out" | field seconds)"
        ref=$(echo "$out" | field checksum)
    done
    seq_med=$(echo $seqs | tr ' ' '\n' | median)
    printf "%-50s %8.3f s   1.00x   checksum %s\n" "plain sequential loop (x, y, z order)" "$seq_med" "$ref"
    for cfg in "1 mpi 1 --order planes" "2 mpi 1 --order planes" "1 fine 2 --order planes" \
               "1 funneled 2 --order planes" "1 multiple 2 --order planes" \
               "1 mpi 1 --order z" "2 mpi 1 --order z" "1 fine 2 --order z" \
               "1 funneled 2 --order z" "1 multiple 2 --order z"; do
        set -- $cfg
        np=$1 model=$2 th=$3; shift 3
        ts="" ; sum=""
        for r in $(seq "$RUNS"); do
            out=$($MPIEXEC -n "$np" ./demos/$kernel --space "$SPACE" --model "$model" \
                  --threads "$th" "$@" --json)
            ts="$ts $(echo "$out" | field seconds)"
            sum=$(echo "$out" | field checksum)
        done
        med=$(echo $ts | tr ' ' '\n' | median)
        same=$([ "$sum" = "$ref" ] && echo "same checksum" || echo "CHECKSUM DIFFERS: $sum")
        printf "%-50s %8.3f s   %4.2fx   %s\n" "$np process x $th thread(s), model $model $*" "$med" \
            "$(echo "$seq_med $med" | awk '{print $1 / $2}')" "$same"
    done
done
