#!/bin/sh
# tests/run.sh -- the test driver behind `make check`, `make check-full` and
# `make check-tsan`.
#
#   sh tests/run.sh          the quick tier (make check): every kind of check
#                            on a sample, in minutes
#   sh tests/run.sh --full   the full tier (make check-full): everything
#   sh tests/run.sh --tsan   the threaded runs under ThreadSanitizer (make
#                            check-tsan)
#
# Both tiers run the same kinds of check:
#   1. tests/cli_hygiene.sh: every public header alone under gcc and clang,
#      with and without OpenMP, and as C++; the examples of the headers'
#      top comments, of README.md and of docs/REFERENCE.md;
#   2. $B/tests/unit_* (plain unit tests), then $B/asan/unit_* and
#      $B/asan/mpi_* at 2 processes (ASan + UBSan);
#   3. $B/tests/mpi_* at 1, 2, 3 and 4 processes (oversubscribed): every
#      model bitwise against the sequential loop;
#   4. tests/cli_*.sh: tilectl, the demos and every other command-line
#      program end to end, the failure injections among them.
# The quick tier runs the unit tests, the hygiene and the command-line
# scripts whole but samples the rest: the random configurations of the MPI
# tests (tests/check.h: check_cases), the cases of the scripts' sampled
# loops (tests/lib.sh: pick), and the MPI tests' process counts (mpi_tiling
# at 1-4, the others at 1 or 2 and most at 3 or 4 too, drawn).  The
# sample comes from CHECK_SEED, printed first; `CHECK_SEED=N make check`
# draws the same sample again.  Only some sanitized programs run in the
# quick tier (the ones Makefile's QUICK_ASAN builds).
#
# --tsan: the threaded MPI test and the demos' threaded models built with
# clang -fsanitize=thread -fopenmp (the LLVM OpenMP runtime, with Archer)
# and run at 1-3 processes x 2-3 threads; a data race fails.  First two
# controls: tests/tsan_race.c must be reported, tests/tsan_barrier.c must
# not.  Skipped, with the reason, where clang, its OpenMP runtime or Archer
# is missing.
#
# Every test program and script prints TAP (the Test Anything Protocol;
# tests/check.h in C, tests/lib.sh in shell).  This driver writes one small
# script per run (a program at a process count, or a test script) into
# $B/t/, and prove (Perl's TAP::Harness) runs them (two at a time in the
# quick tier, PROVE_JOBS=N to change it) and reads their TAP: a
# run fails when it prints a "not ok", exits non-zero (a crash, a sanitizer
# report, the time guard), or prints no plan or a number of tests other
# than its plan.  prove's summary ("Result: PASS") ends its report; then a
# line with the count, the time and the seed.  What
# each run printed is in $B/tap/<run>.out and all of it in $B/test.log; the
# tail of a failed run's output is printed after prove's report.
#
# One test file alone, with prove (from the top directory, after `make
# check` built it; use the launcher of the MPI the tests were built with,
# mpiexec.mpich for a plain `make check`):
#   prove -v build/tests/unit_topology
#   prove -v --exec 'mpiexec.mpich -n 2' build/tests/mpi_topology
#   prove -v --exec sh tests/cli_topo.sh
#
# The Makefile says where the binaries of the chosen MPI are (make check
# MPI=openmpi: build/openmpi/...) in MPICC, MPIEXEC, B, DEMODIR and TILECTL;
# run by hand, the defaults (tests/lib.sh) are those of a plain `make check`.
set -u
. tests/lib.sh

tier=quick
case ${1:-} in
    --full) tier=full ;;
    --tsan) tier=tsan ;;
    "") ;;
    *) echo "usage: sh tests/run.sh [--full | --tsan]" >&2; exit 2 ;;
esac
if ! command -v prove > /dev/null 2>&1; then
    echo "tests/run.sh: prove (Perl's TAP harness) is not installed; run:  sudo apt-get install -y perl" >&2
    exit 2
fi

# the sample's seed: CHECK_SEED if given (a whole number), else a new one
if [ -n "${CHECK_SEED:-}" ]; then
    case $CHECK_SEED in
        [1-9] | [1-9][0-9] | [1-9][0-9][0-9] | [1-9][0-9][0-9][0-9] | [1-9][0-9][0-9][0-9][0-9] | \
        [1-9][0-9][0-9][0-9][0-9][0-9] | [1-9][0-9][0-9][0-9][0-9][0-9][0-9] | \
        [1-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9] | [1-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]) ;;
        *) echo "tests/run.sh: CHECK_SEED=$CHECK_SEED: not a whole number from 1 to 999999999" >&2; exit 2 ;;
    esac
elif [ $tier = quick ]; then
    CHECK_SEED=$(( $(od -An -N4 -tu4 /dev/urandom | tr -d ' ') % 999999999 + 1 ))
fi
CHECK_TIER=$tier
export CHECK_TIER
[ -n "${CHECK_SEED:-}" ] && export CHECK_SEED

# runs at once: the quick tier's runs are mostly one or two processes, so
# two at a time fill 2 cores; the full tier's oversubscribed MPI runs go
# one at a time (PROVE_JOBS=N sets it)
jobs=${PROVE_JOBS:-$([ $tier = quick ] && echo 2 || echo 1)}

rm -rf "$B/t" "$B/tap"
mkdir -p "$B/t" "$B/tap"
log=$B/test.log
njob=0

# quote ARG: ARG in single quotes for sh
quote() {
    printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}

# job LABEL SECONDS [VAR=VALUE...] CMD...: a run for prove: $B/t/NNN-LABEL.t
# runs CMD (stdin /dev/null, the VARs set) killed after SECONDS, prints
# what it printed, and exits with its status
job() {
    label=$1 secs=$2
    shift 2
    njob=$((njob + 1))
    name=$(printf '%03d' $njob)-$(printf '%s' "$label" | tr -c 'A-Za-z0-9_.=-' '_')
    out=$B/tap/$name.out
    {
        echo "# $label"
        for a; do
            case $a in
                [A-Z]*=*) printf '%s=%s ' "${a%%=*}" "$(quote "${a#*=}")"; shift ;;
                *) break ;;
            esac
        done
        printf 'timeout -k 10 %s' "$secs"
        for a; do printf ' %s' "$(quote "$a")"; done
        printf ' > %s 2>&1 < /dev/null\n' "$(quote "$out")"
        echo 'rc=$?'
        printf '[ $rc -ne 124 ] && [ $rc -ne 137 ] || echo "# killed after %s s" >> %s\n' "$secs" "$(quote "$out")"
        printf '[ $rc -eq 0 ] || echo "# exit status $rc" >> %s\n' "$(quote "$out")"
        printf 'echo $rc > %s\n' "$(quote "$B/tap/$name.rc")"
        printf 'cat %s\n' "$(quote "$out")"
        printf '[ $rc -eq 0 ] || echo "# %s: exit status $rc (see %s)" >&2\n' "$(printf '%s' "$label" | tr -d '"$`\\')" "$out"
        echo 'exit $rc'
    } > "$B/t/$name.t"
}

# failed_job LABEL FILE MESSAGE: a run that fails at once, printing MESSAGE
# and the end of FILE (a build that failed)
failed_job() {
    job "$1" 10 sh -c 'echo "not ok 1 - $1"; tail -n 20 "$2" | sed "s/^/# /"; echo 1..1' \
        sh "$3" "$2"
}

# prove_all: prove runs every job in order; then the end of each failed
# run's output, and the whole log
prove_all() {
    start=$(date +%s)
    prove --exec sh --timer --failures -j "$jobs" "$B"/t/*.t
    rc=$?
    for f in "$B"/tap/*.out; do
        [ -f "$f" ] || continue
        t=$B/t/$(basename "$f" .out).t
        echo "### $(sed -n '1s/^# //p' "$t")" >> "$log"
        cat "$f" >> "$log"
        if grep -q '^not ok' "$f" || ! grep -q '^1\.\.[0-9]' "$f" ||
           [ "$(cat "${f%.out}.rc" 2> /dev/null)" != 0 ]; then
            echo "# --- $(sed -n '1s/^# //p' "$t"): the end of its output ($f) ---"
            grep -v -e '^ok' -e '^1\.\.' "$f" | tail -n 25 | sed 's/^/#   /'
        fi
    done
    echo "# $njob runs in $(( $(date +%s) - start )) s (the $tier tier${CHECK_SEED:+, CHECK_SEED=$CHECK_SEED}); everything they printed: $log"
    return $rc
}

: > "$log"

# --tsan: ThreadSanitizer + Archer ---------------------------------------------
TSAN_CC=${TSAN_CC:-clang}
W="-Wall -Wextra -pedantic -Werror"
# the MPI wrapper compiles with clang: MPICH reads MPICH_CC, Open MPI OMPI_CC
tsan_cc() {
    MPICH_CC=$TSAN_CC OMPI_CC=$TSAN_CC $MPICC -std=c99 $W -O1 -g \
        -fsanitize=thread -fno-omit-frame-pointer -fopenmp -I. "$@" -lm
}

# tsan_why DIR: nothing when clang builds ThreadSanitizer programs through
# the MPI wrapper and the OpenMP runtime loads Archer, else the reason (the
# barrier control, built and run in DIR, is the probe)
tsan_why() {
    if ! command -v "$TSAN_CC" > /dev/null 2>&1; then
        echo "$TSAN_CC is not installed (make check-tsan installs clang and libomp-dev where it may)"
    elif ! tsan_cc -o "$1/tsan_barrier" tests/tsan_barrier.c > "$1/probe.err" 2>&1; then
        echo "$TSAN_CC cannot build -fopenmp -fsanitize=thread through $MPICC (the LLVM OpenMP runtime: apt-get install libomp-dev): $(head -n 1 "$1/probe.err")"
    elif ! ARCHER_OPTIONS=verbose=1 timeout 60 "$1/tsan_barrier" > "$1/probe.out" 2>&1 &&
         ! grep -q ThreadSanitizer "$1/probe.out"; then
        echo "a ThreadSanitizer program does not run here: $(grep -m 1 . "$1/probe.out")"
    elif ! grep -q '^Archer detected' "$1/probe.out"; then
        echo "the OpenMP runtime does not load Archer (libarcher.so; set OMP_TOOL_LIBRARIES to it): without it TSan does not see the runtime's barriers and reports false races"
    fi
}

# tsan_jobs: the two controls, the threaded MPI test at 1-3 processes, the
# data tests at 2, the undeclared offsets at 2 (the fence's handler runs in
# the thread that faulted; the others read its hit), the map steps and the sweeps over fields at 2,
# and the demos in the threaded models; a race exits 66
# and fails the run
tsan_jobs() {
    for s in tests/tsan_race tests/tsan_barrier tests/mpi_tiling tests/mpi_data tests/mpi_data_calls \
             tests/mpi_undeclared_posix tests/mpi_map tests/mpi_field_sweep tests/mpi_run_checkpoint \
             demos/adi demos/de demos/lu; do
        if ! tsan_cc -o "$T/${s#*/}" $s.c > "$T/${s#*/}.err" 2>&1; then
            failed_job "$s.c builds with $TSAN_CC -fsanitize=thread -fopenmp" "$T/${s#*/}.err" \
                "$s.c builds with $TSAN_CC -fsanitize=thread -fopenmp"
            return
        fi
    done
    # the controls: a race must be reported (exit 66), a barrier must not
    job "tsan control: tests/tsan_race.c, a data race, is reported" 60 sh -c \
        '"$1" > "$1.out" 2>&1; rc=$?; if [ $rc -eq 66 ] && grep -q "WARNING: ThreadSanitizer: data race" "$1.out"; then echo "ok 1 - a data race is reported (exit 66)"; else echo "not ok 1 - a data race is reported: exit $rc"; tail -n 15 "$1.out" | sed "s/^/# /"; fi; echo 1..1' \
        sh "$T/tsan_race"
    job "tsan control: tests/tsan_barrier.c, ordered by an OpenMP barrier, is not reported (Archer)" 60 \
        sh -c '"$1" > "$1.out" 2>&1; rc=$?; if [ $rc -eq 0 ] && ! grep -q ThreadSanitizer "$1.out"; then echo "ok 1 - no report (exit 0)"; else echo "not ok 1 - no report: exit $rc"; tail -n 15 "$1.out" | sed "s/^/# /"; fi; echo 1..1' \
        sh "$T/tsan_barrier"
    for np in 1 2 3; do
        job "tsan mpi_tiling np=$np" 300 $MPIEXEC -n $np "$T/mpi_tiling"
    done
    # the output hook and the reductions run beside the computing threads
    job "tsan mpi_data np=2" 300 $MPIEXEC -n 2 "$T/mpi_data"
    job "tsan mpi_data_calls np=2" 300 $MPIEXEC -n 2 "$T/mpi_data_calls"
    job "tsan mpi_undeclared_posix np=2" 300 $MPIEXEC -n 2 "$T/mpi_undeclared_posix"
    # a map's rows shared by 2 threads, its records combined by OpenMP reductions
    job "tsan mpi_map np=2" 300 $MPIEXEC -n 2 "$T/mpi_map"
    # sweeps over fields in every model: bodies writing a field at their
    # points, maps' sums fed by 1-3 threads
    job "tsan mpi_field_sweep np=2" 300 $MPIEXEC -n 2 "$T/mpi_field_sweep"
    # checkpoints inside runs: the cut read by every thread after the step's barrier
    job "tsan mpi_run_checkpoint np=2" 600 $MPIEXEC -n 2 "$T/mpi_run_checkpoint"
    job "tsan demos: adi, de and lu in the threaded models" 900 sh tests/tsan_demos.sh "$T"
}

if [ $tier = tsan ]; then
    T=$B/tsan
    mkdir -p "$T"
    # Archer gives TSan the OpenMP runtime's synchronisation; TSan ignores the
    # races inside uninstrumented libraries (the OpenMP runtime, MPI); a race
    # makes the program exit 66 at the end
    export TSAN_OPTIONS="ignore_noninstrumented_modules=1 exitcode=66 ${TSAN_OPTIONS:-}"
    export ARCHER_OPTIONS=${ARCHER_OPTIONS:-}
    why=$(tsan_why "$T")
    if [ -n "$why" ]; then
        job "ThreadSanitizer with Archer" 10 sh -c 'echo "1..0 # SKIP $1"' sh "$why"
    else
        tsan_jobs
    fi
    prove_all
    exit $?
fi

if [ $tier = quick ]; then
    echo "# the quick tier: CHECK_SEED=$CHECK_SEED (CHECK_SEED=$CHECK_SEED make check draws this sample again; make check-full runs everything)"
fi

# 1. the headers as users compile them -----------------------------------------
# (the two longest runs first, so that two at a time end together: the
# tutorial builds and runs its programs, the hygiene compiles the headers)
job "cli_tutorial.sh" 900 sh tests/cli_tutorial.sh "$TILECTL"
job "cli_hygiene.sh" 900 sh tests/cli_hygiene.sh

# 2. unit tests, plain and sanitized ---------------------------------------
for t in $B/tests/unit_*; do
    [ -x "$t" ] && job "$(basename "$t")" 300 "$t"
done
# the MPI tests under ASan+UBSan at 2 processes (leak checks off: MPICH's own
# initialisation leaks); the quick tier runs those the Makefile names in
# ASAN_ONLY (the ones it builds)
for t in ${ASAN_ONLY:-$B/asan/unit_* $B/asan/mpi_*}; do
    [ -x "$t" ] || continue
    case $(basename "$t") in
        unit_*) job "asan $(basename "$t")" 300 ASAN_OPTIONS=detect_leaks=1 \
                    UBSAN_OPTIONS=print_stacktrace=1 "$t" ;;
        *) job "asan $(basename "$t") np=2" 300 ASAN_OPTIONS=detect_leaks=0 \
               UBSAN_OPTIONS=print_stacktrace=1 $MPIEXEC -n 2 "$t" ;;
    esac
done

# 3. MPI tests at 1..4 processes --------------------------------------------
# The quick tier: mpi_tiling (random configurations in every model, fewer
# of them) at every count; the tests whose runs are long when processes
# outnumber the cores at one of 1 and 2, drawn from the seed; the others at
# one of 1 and 2 and one of 3 and 4.
# (the sources name the tests: a binary left over from an older tree
# neither runs nor moves the sample)
for src in tests/mpi_*.c; do
    t=$B/tests/$(basename "$src" .c)
    [ -x "$t" ] || continue
    if pick 2; then low=1; else low=2; fi
    if pick 2; then high=3; else high=4; fi
    case $tier-$(basename "$t") in
        # mpi_undeclared's variants (the fence's handler with sigaction under
        # any compiler; the checked loop where there is none) differ from it
        # within a process: at 2 processes in every tier
        *-mpi_undeclared_posix | *-mpi_undeclared_checked) nps=2 ;;
        full-* | quick-mpi_tiling) nps="1 2 3 4" ;;
        quick-mpi_data | quick-mpi_data_calls | quick-mpi_stencil | quick-mpi_stencil_checked | \
        quick-mpi_topology_faces | quick-mpi_tiling_height)
            nps=$low ;;
        *) nps="$low $high" ;;
    esac
    for np in $nps; do
        job "$(basename "$t") np=$np" 300 $MPIEXEC -n $np "$t"
    done
done
# a program of two files, the cold code compiled once (tests/separate_*.c)
nps="1 2 3 4"
[ $tier = quick ] && nps=$low
for np in $nps; do
    job "separate np=$np" 300 $MPIEXEC -n $np "$B/tests/separate"
done

# 4. the command-line programs end to end --------------------------------------
# (dozens of MPI runs each, each with its own timeout: the tutorial's takes
# 5 minutes under Open MPI on 2 loaded cores)
for t in tests/cli_*.sh; do
    case $t in tests/cli_hygiene.sh | tests/cli_tutorial.sh) continue ;; esac
    job "$(basename "$t")" 900 sh "$t" "$TILECTL"
done

prove_all
