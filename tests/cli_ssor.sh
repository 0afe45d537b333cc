#!/bin/sh
# tests/cli_ssor.sh -- demos/ssor, SSOR as two chained plans (forward and
# backward Gauss-Seidel sweeps, 5 unknowns per point): every model at 1-4
# processes and 1-3 threads, odd sizes, prints the same residual norms as
# the plain sequential implementation, bit for bit (--verify compares them
# and the result), in the same number of iterations; the file written with
# MPI_File_write_at_all equals the sequential implementation's array byte
# for byte; a refused or failed output, bad arguments, no convergence.
set -u
. tests/lib.sh
D=$DEMODIR
scratch cli_ssor
SPACE=9x7x11

# 0. the reference: the plain loops alone, and their file
if ! timeout 120 $D/ssor --sequential --space $SPACE --output "$T/ref.bin" > "$T/ref.out" 2>&1; then
    notok "ssor --sequential --space $SPACE runs"; diag < "$T/ref.out"; done_testing
fi
grep '^iteration' "$T/ref.out" > "$T/ref.res"
n=$(wc -l < "$T/ref.res")
size=$(wc -c < "$T/ref.bin")
[ "$n" -gt 5 ] && [ "$size" -eq $((9 * 7 * 11 * 5 * 8)) ] && grep -q '^converged' "$T/ref.out" &&
    ok "ssor --sequential $SPACE converges in $n iterations, writes $size bytes" ||
    notok "ssor --sequential: $n iterations, $size bytes: $(tail -1 "$T/ref.out")"

# 1. every model, 1-4 processes, 1-3 threads, tile heights not dividing Z
bad=""
runs=0
for np in 1 2 3 4; do
    for m in mpi fine funneled multiple; do
        pick 4 || continue      # the quick tier: a sample (tests/lib.sh)
        th=$(( (np + runs) % 3 + 1 )); [ $m = mpi ] && th=1
        z=$(( (np * 2 + runs) % 5 + 1 ))
        rm -f "$T/u.bin"
        timeout 300 $MPIEXEC -n $np $D/ssor --space $SPACE --model $m --threads $th \
            --tile-height $z --verify --output "$T/u.bin" > "$T/out" 2> "$T/err"
        rc=$?
        runs=$((runs + 1))
        grep '^iteration' "$T/out" > "$T/res"
        what="np=$np $m T=$th z=$z"
        if [ $rc -ne 0 ]; then bad="$bad [$what: exit $rc: $(tail -1 "$T/err")]"
        elif ! grep -q '^verify: ok' "$T/out"; then bad="$bad [$what: $(grep verify "$T/out")]"
        elif ! cmp -s "$T/res" "$T/ref.res"; then bad="$bad [$what: residuals differ]"
        elif ! cmp -s "$T/u.bin" "$T/ref.bin"; then bad="$bad [$what: the file differs]"
        fi
    done
done
[ -z "$bad" ] && [ $runs -gt 0 ] && ok "ssor --verify --output: $runs runs (4 models x 1-4 processes x 1-3 threads) print the sequential residuals bit for bit, verify ok, and write the sequential array byte for byte" ||
    notok "ssor:$bad"

# 2. omega and tolerance change the path but not the agreement
expect_output "ssor --omega 1.7 --tol 1e-6, 3 processes, funneled x 2: verify ok" 300 '^verify: ok' \
    $MPIEXEC -n 3 $D/ssor --space 13x5x8 --omega 1.7 --tol 1e-6 --model funneled --threads 2 \
    --tile-height 3 --verify

# 3. refusals and failures: exit 2 (arguments, a refused plan, an --output folder that is not there) or 1 (no
# convergence, an output that cannot be written), one message, no hang
refused() { # WANT-STATUS WORD ARGS...
    want=$1 word=$2
    shift 2
    timeout 120 $MPIEXEC -n 2 $D/ssor "$@" > "$T/out" 2> "$T/err.raw"
    rc=$?
    strip_launcher < "$T/err.raw" > "$T/err"
    [ $rc -eq "$want" ] && [ "$(wc -l < "$T/err")" -eq 1 ] && grep -q -e "$word" "$T/err" &&
        ok "ssor $*: exit $rc, $(cat "$T/err")" ||
        notok "ssor $*: exit $rc (want $want), stderr '$(head -c 300 "$T/err")'"
}
refused 2 --space --space 0x5x5
refused 2 --space --space 4x4
refused 2 --omega --omega 2
# the shared parser's reason, not only the range (it said "want a number in (0, 2)")
refused 2 "^ssor: rank 0: --omega '1e-400': its magnitude is beyond what a double holds .*; expected a number in (0, 2)$" \
    --omega 1e-400
refused 2 "^ssor: rank 0: --omega '0x1p0': not a plain decimal number (.*hex.*); expected a number in (0, 2)$" \
    --omega 0x1p0
refused 2 "^ssor: rank 0: --omega ' 1.2': not a plain decimal number (.*spaces.*); expected a number in (0, 2)$" \
    --omega " 1.2"
refused 2 "^ssor: rank 0: --tol '1e-999': its magnitude is beyond what a double holds" --tol 1e-999
refused 2 --tol --tol 1
refused 2 --threads --threads 2
refused 2 --model --model serial
refused 2 --tile-height --tile-height=x
refused 2 --max-iter --max-iter
refused 2 "unknown option" --fast
refused 2 "no process grid for 2 processes" --space 1x1x4
refused 2 "--output $T/no/u.bin: cannot write in the folder $T/no: No such file" --space 5x5x5 --output "$T/no/u.bin"
refused 2 "--max-iter '0'" --max-iter 0
# an output that cannot be written: the failed call by name, MPI's own text,
# on one line, every rank done (it said "writing /dev/full failed, the file
# is incomplete: Other I/O error", the class's text alone)
# (Open MPI's ompio prints a line of its own: one line of ssor's)
if [ -w /dev/full ]; then
    timeout 120 $MPIEXEC -n 2 $D/ssor --space 5x5x5 --output /dev/full > "$T/out" 2> "$T/err.raw"
    rc=$?
    strip_launcher < "$T/err.raw" > "$T/err"
    [ $rc -eq 1 ] && [ "$(grep -c '^ssor:' "$T/err")" -eq 1 ] &&
        grep -q "^ssor: rank 0: MPI_File_[a-z_]* failed writing /dev/full (.*[a-z].*); the file is incomplete$" "$T/err" &&
        ok "ssor --output /dev/full: exit 1, $(grep '^ssor:' "$T/err")" ||
        notok "ssor --output /dev/full: exit $rc (want 1), stderr '$(head -c 300 "$T/err")'"
else
    skip "ssor --output /dev/full" "no writable /dev/full here"
fi
for k in 1 3; do
    timeout 120 $MPIEXEC -n 2 $D/ssor --space 8x8x8 --max-iter $k > "$T/out" 2>&1
    rc=$?
    [ $rc -eq 1 ] && grep -q "^not converged after $k iterations" "$T/out" &&
        [ "$(grep -c '^iteration' "$T/out")" -eq $k ] &&
        ok "ssor --max-iter $k: $k residual lines, 'not converged after $k iterations', exit 1" ||
        notok "ssor --max-iter $k: exit $rc, $(grep -c '^iteration' "$T/out") residual lines: $(tail -1 "$T/out")"
    timeout 120 $D/ssor --sequential --space 8x8x8 --max-iter $k > "$T/out" 2>&1
    rc=$?
    [ $rc -eq 1 ] && grep -q "^not converged after $k iterations" "$T/out" &&
        [ "$(grep -c '^iteration' "$T/out")" -eq $k ] &&
        ok "ssor --sequential --max-iter $k: $k iterations, exit 1" ||
        notok "ssor --sequential --max-iter $k: exit $rc: $(tail -1 "$T/out")"
done

# 4. help
for h in -h --help; do
    timeout 60 $MPIEXEC -n 2 $D/ssor $h > "$T/out" 2> "$T/err"
    rc=$?
    [ $rc -eq 0 ] && [ "$(grep -c '^usage:' "$T/out")" -eq 1 ] && [ ! -s "$T/err" ] &&
        ok "ssor $h: the usage once on stdout, exit 0" || notok "ssor $h: exit $rc"
done

# 5. --sequential and --verify hold the whole space on rank 0: past the
# rank's memory limit (half the physical memory shared by the ranks on this
# node, as tiling.h's default; or TILEHYBRID_MEM_LIMIT) they are refused at
# once (it said only "ssor: out of memory"), naming the option, the size,
# the limit and --space
# refused_at NAME TEXT PATTERN NP ARGS...: ssor ARGS at NP processes is refused
# at once (exit 2, one line on stderr) with the fixed TEXT and a
# line matching PATTERN (the environment's TILEHYBRID_MEM_LIMIT applies)
refused_at() {
    name=$1 text=$2 pat=$3 np=$4
    shift 4
    start=$(date +%s)
    # (under a 4 GB address-space limit: what a check lets through fails to
    # allocate instead of allocating past the machine's memory)
    ( ulimit -v 4000000 2>/dev/null
      exec timeout 60 $MPIEXEC -n $np $D/ssor "$@" ) > "$T/out" 2> "$T/err.raw" < /dev/null
    rc=$?
    took=$(( $(date +%s) - start ))
    strip_launcher < "$T/err.raw" > "$T/err"
    [ $rc -eq 2 ] && [ "$(wc -l < "$T/err")" -eq 1 ] &&
        grep -qF -e "$text" "$T/err" && grep -q -e "$pat" "$T/err" &&
        ok "$name: refused in ${took} s: $(cat "$T/err")" ||
        notok "$name: exit $rc after ${took} s: $(head -c 300 "$T/err")"
}
mem=$(( $(getconf _PHYS_PAGES 2>/dev/null || echo 0) * $(getconf PAGESIZE 2>/dev/null || echo 0) ))
# limit NP: a rank's default limit with NP ranks on this node, and its origin
limit() { echo $((mem / 2 / $1)); }
origin() {
    if [ "$1" -gt 1 ]; then echo "half the physical memory, shared by the $1 ranks on this node: TILEHYBRID_MEM_LIMIT"
    else echo "half the physical memory: TILEHYBRID_MEM_LIMIT"; fi
}
for ck in "--sequential|the sequential implementation (on rank 0): 1000000000 points of 200 bytes = 200000000000 bytes" \
          "--verify|the sequential implementation and the gathered u (on rank 0): 1000000000 points of 240 bytes = 240000000000 bytes"; do
    opt=${ck%%|*} want=${ck#*|}
    if [ "$mem" -le 0 ] || [ "$(limit 2)" -ge 200000000000 ]; then
        skip "ssor --space 1000x1000x1000 $opt" "this machine has 800 GB or more (or its size is unknown)"
        continue
    fi
    refused_at "ssor --space 1000x1000x1000 $opt" \
        "ssor: rank 0: $opt: $want, more than its memory limit of $(limit 2) bytes ($(origin 2)); lower --space" \
        "; lower --space$" 2 --space 1000x1000x1000 $opt
done
# TILEHYBRID_MEM_LIMIT, bytes per rank, as for tiling.h's plans
export TILEHYBRID_MEM_LIMIT=60000000
refused_at "TILEHYBRID_MEM_LIMIT=60000000: ssor --space 64x64x64 --verify" \
    "ssor: rank 0: --verify: the sequential implementation and the gathered u (on rank 0): 262144 points of 240 bytes = 62914560 bytes, more than its memory limit of 60000000 bytes (TILEHYBRID_MEM_LIMIT); lower --space" \
    "; lower --space$" 2 --space 64x64x64 --verify
export TILEHYBRID_MEM_LIMIT=12x
refused_at "TILEHYBRID_MEM_LIMIT=12x: ssor" "ssor: rank 0: TILEHYBRID_MEM_LIMIT = '12x': not a whole number of bytes >= 1" \
    "bytes >= 1$" 2 --space 8x8x8
unset TILEHYBRID_MEM_LIMIT

# 6. the tiled solver's own arrays (2 over each process's block, all of Z,
# 200 bytes a point): past the rank's memory limit refused at once, exit 2
# as adi's memory refusal (its calloc failed and it printed "ssor: " and
# nothing else); the ranks on a node share its memory (each one's block
# under the whole memory let 2 x 15 GB through on a 24 GB node); an
# allocation that fails anyway (here under ulimit -v) names what and its
# size, exit 1
for sp in "1000x1000x1000 1" "1000x1000x1000 2" "420x420x425 2"; do
    set -- $sp
    space=$1 np=$2
    pts=$(echo "$space" | awk -Fx '{ printf "%d", $1 * $2 * $3 }')
    per=$(( (pts + np - 1) / np * 200 ))
    if [ "$mem" -le 0 ] || [ "$(limit $np)" -ge "$per" ]; then
        skip "ssor --space $space at $np: refused" "a rank's share of this machine holds $per bytes (or its size is unknown)"
        continue
    fi
    refused_at "ssor --space $space at $np (node share $(limit $np) bytes a rank)" \
        "ssor: rank 0: --space $space: the solver keeps 2 arrays over each process's block (all of Z, 200 bytes a point): at least $((per / 200)) points = $per bytes per process on $np process" \
        "more than its memory limit of $(limit $np) bytes ($(origin $np)); lower --space or use more processes on more nodes$" \
        $np --space $space
done
export TILEHYBRID_MEM_LIMIT=1000000
refused_at "TILEHYBRID_MEM_LIMIT=1000000: ssor --space 64x64x64 at 2" \
    "ssor: rank 0: --space 64x64x64: the solver keeps 2 arrays over each process's block (all of Z, 200 bytes a point): at least 131072 points = 26214400 bytes per process on 2 processes, more than its memory limit of 1000000 bytes (TILEHYBRID_MEM_LIMIT)" \
    "more processes on more nodes$" 2 --space 64x64x64
export TILEHYBRID_MEM_LIMIT=20000000
timeout 120 $MPIEXEC -n 2 $D/ssor --space 16x16x16 > "$T/out" 2> "$T/err"
rc=$?
unset TILEHYBRID_MEM_LIMIT
[ $rc -eq 0 ] && grep -q "^converged" "$T/out" &&
    ok "TILEHYBRID_MEM_LIMIT=20000000: ssor --space 16x16x16 at 2 fits and runs" ||
    notok "TILEHYBRID_MEM_LIMIT=20000000: ssor --space 16x16x16: exit $rc, $(head -c 300 "$T/err")"
# 150^3 points: 675 MB of arrays, more than 400 MB of address space
(ulimit -v 400000 && exec timeout 60 $D/ssor --space 150x150x150 --max-iter 1) > "$T/out" 2> "$T/err"
rc=$?
[ $rc -eq 1 ] && [ "$(wc -l < "$T/err")" -eq 1 ] &&
    grep -Eq "^ssor: rank 0: out of memory allocating the (forward|backward) sweep's output array: 3375000 x [0-9]+ bytes = [0-9]+ bytes$" "$T/err" &&
    ok "ssor --space 150x150x150 under ulimit -v 400000: exit 1, $(cat "$T/err")" ||
    notok "ssor --space 150x150x150 under ulimit -v 400000: exit $rc, stderr '$(head -c 300 "$T/err")'"

# 7. --output into a folder that does not exist: refused before the solve
# (it ran to the end, then reported an incomplete file that did not exist)
for np in 1 2; do
    refused_at "ssor --output /nonexistent/dir/u.bin at $np" \
        "ssor: --output /nonexistent/dir/u.bin: cannot write in the folder /nonexistent/dir: " \
        "No such file or directory$" $np --space 64x64x64 --output /nonexistent/dir/u.bin
done
# an empty name, a folder, a place where no file can be made
refused_at "ssor --output ''" "ssor: --output '': expected a file name" "name$" 2 \
    --space 64x64x64 --output ""
refused_at "ssor --output <a folder>" "ssor: --output $T: cannot write it: " "directory$" 2 \
    --space 64x64x64 --output "$T"
if [ -d /proc/self ]; then
    refused_at "ssor --output /proc/u.bin" "ssor: --output /proc/u.bin: cannot write it: " "." 2 \
        --space 64x64x64 --output /proc/u.bin
else
    skip "ssor --output /proc/u.bin" "no /proc here"
fi
done_testing
