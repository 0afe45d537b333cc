#!/bin/sh
# tests/cli_sw.sh -- demos/sw, Smith-Waterman with affine gaps on a declared
# diagonal stencil: the best score and its first end position equal the
# plain double loop's (--verify) in every model at 1-4 processes, with
# either sequence the longer one, from FASTA files, on cases small enough
# to check by hand; bad arguments are refused with exit 2.
set -u
. tests/lib.sh
D=$DEMODIR
scratch cli_sw

# 1. every model, 1-4 processes, z not dividing the length, both shapes
bad=""
runs=0
for np in 1 2 3 4; do
    for m in mpi fine funneled multiple; do
        pick 2 || continue      # the quick tier: a sample (tests/lib.sh)
        th=2; [ $m = mpi ] && th=1
        for shape in 120,700 700,120; do
            out=$(timeout 120 $MPIEXEC -n $np $D/sw --random $shape --seed $np --model $m \
                  --threads $th --tile-height 37 --verify 2>&1)
            runs=$((runs + 1))
            echo "$out" | grep -q '^verify: ok' || bad="$bad [np=$np $m $shape: $(echo "$out" | tail -1)]"
        done
    done
done
[ -z "$bad" ] && [ $runs -gt 0 ] && ok "sw --verify: $runs runs (4 models x 1-4 processes x both shapes) equal the plain loop" \
    || notok "sw --verify:$bad"

# 2. by hand: a = ACGT, b = TTACGTAA: ACGT matches in full, score 8 at (4, 6)
printf '>a\nAC\nGT\n' > "$T/a.fa"
printf '>b some description\nttacgtaa\n' > "$T/b.fa"
out=$(timeout 60 $MPIEXEC -n 2 $D/sw --a "$T/a.fa" --b "$T/b.fa" --json 2>&1)
echo "$out" | grep -q '"score": 8, "end": \[4, 6\]' && ok "FASTA ACGT vs ttacgtaa: score 8 ending at (4, 6)" \
    || notok "FASTA ACGT vs ttacgtaa: $out"
# ties: AA against AAxAA (x a mismatch) scores 4 twice; the first in
# row-major order is (2, 2)
# a file of two records is refused (one sequence per file), naming the line
printf '>x\nACGT\n>y\nTTTT\n' > "$T/two.fa"
out=$(timeout 60 $MPIEXEC -n 2 $D/sw --a "$T/two.fa" --b "$T/b.fa" 2>&1)
rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q "line 3: a second record ('>'): give one sequence per file" &&
    ok "FASTA with two records: refused, exit 2, naming line 3" || notok "two records: exit $rc: $out"
printf 'AA\n' > "$T/c.fa"
printf 'AAGAA\n' > "$T/d.fa"
out=$(timeout 60 $MPIEXEC -n 2 $D/sw --a "$T/c.fa" --b "$T/d.fa" 2>&1)
echo "$out" | grep -q 'best score 4 ending at (2, 2)' && ok "a tie (AA in AAGAA twice): the first end in row-major order, (2, 2)" \
    || notok "tie: $out"
# affine gap: ACGTTTACGT against ACGTACGT: one gap of 2 costs 3 + 1
printf 'ACGTTTACGT\n' > "$T/e.fa"
printf 'ACGTACGT\n' > "$T/f.fa"
out=$(timeout 60 $MPIEXEC -n 2 $D/sw --a "$T/e.fa" --b "$T/f.fa" --model multiple --threads 2 2>&1)
echo "$out" | grep -q 'best score 12 ending at (10, 8)' && ok "one gap of length 2: 8 matches x 2 - (3 + 1) = 12 at (10, 8)" \
    || notok "affine gap: $out"
# a tie when a is the longer sequence (the plan swaps the axes: i along Z,
# j along x): ACGT...C (20) against CCCCGGACGT scores 8 at (4, 10) (ACGT)
# and at (8, 4) (CCCC); the loop's first is (4, 10), the plan's own (x, Z)
# order would give (8, 4)
printf 'ACGTCCCCCCCCCCCCCCCC\n' > "$T/g.fa"
printf 'CCCCGGACGT\n' > "$T/h.fa"
for run in "1 mpi 1" "3 mpi 1" "2 fine 2" "3 funneled 2" "2 multiple 3"; do
    set -- $run
    out=$(timeout 60 $MPIEXEC -n $1 $D/sw --a "$T/g.fa" --b "$T/h.fa" --model $2 --threads $3 \
          --tile-height 3 2>&1)
    echo "$out" | grep -q 'best score 8 ending at (4, 10)' \
        && ok "a tie with a longer (axes swapped), $1 process(es), $2 x $3: the first in row-major order, (4, 10)" \
        || notok "swapped tie ($run): $out"
done

# 3. refusals
for args in "--random 5" "--random 0,5" "--a $T/a.fa" "--threads 2" "--gap-open x" "--a /nonexistent --b $T/b.fa"; do
    timeout 60 $MPIEXEC -n 2 $D/sw $args > "$T/out" 2> "$T/err.raw"
    rc=$?
    strip_launcher < "$T/err.raw" > "$T/err"   # Open MPI's banner on a nonzero exit
    [ $rc -eq 2 ] && [ "$(wc -l < "$T/err")" -eq 1 ] && ok "sw $args: exit 2, one message: $(cat "$T/err")" \
        || notok "sw $args: exit $rc, stderr: $(head -c 300 "$T/err")"
done

# scores that the 32-bit cells cannot hold: refused (the tiled run and the
# plain loop overflowed alike, and --verify said ok), the bound named; the
# largest that fits still runs
timeout 60 $MPIEXEC -n 2 $D/sw --random 5000,5000 --match 1000000 --verify > "$T/out" 2> "$T/err.raw"
rc=$?
strip_launcher < "$T/err.raw" > "$T/err"
[ $rc -eq 2 ] && grep -q "could reach 10000000000 .* past what the 32-bit cells hold" "$T/err" \
    && ok "sw --random 5000,5000 --match 1000000: exit 2, the scores' bound named: $(cat "$T/err")" \
    || notok "sw --match 1000000: exit $rc: $(head -c 300 "$T/out" "$T/err")"
out=$(timeout 60 $MPIEXEC -n 2 $D/sw --random 500,500 --match 536870 --gap-open -536870 --verify 2>&1)
echo "$out" | grep -q "^verify: ok" && ok "sw --random 500,500, scores of 536870 (the bound, 2^29): runs and verifies" \
    || notok "sw at the bound: $out"

# 4. bad FASTA files, refused at once (exit 2) naming the file, the line and
# the byte: /dev/zero (NUL bytes: it looped forever), digits and signs
printf '>x\nAC\nGT12345!!@@\n' > "$T/digits.fa"
printf 'ACGT\nAC\000GT\n' > "$T/nul.fa"
for ck in "/dev/zero|--a '/dev/zero': line 1, byte 1: a NUL byte (not a text file)" \
          "$T/nul.fa|--a '$T/nul.fa': line 2, byte 3: a NUL byte (not a text file)" \
          "$T/digits.fa|--a '$T/digits.fa': line 3, byte 3: '1' (byte 49) is not a letter"; do
    f=${ck%%|*} want=${ck#*|}
    timeout 60 $MPIEXEC -n 2 $D/sw --a "$f" --b "$f" > "$T/out" 2> "$T/err.raw"
    rc=$?
    strip_launcher < "$T/err.raw" > "$T/err"
    [ $rc -eq 2 ] && [ "$(wc -l < "$T/err")" -eq 1 ] && grep -qF -e "$want" "$T/err" \
        && ok "sw --a $f: exit 2, '$want'" \
        || notok "sw --a $f: exit $rc, want '$want', stderr: $(head -c 300 "$T/err")"
done
done_testing
