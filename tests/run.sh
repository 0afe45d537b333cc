#!/bin/sh
# tests/run.sh -- the test driver behind `make check`.
#
#   1. header hygiene: every public header alone, in C99 with
#      -Wall -Wextra -pedantic -Werror under gcc and clang, with and without
#      OpenMP, and as C++ (g++ -x c++);
#   2. build/tests/unit_*   (plain unit tests), then build/asan/unit_* (the
#      same under ASan+UBSan) and build/asan/mpi_* at 2 processes;
#   3. build/tests/mpi_*    at 1, 2, 3 and 4 processes (oversubscribed);
#   4. tests/cli_*.sh       (tilectl, the demos and every other command-line
#      program end to end).
#
# Every check prints "ok - ..." or "not ok - ..." (or "skip - ..." when a tool
# it needs is missing); a program that fails or prints no line at all counts
# as one failure.  Last line: N passed, N failed, N skipped.
#
# The Makefile says where the binaries of the chosen MPI are (make check
# MPI=openmpi: build/openmpi/...); run by hand, the defaults are those of a
# plain `make check`:
#   MPICC, MPIEXEC  compiler wrapper and launcher (mpicc, mpiexec)
#   B               build directory: tests/, asan/, bench/ (build)
#   DEMODIR         the demo binaries adi, de, scatter (demos)
#   TILECTL         the tilectl binary (./tilectl)
set -u
MPIEXEC=${MPIEXEC:-mpiexec}
# MPI tests run oversubscribed (up to 4 processes x 3 threads on 2 cores):
# spinning OpenMP barriers then waste whole time slices, so let idle threads
# sleep (the results do not depend on it, only the time).
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
MPICC=${MPICC:-mpicc}
B=${B:-build}
DEMODIR=${DEMODIR:-demos}
TILECTL=${TILECTL:-./tilectl}
export MPICC MPIEXEC B DEMODIR TILECTL

# Open MPI refuses to start as root, refuses more processes than cores and
# busy-polls by default: tools/mpi-env.sh sets what the tests need.
. tools/mpi-env.sh
pass=0 fail=0 skip=0
log=$B/test.log
mkdir -p "$B"
: > "$log"

# run_prog LABEL CMD...: run a test program, echo and count its check lines
# ("ok - ", "not ok - ", "skip - ").
run_prog() {
    label=$1; shift
    out=$B/last.out
    timeout 300 "$@" > "$out" 2>&1
    rc=$?
    cat "$out" >> "$log"
    p=$(grep -c '^ok - ' "$out")
    f=$(grep -c '^not ok - ' "$out")
    s=$(grep -c '^skip - ' "$out")
    sed -n -e "s/^ok - /ok - [$label] /p" -e "s/^not ok - /not ok - [$label] /p" \
        -e "s/^skip - /skip - [$label] /p" "$out"
    skip=$((skip + s))
    if [ "$rc" -ne 0 ] || [ $((p + f + s)) -eq 0 ]; then
        if [ "$f" -eq 0 ]; then
            echo "not ok - [$label] exited with status $rc after $p checks"
            f=$((f + 1))
        fi
        grep -v -e '^ok - ' -e '^not ok - ' "$out" | tail -n 15 | sed 's/^/#   /'
    fi
    pass=$((pass + p)); fail=$((fail + f))
}

ok()     { echo "ok - $1"; pass=$((pass + 1)); }
notok()  { echo "not ok - $1"; fail=$((fail + 1)); }
skipped(){ echo "skip - $1"; skip=$((skip + 1)); }

# 1. header hygiene -------------------------------------------------------
# the wrapper's flags: MPICH says `mpicc -show`, Open MPI `mpicc -showme`
MPI_SHOW=$($MPICC -show 2>/dev/null || $MPICC -showme 2>/dev/null)
MPI_INC=$(echo "$MPI_SHOW" | tr ' ' '\n' | grep '^-I' | tr '\n' ' ')
W="-Wall -Wextra -pedantic -Werror"
# Open MPI's mpi.h, read as C++, brings in its deprecated C++ bindings, whose
# own inline code fails -Wextra (-Wcast-function-type); OMPI_SKIP_MPICXX is
# Open MPI's switch to leave them out (our headers use the C API only).
CXX_MPI="-DOMPI_SKIP_MPICXX"
for h in tilehybrid.h tiling.h hybrid.h topology.h balance.h scatterlb.h; do
    tu=$B/hygiene_${h%.h}.c
    printf '#include "%s"\n#include "%s"\nint main(void) { return 0; }\n' "$h" "$h" > "$tu"
    for cc in gcc clang; do
        if ! command -v $cc >/dev/null 2>&1; then skipped "hygiene: $cc not installed ($h)"; continue; fi
        for omp in "" "-fopenmp"; do
            if [ -n "$omp" ] && ! printf '#include <omp.h>\nint main(void){return 0;}\n' |
                    $cc -fopenmp -x c - -o /dev/null 2>/dev/null; then
                skipped "hygiene: $cc has no OpenMP ($h)"; continue
            fi
            if $cc -std=c99 $W $omp $MPI_INC -I. -c "$tu" -o /dev/null 2>$B/hyg.err; then
                ok "hygiene: $h alone, $cc -std=c99 $W $omp"
            else notok "hygiene: $h alone, $cc -std=c99 $W $omp"; sed 's/^/#   /' $B/hyg.err | head -20; fi
        done
    done
    for std in c++11 c++17; do
        if g++ -x c++ -std=$std $W -fopenmp $CXX_MPI $MPI_INC -I. -c "$tu" -o /dev/null 2>$B/hyg.err; then
            ok "hygiene: $h alone, g++ -x c++ -std=$std $W"
        else notok "hygiene: $h alone, g++ -x c++ -std=$std"; sed 's/^/#   /' $B/hyg.err | head -20; fi
    done
done

# the macros in C++ user code: the ADI demo compiled as C++11 runs and verifies
MPI_LIBS=$(echo "$MPI_SHOW" | tr ' ' '\n' | grep -e '^-L' -e '^-l' -e '^-Wl' | tr '\n' ' ')
if g++ -x c++ -std=c++11 $W -fopenmp $CXX_MPI $MPI_INC -I. -o $B/adi_cxx demos/adi.c $MPI_LIBS -lm 2>$B/hyg.err &&
   timeout 120 $MPIEXEC -n 2 $B/adi_cxx --space 9x31x40 --tile-height 7 --model funneled --threads 2 \
       --verify 2>&1 | grep -q "verify: ok"; then
    ok "C++: demos/adi.c built as C++11 ($W) runs and verifies every point"
else notok "C++: demos/adi.c built as C++11"; sed 's/^/#   /' $B/hyg.err | head -20; fi

# 2. unit tests, plain and sanitized ---------------------------------------
for t in $B/tests/unit_*; do
    [ -x "$t" ] || continue
    run_prog "$(basename "$t")" "$t"
done
for t in $B/asan/unit_*; do
    [ -x "$t" ] || continue
    ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
        run_prog "asan $(basename "$t")" "$t"
done

# the MPI tests under ASan+UBSan at 2 processes (leak checks off: MPICH's own
# initialisation leaks)
for t in $B/asan/mpi_*; do
    [ -x "$t" ] || continue
    ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 \
        run_prog "asan $(basename "$t") np=2" $MPIEXEC -n 2 "$t"
done

# 3. MPI tests at 1..4 processes --------------------------------------------
for t in $B/tests/mpi_*; do
    [ -x "$t" ] || continue
    for np in 1 2 3 4; do
        run_prog "$(basename "$t") np=$np" $MPIEXEC -n $np "$t"
    done
done

# 4. tilectl end to end -------------------------------------------------------
for t in tests/cli_*.sh; do
    [ -f "$t" ] || continue
    run_prog "$(basename "$t")" sh "$t" "$TILECTL"
done

echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
