#!/bin/sh
# tests/cli_seidel.sh -- demos/seidel, Gauss-Seidel sweeps repeated in time
# (PolyBench seidel-2d and a 3-D 7-point variant): reads of the previous
# sweep ahead of the point make the plan skew the space.  The checksum
# equals the plain in-place loop's (--verify) in every model at 1-4
# processes and with fixed grids, is the same string in every run, and bad
# arguments are refused with exit 2 and one message.
set -u
. tests/lib.sh
D=$DEMODIR
scratch cli_seidel

# 1. every model, 1-4 processes, both kernels, sizes and z not dividing
bad=""
runs=0
sums=""
for np in 1 2 3 4; do
    for m in mpi fine funneled multiple; do
        th=2; [ $m = mpi ] && th=1
        for d in 2 3; do
            n=29; [ $d = 3 ] && n=11
            out=$(timeout 120 $MPIEXEC -n $np $D/seidel --dims $d --n $n --steps 7 --model $m \
                  --threads $th --tile-height 5 --verify --json 2>&1)
            runs=$((runs + 1))
            echo "$out" | grep -q '"skewed": true, .*"verify": "ok"' ||
                bad="$bad [np=$np $m dims=$d: $(echo "$out" | tail -1)]"
            sums="$sums $d:$(echo "$out" | sed -n 's/.*"checksum": "\([0-9a-f]*\)".*/\1/p')"
        done
    done
done
[ -z "$bad" ] && ok "seidel --verify: $runs runs (4 models x 1-4 processes x 2-D and 3-D, skewed) equal the plain in-place loop" \
    || notok "seidel --verify:$bad"
n2=$(echo "$sums" | tr ' ' '\n' | grep '^2:' | sort -u | wc -l)
n3=$(echo "$sums" | tr ' ' '\n' | grep '^3:' | sort -u | wc -l)
[ "$n2" -eq 1 ] && [ "$n3" -eq 1 ] && ok "seidel: one checksum per kernel over every run" \
    || notok "seidel: checksums differ between runs:$sums"

# 2. fixed grids over the skewed space's dimensions, z larger than the space
out=""
for g in 2x1 1x2; do
    out="$out $(timeout 120 $MPIEXEC -n 2 $D/seidel --n 17 --steps 4 --grid $g --tile-height 1000 --verify 2>&1 | grep -c '^verify: ok')"
done
[ "$out" = " 1 1" ] && ok "seidel --grid 2x1 and 1x2, one tile: verify ok" || notok "seidel --grid: $out"

# 3. JSON: one line that parses, with its keys
timeout 60 $MPIEXEC -n 2 $D/seidel --n 20 --steps 3 --json > "$T/j" 2>&1
if json_types "$T/j" > "$T/types"; then
    missing=""
    for k in demo dims n steps model processes threads grid skewed checksum seconds points_per_second; do
        grep -q "^$k	" "$T/types" || missing="$missing $k"
    done
    [ -z "$missing" ] && [ "$(wc -l < "$T/j")" -eq 1 ] && ok "seidel --json: one line of valid JSON with every key" \
        || notok "seidel --json: missing$missing"
else
    notok "seidel --json: not valid JSON: $(cat "$T/j")"
fi

# 4. refusals
for args in "--n 2" "--dims 4" "--threads 2" "--grid 3x" "--steps 0" "--bogus 1"; do
    timeout 60 $MPIEXEC -n 2 $D/seidel $args > "$T/out" 2> "$T/err.raw"
    rc=$?
    strip_launcher < "$T/err.raw" > "$T/err"
    [ $rc -eq 2 ] && [ "$(wc -l < "$T/err")" -eq 1 ] && [ ! -s "$T/out" ] &&
        ok "seidel $args: exit 2, one message: $(cat "$T/err")" \
        || notok "seidel $args: exit $rc, stderr: $(head -c 300 "$T/err")"
done
done_testing
