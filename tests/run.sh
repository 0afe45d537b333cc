#!/bin/sh
# tests/run.sh -- the test driver behind `make check` (and `make check-tsan`).
#
#   0. the driver itself: its TAP reader on fixed texts, a non-zero exit;
#   1. header hygiene: every public header alone, in C99 with
#      -Wall -Wextra -pedantic -Werror under gcc and clang, with and without
#      OpenMP, and as C++ (g++ -x c++); the program in each header's top
#      comment at -O0 and -O2 (tests/examples.awk finds it);
#   2. build/tests/unit_*   (plain unit tests), then build/asan/unit_* (the
#      same under ASan+UBSan) and build/asan/mpi_* at 2 processes;
#   3. build/tests/mpi_*    at 1, 2, 3 and 4 processes (oversubscribed);
#   4. tests/cli_*.sh       (tilectl, the demos and every other command-line
#      program end to end);
#   5. prove (Perl's TAP harness) reads the saved output of every program
#      that passed and must agree.
#
#   sh tests/run.sh --tsan  (make check-tsan) instead: the threaded MPI test
#      and the demos' threaded models built with clang -fsanitize=thread
#      -fopenmp (the LLVM OpenMP runtime, with Archer) and run at 1-3
#      processes x 2-3 threads; a data race fails.  First two controls:
#      tests/tsan_race.c must be reported, tests/tsan_barrier.c must not.
#      Skipped, with the reason, where clang, its OpenMP runtime or Archer
#      is missing.
#
# Every test program and script prints TAP (the Test Anything Protocol;
# tests/check.h in C, tests/lib.sh in shell): "ok N - name", "not ok N - name",
# "ok N - name # SKIP reason", "# diagnostics", and the plan "1..N" (last).
# This driver reads each program's TAP and prints its tests again, numbered
# in one sequence and labelled with the program ("ok 12 - [unit_topology]
# ..."): its own output is TAP too.  A program fails when it exits non-zero
# (a crash, a sanitizer report, a timeout), prints no test, no plan or a
# number of tests other than its plan, or a test number out of sequence;
# such a failure counts once, as a "not ok", unless the program printed a
# "not ok" itself.  TODO directives are not used: "not ok ... # TODO" fails.
# Last lines: the plan, then "N passed, N failed, N skipped".  Everything the
# programs printed is in $B/test.log, their TAP in $B/tap/.
#
# One test file alone, with prove (from the top directory, after `make check`
# built everything; use the launcher of the MPI the tests were built with,
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
log=$B/test.log
mkdir -p "$B/tap"
rm -f "$B"/tap/*.tap
: > "$log"
nprog=0

# tap_parse FILE: the TAP of FILE as lines "T<TAB>ok|notok|skip<TAB>name<TAB>
# reason" (names unescaped) and "P<TAB>problem" (no plan, a count other than
# the plan, a number out of sequence, Bail out!)
tap_parse() {
    awk '
    function unesc(s) { gsub(/\\#/, "#", s); return s }
    /^(not )?ok([ \t]|$)/ {
        st = /^not / ? "notok" : "ok"
        s = $0; sub(/^(not )?ok[ \t]*/, "", s)
        n++
        if (match(s, /^[0-9]+/)) {
            if (substr(s, 1, RLENGTH) + 0 != n)
                problem("test " substr(s, 1, RLENGTH) " out of sequence (expected " n ")")
            s = substr(s, RLENGTH + 1)
        }
        sub(/^[ \t]*(-[ \t]*)?/, "", s)
        why = ""
        # a directive starts at the first unescaped "#"
        if (match(s, /^([^\\#]|\\.)*#/)) {
            d = substr(s, RLENGTH + 1); s = substr(s, 1, RLENGTH - 1)
            sub(/[ \t]+$/, "", s)
            if (match(d, /^[ \t]*[Ss][Kk][Ii][Pp]/) && st == "ok") {
                st = "skip"; why = substr(d, RLENGTH + 1); sub(/^[ \t:]*/, "", why)
                if (why == "") why = "no reason given"
            } else s = s " #" d
        }
        printf "T\t%s\t%s\t%s\n", st, unesc(s), unesc(why)
        next
    }
    /^1\.\.[0-9]+/ {
        if (plans++) problem("a second plan line")
        plan = $0; sub(/^1\.\./, "", plan); plan += 0
        if (plan == 0 && match($0, /#[ \t]*[Ss][Kk][Ii][Pp]/)) {
            why = substr($0, RSTART + RLENGTH); sub(/^[ \t:]*/, "", why)
            printf "T\tskip\t(all)\t%s\n", why == "" ? "no reason given" : why
            skipall = 1
        }
        next
    }
    /^Bail out!/ { problem($0) }
    function problem(p) { printf "P\t%s\n", p }
    END {
        if (!plans) problem("no plan line (1..N): the program stopped early")
        else if (plan != n && !skipall) problem("planned " plan " tests, ran " n)
    }' "$1"
}

# run_prog LABEL CMD...: run a test program, print its tests, count them.
# A guard against a hang kills it after $limit seconds: 300 for a program,
# 900 for a script (dozens of MPI runs, each with its own timeout: the
# tutorial's takes 5 minutes under Open MPI on 2 loaded cores)
limit=300
run_prog() {
    label=$1; shift
    nprog=$((nprog + 1))
    tap=$B/tap/$(printf '%03d' $nprog)-$(echo "$label" | tr -c 'A-Za-z0-9_.=-' '_').tap
    timeout $limit "$@" > "$tap" 2>&1
    rc=$?
    { echo "### [$label] $*"; cat "$tap"; } >> "$log"
    p=0 f=0 s=0 problems=""
    tap_parse "$tap" > "$B/tap.parsed"
    while IFS='	' read -r kind st name why; do
        case $kind$st in
            Tok)    ok "[$label] $name"; p=$((p + 1)) ;;
            Tnotok) notok "[$label] $name"; f=$((f + 1)) ;;
            Tskip)  skip "[$label] $name" "$why"; s=$((s + 1)) ;;
            P*)     problems="$problems; $st" ;;
        esac
    done < "$B/tap.parsed"
    [ $rc -eq 0 ] && [ -z "$problems" ] && [ $((p + f + s)) -gt 0 ] && return 0
    if [ $f -eq 0 ]; then
        why="exited with status $rc after $p tests"
        [ $rc -eq 124 ] && why="killed after $limit s, $p tests"
        notok "[$label] $why$problems"
    fi
    grep '^SUMMARY: ' "$tap" | head -n 5 | diag
    grep -v -e '^ok' -e '^not ok' -e '^1\.\.' "$tap" | tail -n 15 | diag
    mv "$tap" "$tap.failed"
    return 1
}

# prove_agrees: Perl's TAP harness reads the saved TAP of every program that
# passed here; it must call each of them a pass too
prove_agrees() {
    n=$(ls "$B"/tap/*.tap 2> /dev/null | wc -l)
    if ! command -v prove > /dev/null 2>&1; then
        skip "prove reads the TAP of the $n programs that passed" "prove (Perl) is not installed"
    elif [ "$n" -eq 0 ]; then
        notok "prove: no program passed"
    elif prove --exec cat "$B"/tap/*.tap > "$B/prove.out" 2>&1; then
        ok "prove (TAP::Harness) reads the TAP of the $n programs that passed and passes them all"
    else
        notok "prove disagrees on the TAP of the programs that passed here"
        grep -v '\.\. ok$' "$B/prove.out" | tail -n 20 | diag
    fi
}

summary() {
    echo "1..$tap_n"
    echo "$((tap_n - tap_failed - tap_skipped)) passed, $tap_failed failed, $tap_skipped skipped"
    [ "$tap_failed" -eq 0 ] && [ "$tap_n" -gt 0 ]
    exit $?
}

# the wrapper's flags: MPICH says `mpicc -show`, Open MPI `mpicc -showme`
MPI_SHOW=$($MPICC -show 2>/dev/null || $MPICC -showme 2>/dev/null)
MPI_INC=$(echo "$MPI_SHOW" | tr ' ' '\n' | grep '^-I' | tr '\n' ' ')
MPI_LIBS=$(echo "$MPI_SHOW" | tr ' ' '\n' | grep -e '^-L' -e '^-l' -e '^-Wl' | tr '\n' ' ')
W="-Wall -Wextra -pedantic -Werror"

# --tsan: ThreadSanitizer + Archer ---------------------------------------------
TSAN_CC=${TSAN_CC:-clang}
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

# tsan_control NAME WANT: run DIR/NAME (built from tests/NAME.c): WANT race
# (exit 66 and a report) or none (exit 0, no report)
tsan_control() {
    if ! tsan_cc -o "$T/$1" "tests/$1.c" > "$T/$1.err" 2>&1; then
        notok "tests/$1.c builds with $TSAN_CC -fsanitize=thread"; diag < "$T/$1.err"; return
    fi
    timeout 60 "$T/$1" > "$T/$1.out" 2>&1
    rc=$?
    if [ "$2" = race ] && [ $rc -eq 66 ] && grep -q 'WARNING: ThreadSanitizer: data race' "$T/$1.out"; then
        ok "tsan control: tests/$1.c, a data race, is reported"
    elif [ "$2" = none ] && [ $rc -eq 0 ] && ! grep -q ThreadSanitizer "$T/$1.out"; then
        ok "tsan control: tests/$1.c, ordered by an OpenMP barrier, is not reported (Archer)"
    else
        notok "tsan control: tests/$1.c: exit $rc, want $([ "$2" = race ] && echo 66 and a race report || echo 0 and no report)"
        tail -n 15 "$T/$1.out" | diag
    fi
}

# tsan_runs: the threaded MPI test at 1-3 processes, the data test at 2, and the demos in the
# threaded models; a race exits 66 and fails the run
tsan_runs() {
    for s in tests/mpi_tiling tests/mpi_data demos/adi demos/de; do
        if ! tsan_cc -o "$T/${s#*/}" $s.c > "$T/${s#*/}.err" 2>&1; then
            notok "$s.c builds with $TSAN_CC -fsanitize=thread -fopenmp"; diag < "$T/${s#*/}.err"
            return
        fi
    done
    for np in 1 2 3; do
        run_prog "tsan mpi_tiling np=$np" $MPIEXEC -n $np "$T/mpi_tiling"
    done
    # the output hook and the reductions run beside the computing threads
    run_prog "tsan mpi_data np=2" $MPIEXEC -n 2 "$T/mpi_data"
    for demo in adi de; do
        for cfg in "1 fine 3 5" "2 fine 2 4" "3 fine 2 6 --order z" "2 funneled 2 4" \
                   "3 funneled 3 3 --bal 0.5" "2 funneled 3 3 --balance adaptive --bal 0.3 --adapt-period 2" \
                   "2 funneled 2 5 --balance variable" "1 multiple 3 4" "2 multiple 2 3" \
                   "3 multiple 2 7 --order z"; do
            set -- $cfg
            np=$1 model=$2 th=$3 z=$4; shift 4
            expect_output "tsan $demo np=$np: $model model, $th threads, tile height $z${*:+, $*}: no data race, every point verified" \
                120 '^verify: ok' $MPIEXEC -n $np "$T/$demo" --space 11x37x45 --tile-height $z \
                --model $model --threads $th "$@" --verify
        done
    done
}

if [ "${1:-}" = --tsan ]; then
    T=$B/tsan
    mkdir -p "$T"
    # Archer gives TSan the OpenMP runtime's synchronisation; TSan ignores the
    # races inside uninstrumented libraries (the OpenMP runtime, MPI); a race
    # makes the program exit 66 at the end
    export TSAN_OPTIONS="ignore_noninstrumented_modules=1 exitcode=66 ${TSAN_OPTIONS:-}"
    export ARCHER_OPTIONS=${ARCHER_OPTIONS:-}
    why=$(tsan_why "$T")
    if [ -n "$why" ]; then
        skip "ThreadSanitizer with Archer" "$why"
    else
        tsan_control tsan_race race
        tsan_control tsan_barrier none
        tsan_runs
    fi
    summary
fi

# 0. the driver reads TAP right -------------------------------------------------
# tap_parse on fixed texts (TAB written ":"), and lib.sh's escaping
tap_selftest() {
    bad=""
    while IFS='|' read -r text want; do
        printf "$text" > "$B/tap.self"
        got=$(tap_parse "$B/tap.self" | tr '\t\n' ':;')
        [ "$got" = "$want" ] || bad="$bad [$text: got '$got', want '$want']"
    done << 'EOF'
ok 1 - a\nnot ok 2 - b\n1..2\n|T:ok:a:;T:notok:b:;
1..2\nok 1 - a\nok 2 - b\n|T:ok:a:;T:ok:b:;
ok 1 - a\n1..2\n|T:ok:a:;P:planned 2 tests, ran 1;
ok 1 - a\nok 3 - b\n1..2\n|T:ok:a:;P:test 3 out of sequence (expected 2);T:ok:b:;
ok 1 - a\n|T:ok:a:;P:no plan line (1..N): the program stopped early;
ok 1 - a \\# b # SKIP why\n1..1\n|T:skip:a # b:why;
not ok 1 - x # TODO later\n1..1\n|T:notok:x # TODO later:;
1..0 # SKIP no x\n|T:skip:(all):no x;
ok 1 - a\nBail out! broken\n1..1\n|T:ok:a:;P:Bail out! broken;
EOF
    line=$( (tap_n=0; skip "a#b
c" "d#e") )
    [ "$line" = 'ok 1 - a\#b c # SKIP d\#e' ] || bad="$bad [lib.sh skip printed '$line']"
    # run_prog: all tests passed but the exit status is not 0: one failure
    got=$( (tap_failed=0; run_prog "driver self-test" sh -c 'echo "ok 1 - a"; echo 1..1; exit 3' > /dev/null
            echo $tap_failed) )
    rm -f "$B"/tap/*driver_self-test*
    [ "$got" = 1 ] || bad="$bad [a program exiting 3 after its plan counted $got failures]"
    [ -z "$bad" ] && ok "the driver reads TAP: plans, counts, sequence, SKIP, escaped '#', Bail out!, exit status" ||
        notok "the driver reads TAP:$bad"
}

tap_selftest

# 1. header hygiene -------------------------------------------------------
# Open MPI's mpi.h, read as C++, brings in its deprecated C++ bindings, whose
# own inline code fails -Wextra (-Wcast-function-type); OMPI_SKIP_MPICXX is
# Open MPI's switch to leave them out (our headers use the C API only).
CXX_MPI="-DOMPI_SKIP_MPICXX"
for h in tilehybrid.h tiling.h hybrid.h topology.h balance.h scatterlb.h; do
    tu=$B/hygiene_${h%.h}.c
    printf '#include "%s"\n#include "%s"\nint main(void) { return 0; }\n' "$h" "$h" > "$tu"
    for cc in gcc clang; do
        if ! command -v $cc >/dev/null 2>&1; then skip "hygiene: $h alone, $cc" "$cc not installed"; continue; fi
        for omp in "" "-fopenmp"; do
            if [ -n "$omp" ] && ! printf '#include <omp.h>\nint main(void){return 0;}\n' |
                    $cc -fopenmp -x c - -o /dev/null 2>/dev/null; then
                skip "hygiene: $h alone, $cc -fopenmp" "$cc has no OpenMP"; continue
            fi
            if $cc -std=c99 $W $omp $MPI_INC -I. -c "$tu" -o /dev/null 2>$B/hyg.err; then
                ok "hygiene: $h alone, $cc -std=c99 $W${omp:+ $omp}"
            else notok "hygiene: $h alone, $cc -std=c99 $W${omp:+ $omp}"; head -20 $B/hyg.err | diag; fi
        done
    done
    for std in c++11 c++17; do
        if g++ -x c++ -std=$std $W -fopenmp $CXX_MPI $MPI_INC -I. -c "$tu" -o /dev/null 2>$B/hyg.err; then
            ok "hygiene: $h alone, g++ -x c++ -std=$std $W"
        else notok "hygiene: $h alone, g++ -x c++ -std=$std"; head -20 $B/hyg.err | diag; fi
    done
done

# the complete program in each header's top comment (tests/examples.awk)
# compiles warning-free with gcc and clang at -O0 and -O2 (-O2 finds what
# -O0 cannot: maybe-uninitialized, format-truncation); an example that says
# what it prints ("// prints: ...") and needs no mpiexec prints exactly that
mkdir -p $B/examples
rm -f $B/examples/*.c
for h in tilehybrid.h tiling.h hybrid.h topology.h balance.h scatterlb.h; do
    awk -v prefix=$B/examples/${h%.h} -f tests/examples.awk $h
    [ -f $B/examples/${h%.h}_1.c ] || notok "example: $h has a complete program in its top comment"
done
# and the README's complete programs (its C blocks with a main)
awk -v dir=$B/examples '/^```c$/ { f = 1; n++; next } /^```$/ { f = 0 }
    f { print > (dir "/README_" n ".c") }' README.md
for ex in $B/examples/README_*.c; do grep -q '^int main(' "$ex" || rm -f "$ex"; done
for ex in $B/examples/*.c; do
    name="example: $(basename "$ex" .c | sed -e 's/^README_\([0-9]*\)$/README.md (block \1)/' \
        -e 's/_\([0-9]*\)$/.h (\1)/')"
    for cc in gcc clang; do
        if ! command -v $cc >/dev/null 2>&1; then skip "$name, $cc" "$cc not installed"; continue; fi
        omp=-fopenmp
        printf '#include <omp.h>\nint main(void){return 0;}\n' | $cc -fopenmp -x c - -o /dev/null 2>/dev/null || omp=
        if $cc -std=c99 $W -O0 $omp $MPI_INC -I. -c "$ex" -o /dev/null 2>$B/hyg.err &&
           $cc -std=c99 $W -O2 $omp $MPI_INC -I. -c "$ex" -o /dev/null 2>>$B/hyg.err; then
            ok "$name compiles, $cc -std=c99 $W -O0 and -O2${omp:+ $omp}"
        else notok "$name compiles, $cc -std=c99 $W -O0 and -O2${omp:+ $omp}"; head -20 $B/hyg.err | diag; fi
    done
    said=$(sed -n 's|.*// prints: ||p' "$ex") got=
    [ -n "$said" ] && ! grep -q 'MPI_Init' "$ex" || continue
    if $MPICC -std=c99 -O2 -I. -o "${ex%.c}" "$ex" -lm 2>$B/hyg.err &&
       got=$(timeout 60 "${ex%.c}" < /dev/null) && [ "$got" = "$said" ]; then
        ok "$name prints what it says: $said"
    else notok "$name prints what it says: $said"; { cat $B/hyg.err; echo "got: ${got:-}"; } | diag; fi
done

# the macros in C++ user code: the ADI demo compiled as C++11 runs and verifies
if g++ -x c++ -std=c++11 $W -fopenmp $CXX_MPI $MPI_INC -I. -o $B/adi_cxx demos/adi.c $MPI_LIBS -lm 2>$B/hyg.err; then
    expect_output "C++: demos/adi.c built as C++11 ($W) runs and verifies every point" 120 'verify: ok' \
        $MPIEXEC -n 2 $B/adi_cxx --space 9x31x40 --tile-height 7 --model funneled --threads 2 --verify
else notok "C++: demos/adi.c built as C++11"; head -20 $B/hyg.err | diag; fi

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
limit=900
for t in tests/cli_*.sh; do
    [ -f "$t" ] || continue
    run_prog "$(basename "$t")" sh "$t" "$TILECTL"
done
limit=300

# 5. prove agrees -------------------------------------------------------------
prove_agrees
summary
