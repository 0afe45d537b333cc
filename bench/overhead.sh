#!/bin/sh
# bench/overhead.sh -- what the toolkit costs (or saves) on one process: the
# ADI and DE demos at 1 process x 1 thread against the plain sequential
# x, y, z loop nest (bench/seq_kernels.c), same compiler and flags.  Both
# in-tile orders of the toolkit (--order planes and z), at the demos' default
# tile height 100 and at 10.
#
#   overhead.csv   median seconds and the ratio plain / toolkit (above 1:
#                  the tiled loop is faster than the plain one).
#
# Run by bench/run.sh; alone: QUICK=1 RUNS=1 sh bench/overhead.sh
set -eu
. bench/lib.sh
RUNS=${RUNS:-3}
SPACE=$([ "$QUICK" = 1 ] && echo 64x256x2048 || echo 64x256x8192)

raw=$RESULTS/overhead-raw.csv
echo "kernel,space,variant,run,seconds" > "$raw"
ncase=$((2 * 5 * RUNS)); i=0
for r in $(seq "$RUNS"); do
    for kernel in adi de; do
        i=$((i + 1))
        j=$(seq_run "$kernel" $(echo "$SPACE" | tr x ' '))
        ref=$(echo "$j" | jnum checksum); s=$(echo "$j" | jnum seconds)
        say "[overhead $i/$ncase] $kernel $SPACE, plain sequential loop, run $r: $s s"
        echo "$kernel,$SPACE,plain,$r,$s" >> "$raw"
        for v in planes:100 z:100 planes:10 z:10; do
            order=${v%:*} zt=${v#*:}
            i=$((i + 1))
            j=$(run_json 1 $DEMODIR/$kernel --space "$SPACE" --order "$order" --tile-height "$zt")
            [ "$(echo "$j" | jnum checksum)" = "$ref" ] ||
                die "$kernel $SPACE --order $order: checksum differs from the plain loop's"
            [ "$(echo "$j" | jnum order)" = "$order" ] || die "$kernel: --order $order ran $(echo "$j" | jnum order)"
            s=$(echo "$j" | jnum seconds)
            say "[overhead $i/$ncase] $kernel $SPACE, toolkit 1 process, order $order, tile height $zt, run $r: $s s"
            echo "$kernel,$SPACE,toolkit-$order-z$zt,$r,$s" >> "$raw"
        done
    done
done
out=$RESULTS/overhead.csv
csv_speedup "$raw" "$out" space
rm -f "$RESULTS/.stderr"
