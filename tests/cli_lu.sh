#!/bin/sh
# tests/cli_lu.sh -- demos/lu, NPB LU over fields, a map and two plans:
# class S at 1-4 processes in every model (1-2 threads, several grids and
# tile heights) verifies against NPB's reference values (SUCCESSFUL, exit
# 0) and --verify finds u and rsd bitwise equal to the plain sequential
# reference (tests/lu_plain.h), its residual norms the exact sums of
# lu_plain's residual, its error norms and surface integral lu_plain's
# bits; every run prints the same 11 values to the 17th digit (the exact
# sums do not depend on the grid or the threads); class W once at 2
# processes; --iterations K runs K steps and verifies nothing against NPB
# (NOT PERFORMED, exit 0); bad options and a grid the plans refuse are
# refused with one message and exit 2.  Class A at 2 processes (--verify)
# in the full tier only (make check-full: minutes on 2 loaded cores).
set -u
. tests/lib.sh
D=$DEMODIR
scratch cli_lu

if [ ! -x "$D/lu" ]; then
    notok "$D/lu is built (make builds it)"
    done_testing
fi

# values FILE: the 11 values of the result table (residual norms, error
# norms, surface integral), one per line
values() {
    grep -E '^ +(FAILURE: +)?[0-9]* +[0-9]\.[0-9]+e[-+][0-9]+' "$1" |
        awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]\.[0-9]+e[-+][0-9]+$/) { print $i; break } }'
}

# lu_run NP CLASS ARGS...: the run's output in $T/out, stderr in $T/err,
# status in $rc; "" or what is wrong in $why (SUCCESSFUL, verify ok, the
# 11 values those of the first run)
lu_run() {
    np=$1 cls=$2
    shift 2
    timeout 600 $MPIEXEC -n "$np" "$D/lu" --class "$cls" --verify "$@" > "$T/out" 2> "$T/err"
    rc=$?
    why=""
    values "$T/out" > "$T/vals"
    if [ $rc -ne 0 ]; then why="exit $rc: $(tail -n 1 "$T/err")"
    elif ! grep -q '^ Verification    =               SUCCESSFUL$' "$T/out"; then
        why="not SUCCESSFUL: $(grep Verification "$T/out")"
    elif ! grep -q '^ verify: ok: 0 and 0 of the' "$T/out"; then
        why="$(grep 'verify:' "$T/out" || echo 'no verify line')"
    elif [ "$(wc -l < "$T/vals")" -ne 11 ]; then why="$(wc -l < "$T/vals") values, want 11"
    elif grep -q FAILURE "$T/out"; then why="a value is a FAILURE"
    fi
}

# 1. class S: every model at 1-4 processes, 1-2 threads, grids and heights
bad=""
runs=0
for np in 1 2 3 4; do
    for m in mpi fine funneled multiple; do
        th=$(( (np + runs) % 2 + 1 )); [ $m = mpi ] && th=1
        extra=""
        case $np-$m in
            2-fine) extra="--grid 2x1" ;;
            3-funneled) extra="--grid 3x1 --tile-height 3" ;;
            4-mpi) extra="--grid 4x1 --tile-height 1" ;;
            4-multiple) extra="--grid 1x4 --tile-height 7" ;;
            1-fine | 3-mpi) extra="--tile-height 4" ;;
        esac
        lu_run $np S --model $m --threads $th $extra
        runs=$((runs + 1))
        [ $runs -eq 1 ] && cp "$T/vals" "$T/ref.vals"
        [ -z "$why" ] && ! cmp -s "$T/vals" "$T/ref.vals" && why="the values differ from the first run's"
        [ -n "$why" ] && bad="$bad [np=$np $m T=$th $extra: $why]"
    done
done
[ -z "$bad" ] && [ $runs -eq 16 ] &&
    ok "lu --class S --verify: 16 runs (4 models x 1-4 processes x 1-2 threads, grids, tile heights) SUCCESSFUL, u and rsd bitwise lu_plain's, the same 11 values to the 17th digit" ||
    notok "lu --class S:$bad"

# 2. class W at 2 processes (300 steps on 33^3: 15-40 s on 2 loaded cores)
lu_run 2 W --model funneled --threads 2
[ -z "$why" ] && ok "lu --class W, 2 processes, funneled x 2: SUCCESSFUL, --verify bitwise" ||
    { notok "lu --class W: $why"; tail -n 25 "$T/out" | diag; }

# 3. --iterations K: K steps, NOT PERFORMED, exit 0, --verify still bitwise
timeout 300 $MPIEXEC -n 3 "$D/lu" --class W --iterations 3 --verify > "$T/out" 2> "$T/err"
rc=$?
[ $rc -eq 0 ] && grep -q '^ Verification    =  *NOT PERFORMED$' "$T/out" &&
    grep -q '^ Iterations      =  *3$' "$T/out" && grep -q '^ verify: ok:' "$T/out" &&
    ok "lu --class W --iterations 3, 3 processes: NOT PERFORMED, exit 0, --verify ok" ||
    { notok "lu --iterations 3: exit $rc"; diag < "$T/err"; }

# 4. refusals: exit 2, one line on stderr naming what is wrong
refused() { # PATTERN NP ARGS...
    pat=$1 np=$2
    shift 2
    timeout 120 $MPIEXEC -n "$np" "$D/lu" "$@" > "$T/out" 2> "$T/err.raw"
    rc=$?
    strip_launcher < "$T/err.raw" > "$T/err"
    [ $rc -eq 2 ] && [ "$(wc -l < "$T/err")" -eq 1 ] && grep -q -e "$pat" "$T/err" &&
        ok "lu $* (np=$np): exit 2, $(cat "$T/err")" ||
        notok "lu $* (np=$np): exit $rc (want 2), stderr '$(head -c 300 "$T/err")'"
}
refused "^lu: rank 0: --class 'X': expected S, W, A or B$" 2 --class X
refused "^lu: rank 0: --class 's': expected S, W, A or B$" 1 --class s
refused "^lu: rank 0: --iterations '0': expected a whole number in 1..100000$" 2 --iterations 0
refused "^lu: rank 0: --iterations '5x': expected a whole number" 1 --iterations 5x
refused "^lu: rank 0: --threads > 1 needs --model fine, funneled or multiple$" 2 --threads 2
refused "^lu: rank 0: --model 'hybrid': expected mpi, fine, funneled or multiple$" 1 --model hybrid
refused "^lu: rank 0: --grid '3x': expected PxQ" 2 --grid 3x
refused "^lu: rank 0: --tile-height '0': expected a whole number" 2 --tile-height 0
refused "^lu: rank 0: unknown option '--bogus' (see --help)$" 2 --bogus 1
refused "^lu: rank 0: --verify takes no value (see --help)$" 2 --verify=yes
refused "^lu: the forward sweep's plan: rank 0: the grid 3x1 .* has 3 processes but the communicator has 2$" \
    2 --grid 3x1
# more processes than class S's 10 inner points hold in blocks of 2 (the
# dissipation's reach)
refused "^lu: the residual's map: rank 4: tile_map_create: this rank's block has 1 points along dimension 0, fewer than reach\[0\] = 2" \
    6 --class S --grid 6x1

# 5. class A (64^3, 250 steps) in the full tier
if [ "${CHECK_TIER:-}" = full ]; then
    start=$(date +%s)
    lu_run 2 A
    took=$(( $(date +%s) - start ))
    [ -z "$why" ] && ok "lu --class A, 2 processes: SUCCESSFUL, --verify bitwise ($took s)" ||
        { notok "lu --class A: $why"; tail -n 25 "$T/out" | diag; }
else
    skip "lu --class A, 2 processes, --verify" "the full tier only (make check-full)"
fi

done_testing
