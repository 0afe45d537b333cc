#!/bin/sh
# bench/kernels.sh -- the dependence demos against their plain loops:
# demos/seidel (PolyBench seidel-2d, skewed by the plan) and demos/sw
# (Smith-Waterman with affine gaps, a diagonal stencil), pure MPI on 1 and
# 2 processes, at the demos' default tile heights.
#
#   kernels.csv   median seconds of the plain loop (the demo's --verify
#                 loop, timed on its own: plain_seconds), of the toolkit on
#                 1 and on 2 processes, and plain / variant (above 1: faster
#                 than the plain loop).  Issue targets: seidel 4096^2 x 100
#                 at 2 processes >= 1.6, 1 process >= 0.9; sw 20000^2 at 2
#                 processes >= 1.7.
#
# Every run's checksum (seidel) or score and end (sw) equals the plain
# loop's: the 1-process runs use --verify, the 2-process runs are compared
# with them.  Run by bench/run.sh; alone: QUICK=1 RUNS=1 sh bench/kernels.sh
set -eu
. bench/lib.sh
RUNS=${RUNS:-3}
if [ "$QUICK" = 1 ]; then
    SEIDEL="--n 1024 --steps 10"; SW="--random 4000,4000"
else
    SEIDEL="--n 4096 --steps 100"; SW="--random 20000,20000"
fi

# kv JSON: the result that must not change (seidel checksum, sw score and end)
kv() { echo "$1" | sed -n -e 's/.*"checksum": *"\([0-9a-f]*\)".*/\1/p' \
                          -e 's/.*"score": *\([0-9]*\), *"end": *\[\([0-9, ]*\)\].*/\1 \2/p'; }

raw=$RESULTS/kernels-raw.csv
echo "kernel,size,variant,run,seconds" > "$raw"
ncase=$((2 * 2 * RUNS)); i=0
for r in $(seq "$RUNS"); do
    for kernel in seidel sw; do
        if [ $kernel = seidel ]; then args=$SEIDEL; else args=$SW; fi
        size=$(echo "$args" | tr -d ' -' | tr , x | sed 's/random//; s/n\([0-9]*\)steps/\1x\1x/')
        i=$((i + 1))
        j=$(run_json 1 $DEMODIR/$kernel $args --verify)
        [ "$(echo "$j" | jnum verify)" = ok ] || die "$kernel $args: --verify did not say ok"
        ref=$(kv "$j")
        [ -n "$ref" ] || die "$kernel $args: no result in its JSON"
        say "[kernels $i/$ncase] $kernel $args, run $r: plain loop $(echo "$j" | jnum plain_seconds) s, toolkit 1 process $(echo "$j" | jnum seconds) s"
        echo "$kernel,$size,plain,$r,$(echo "$j" | jnum plain_seconds)" >> "$raw"
        echo "$kernel,$size,toolkit-1,$r,$(echo "$j" | jnum seconds)" >> "$raw"
        i=$((i + 1))
        j=$(run_json 2 $DEMODIR/$kernel $args)
        [ "$(kv "$j")" = "$ref" ] || die "$kernel $args on 2 processes: $(kv "$j"), the plain loop $ref"
        say "[kernels $i/$ncase] $kernel $args, run $r: toolkit 2 processes $(echo "$j" | jnum seconds) s"
        echo "$kernel,$size,toolkit-2,$r,$(echo "$j" | jnum seconds)" >> "$raw"
    done
done
out=$RESULTS/kernels.csv
csv_speedup "$raw" "$out" size
rm -f "$RESULTS/.stderr"
cat "$out"
