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
        pick 2 || continue      # the quick tier: a sample (tests/lib.sh)
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
[ -z "$bad" ] && [ $runs -gt 0 ] && ok "seidel --verify: $runs runs (4 models x 1-4 processes x 2-D and 3-D, skewed) equal the plain in-place loop" \
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

# refused_with NAME WANT ARGS...: $D/seidel (or the program ARGS name) at 2
# processes exits 2 with one message matching WANT (under a 4 GB
# address-space limit: what a check lets through fails to allocate instead
# of allocating past the machine's memory)
refused_with() {
    name=$1 want=$2
    shift 2
    start=$(date +%s)
    ( ulimit -v 4000000 2>/dev/null
      exec timeout 60 $MPIEXEC -n 2 "$@" ) > "$T/out" 2> "$T/err.raw" < /dev/null
    rc=$?
    took=$(( $(date +%s) - start ))
    strip_launcher < "$T/err.raw" > "$T/err"
    [ $rc -eq 2 ] && [ "$(wc -l < "$T/err")" -eq 1 ] && grep -q -e "$want" "$T/err" &&
        ok "$name: exit 2 in ${took} s: $(cat "$T/err")" ||
        notok "$name: exit $rc after ${took} s, want 2 and '$want': $(head -c 300 "$T/err")"
}

# 5. --verify's plain loop holds the whole array on rank 0: past the
# rank's memory limit (half the physical memory shared by the ranks on this
# node, as tiling.h's default; or TILEHYBRID_MEM_LIMIT) it is refused before
# anything is allocated (the run started, then compared a failed
# allocation: "MISMATCH"), naming --verify, the size, the limit and --n
mem=$(( $(getconf _PHYS_PAGES 2>/dev/null || echo 0) * $(getconf PAGESIZE 2>/dev/null || echo 0) ))
share=$((mem / 2 / 2))   # 2 ranks on this node
if [ "$mem" -gt 0 ] && [ "$share" -lt 8796093022208 ]; then
    refused_with "seidel --n 1048576 --verify (8.8 TB on rank 0)" \
        "^seidel: rank 0: --verify: the plain loop's n x n array (on rank 0): 1099511627776 points of 8 bytes = 8796093022208 bytes, more than its memory limit of $share bytes (half the physical memory, shared by the 2 ranks on this node: TILEHYBRID_MEM_LIMIT); lower --n$" \
        $D/seidel --n 1048576 --steps 1 --verify
else
    skip "seidel --n 1048576 --verify" "this machine has 35 TB or more (or its size is unknown)"
fi
# an array of about half the machine: under the machine's memory, but past
# the share of one of the 2 ranks on this node (the check compared it with
# the whole memory and let it through)
n=$(awk -v m="$mem" 'BEGIN { printf "%d", sqrt(m / 16) + 1 }')
if [ "$mem" -gt 0 ] && [ "$n" -le 1048576 ]; then
    refused_with "seidel --n $n --verify (about half of this machine on rank 0)" \
        "^seidel: rank 0: --verify: the plain loop's n x n array (on rank 0): $((n * n)) points of 8 bytes = $((n * n * 8)) bytes, more than its memory limit of $share bytes (half the physical memory, shared by the 2 ranks on this node: TILEHYBRID_MEM_LIMIT); lower --n$" \
        $D/seidel --n $n --steps 1 --verify
else
    skip "seidel --verify past the node's share" "this machine's size is unknown or above 16 TB"
fi
export TILEHYBRID_MEM_LIMIT=1000000
refused_with "TILEHYBRID_MEM_LIMIT=1000000: seidel --n 1000 --verify" \
    "^seidel: rank 0: --verify: the plain loop's n x n array (on rank 0): 1000000 points of 8 bytes = 8000000 bytes, more than its memory limit of 1000000 bytes (TILEHYBRID_MEM_LIMIT); lower --n$" \
    $D/seidel --n 1000 --steps 1 --verify
unset TILEHYBRID_MEM_LIMIT
# an allocation that fails anyway (a 600 MB address-space limit, an array
# of 800 MB) is an error naming the size, exit 1, never a mismatch
out=$( (ulimit -v 600000 2>/dev/null; exec timeout 60 $D/seidel --n 10000 --steps 1 --verify) 2>&1 )
rc=$?
echo "$out" | grep -q "^seidel: rank 0: --verify: out of memory for the plain loop's array (100000000 points of 8 bytes)$" &&
    [ $rc -eq 1 ] && ! echo "$out" | grep -q MISMATCH &&
    ok "seidel --verify under a 600 MB limit: exit 1, 'out of memory' with the size, no MISMATCH" ||
    notok "seidel --verify under a 600 MB limit: exit $rc: $(echo "$out" | tail -2)"
# a space too large for the plan names the options and the rank once
refused_with "seidel --n 100000 --steps 1000000000: the message names the options" \
    "^seidel: rank 0: .* (--n 100000, --steps 1000000000, --dims 2)$" \
    $D/seidel --n 100000 --steps 1000000000
# --steps out of range (0, negative, past 2^30, past 64 bits): the option
# and the allowed range named
for s in 0 -5 1073741825 99999999999999999999; do
    refused_with "seidel --steps $s: --steps and its range named" \
        "^seidel: rank 0: --steps '$s': expected a whole number in 1\\.\\.1073741824$" \
        $D/seidel --n 10 --steps $s
done
# an unknown option as the last word is unknown, not "needs a value"
for prog in seidel sw scatter; do
    refused_with "$prog --bogus: an unknown option" "unknown option '--bogus'" $D/$prog --bogus
done
refused_with "seidel --n: a known option without its value" "^seidel: rank 0: --n needs a value" $D/seidel --n
# --grid divides the skewed space (t, i', j'): the message says so
refused_with "seidel --steps 1 --grid 2x1: the skewed dimension named" \
    "^seidel: rank 0: 2 processes along skewed dimension 1 but only 1 points" \
    $D/seidel --n 32 --steps 1 --grid 2x1
done_testing
