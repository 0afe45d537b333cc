#!/bin/sh
# tests/cli_agree.sh -- a bad argument on one rank only stops every rank
# (issue 14, item 1): each demo (adi, de, sw, seidel, ssor, scatter) parses
# on every rank, then the ranks agree on the result in one collective before
# any rank leaves.  Rank 0 runs the demo with good arguments, rank 1 with a
# bad one (mpiexec's MPMD form "-n 1 A : -n 1 B"); before the agreement this
# hung until the timeout.  Want: every rank exits 2 within the timeout, one
# line on stderr naming the option and rank 1, nothing on stdout.  Also:
# options that differ between ranks (named with both values), --help on
# some ranks only, and the demos' own messages of issue 14 items 6 and 7
# (--space past 64 bits, --verify past the memory, --bal out of range or
# with another model than funneled, a '+' in ssor's --space); an option left
# out shows as "not given", and --tstartup 0 is refused.
#   sh tests/cli_agree.sh
set -u
. tests/lib.sh
D=$DEMODIR
scratch cli_agree

# every rank writes its exit status to $T/rc.<rank> (tests/lib.sh)
rank_script

# mpmd DEMO "ARGS0" "ARGS1": rank 0 runs DEMO ARGS0, rank 1 DEMO ARGS1 under
# timeout 60 (a guard against the hang this prevents; it takes a second).
# Sets $rc (mpiexec's status), $ranks ("2 2": each rank's status, in rank
# order), stdout in $T/out, stderr without Open MPI's banner in $T/err.
mpmd() {
    rm -f "$T"/rc.*
    # shellcheck disable=SC2086
    RCDIR=$T timeout 60 $MPIEXEC -n 1 sh "$T/rank.sh" "$D/$1" $2 : -n 1 sh "$T/rank.sh" "$D/$1" $3 \
        > "$T/out" 2> "$T/err.raw"
    rc=$?
    strip_launcher < "$T/err.raw" > "$T/err"
    ranks=$(cat "$T/rc.0" "$T/rc.1" 2> /dev/null | tr '\n' ' ' | sed 's/ $//')
}

# stops WHAT PATTERN DEMO "ARGS0" "ARGS1": every rank exits 2 (Open MPI may
# kill a rank that had not exited yet: the ranks that did exit exited 2),
# one line on stderr matching PATTERN, stdout empty
stops() {
    what=$1 pat=$2
    shift 2
    mpmd "$@"
    if [ -e "$T/rc.x" ]; then
        skip "$what" "the launcher sets neither PMI_RANK nor OMPI_COMM_WORLD_RANK"
        return
    fi
    good=0
    if [ "$ranks" = "2 2" ]; then good=1
    elif [ "$TILEHYBRID_OPENMPI" -eq 1 ] && [ -n "$ranks" ] &&
         [ "$(echo "$ranks" | tr ' ' '\n' | sort -u)" = 2 ]; then good=1; fi
    if [ $rc -ne 124 ] && [ $good -eq 1 ] && [ "$(wc -l < "$T/err")" -eq 1 ] &&
       grep -q -e "$pat" "$T/err" && [ ! -s "$T/out" ]; then
        ok "$what: every rank exits 2, one message: $(cat "$T/err")"
    else
        notok "$what: mpiexec $rc (124: hung), ranks exited [$ranks] (want 2 2), stderr '$(head -c 300 "$T/err")', stdout '$(head -c 100 "$T/out")'"
    fi
}

# 1. one bad rank --------------------------------------------------------------
stops "adi, --space 0x8x8 on rank 1 only" "^adi: rank 1: --space '0x8x8'" \
    adi "--space 8x8x8" "--space 0x8x8"
stops "de, --threads 0 on rank 1 only" "^de: rank 1: --threads '0'" \
    de "--model fine --threads 1" "--model fine --threads 0"
stops "de, an unknown option on rank 1 only" "^de: rank 1: unknown option '--nope'" \
    de "--space 8x8x8" "--space 8x8x8 --nope"
stops "sw, --random 0,5 on rank 1 only" "^sw: rank 1: --random '0,5'" \
    sw "--random 5,5" "--random 0,5"
printf '>a\nACGT\n' > "$T/a.fa"
stops "sw, a missing --b file on rank 1 only" "^sw: rank 1: --b: cannot open '/nonexistent/b.fa'" \
    sw "--a $T/a.fa --b $T/a.fa" "--a $T/a.fa --b /nonexistent/b.fa"
stops "seidel, --n 2 on rank 1 only" "^seidel: rank 1: --n '2'" \
    seidel "--n 10 --steps 2" "--n 2 --steps 2"
stops "ssor, --space 4x4 on rank 1 only" "^ssor: rank 1: --space '4x4'" \
    ssor "--space 4x4x4" "--space 4x4"
stops "scatter, --items -1 on rank 1 only" "^demos/scatter: rank 1: --items '-1'" \
    scatter "--items 10" "--items -1"

# 2. values that differ, --help on one rank ------------------------------------------
stops "adi, --space 8x8x8 and 8x8x9" "^adi: --space (Z) differs between ranks (8 on one, 9 on another" \
    adi "--space 8x8x8" "--space 8x8x9"
stops "de, --bal 0.5 and 0.3 (funneled): the values as written" \
    "^de: --bal differs between ranks (0.3 on one, 0.5 on another" \
    de "--model funneled --threads 2 --bal 0.5" "--model funneled --threads 2 --bal 0.3"
stops "adi, --model mpi and funneled: the names" "^adi: --model differs between ranks (mpi on one, funneled on another" \
    adi "--space 8x8x8" "--space 8x8x8 --model funneled"
stops "adi, --help on rank 1 only" "^adi: --help given on some ranks only" adi "--space 8x8x8" "--help"
stops "ssor, --sequential on rank 1 only" "^ssor: --sequential differs between ranks" \
    ssor "--space 4x4x4" "--space 4x4x4 --sequential"
stops "ssor, --omega 1.2 and 1.3" "^ssor: --omega differs between ranks (1.2 on one, 1.3 on another" \
    ssor "--space 4x4x4" "--space 4x4x4 --omega 1.3"
stops "seidel, --dims 2 and 3" "^seidel: --dims differs between ranks (2 on one, 3 on another" \
    seidel "--n 10" "--n 10 --dims 3"
stops "sw, --seed 1 and 2" "^sw: --seed differs between ranks (1 on one, 2 on another" \
    sw "--random 5,5" "--random 5,5 --seed 2"
# an option left out is "not given", as the user wrote it (it printed the
# internal 0: "--tile-height differs (0 on one, 9 on another)"), and given
# differs from not given
stops "adi, --tile-height on rank 1 only: 'not given', not 0" \
    "^adi: --tile-height differs between ranks (not given on one, 9 on another" \
    adi "--space 8x8x8" "--space 8x8x8 --tile-height 9"
stops "adi, --grid 2x1 on rank 1 only: 'not given'" \
    "^adi: --grid (A) differs between ranks (not given on one, 2 on another" \
    adi "--space 8x8x8" "--space 8x8x8 --grid 2x1"
stops "adi, --grid comm and time: the names (time passed as comm)" \
    "^adi: --grid differs between ranks (comm on one, time on another" \
    adi "--space 8x8x8 --grid comm" "--space 8x8x8 --grid time"
stops "adi, --tcomp on rank 1 only: 'not given'" \
    "^adi: --tcomp differs between ranks (not given on one, 1e-08 on another" \
    adi "--space 8x8x8" "--space 8x8x8 --tcomp 1e-8"
stops "adi, --bandwidth on rank 0 only: 'not given'" \
    "^adi: --bandwidth differs between ranks (not given on one, 1000000000 on another" \
    adi "--space 8x8x8 --bandwidth 1e9" "--space 8x8x8"
stops "adi, --tstartup on rank 1 only: 'not given'" \
    "^adi: --tstartup differs between ranks (not given on one, 1e-06 on another" \
    adi "--space 8x8x8" "--space 8x8x8 --tstartup 1e-6"
FA="--space 8x8x8 --model funneled --threads 2 --balance adaptive"
stops "adi, --adapt-period on rank 1 only: 'not given'" \
    "^adi: --adapt-period differs between ranks (not given on one, 3 on another" \
    adi "$FA" "$FA --adapt-period 3"
stops "seidel, --grid 2x1 on rank 1 only: 'not given'" \
    "^seidel: --grid (A) differs between ranks (not given on one, 2 on another" \
    seidel "--n 10" "--n 10 --grid 2x1"
# --tstartup 0 (a plan reads 0 as "not given": it was measured or defaulted
# silently, and a rank given 0 agreed with one given nothing): refused
stops "adi, --tstartup 0 on rank 1 only: refused, not taken for 'not given'" \
    "^adi: rank 1: --tstartup '0': expected a number > 0 (seconds per message; 0 would mean \"not given\" to the plan: TILEHYBRID_TSTARTUP=0 models no start-up)" \
    adi "--space 8x8x8 --bandwidth 1e9" "--space 8x8x8 --bandwidth 1e9 --tstartup 0"
mpmd seidel "--help" "--help"
[ $rc -eq 0 ] && [ "$(grep -c '^usage:' "$T/out")" -eq 1 ] && [ ! -s "$T/err" ]
check_help=$?
[ $check_help -eq 0 ] && ok "seidel --help on every rank: the usage once, exit 0" ||
    notok "seidel --help on every rank: mpiexec $rc, $(grep -c '^usage:' "$T/out") usage lines, stderr '$(head -c 200 "$T/err")'"

# 3. the demos' own messages (items 6 and 7): one line naming the option ----------------
# one WHAT PATTERN DEMO ARGS...: two ranks, exit 2, one line matching PATTERN
one() {
    what=$1 pat=$2 demo=$3
    shift 3
    run_timeout 60 $MPIEXEC -n 2 "$D/$demo" "$@"
    err=$(printf '%s\n' "$err" | strip_launcher)
    if [ $rc -eq 2 ] && [ -z "$out" ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] &&
       printf '%s\n' "$err" | grep -q -e "$pat"; then
        ok "$what: $err"
    else
        notok "$what: exit $rc, stderr '$(printf '%s' "$err" | head -c 300)', stdout '$(printf '%s' "$out" | head -c 100)'"
    fi
}
one "adi --space 9223372036854775807x5x5: --space and the product" \
    "^adi: rank 0: --space 9223372036854775807x5x5: the number of points, X1 \* X2 \* Z = 9223372036854775807 \* 5 \* 5, does not fit in 64 bits" \
    adi --space 9223372036854775807x5x5
one "adi --space 3037000500x3037000500x1: --space and the product" \
    "^adi: rank 0: --space 3037000500x3037000500x1: the number of points.*does not fit in 64 bits" \
    adi --space 3037000500x3037000500x1
one "de --space 3037000499x3037000499x1: one plane's bytes" \
    "^de: rank 0: --space 3037000499x3037000499x1: one Z plane, X1 \* X2 = 3037000499 \* 3037000499 points of 8 bytes, does not fit in 64 bits" \
    de --space 3037000499x3037000499x1
one "adi --verify on 256x256x1000000: --verify keeps every plane" \
    "^adi: rank 0: --verify keeps every plane: X1 \* X2 \* Z = 256 \* 256 \* 1000000 points of 8 bytes.*verify a smaller --space" \
    adi --verify --space 256x256x1000000
# past a rank's memory limit (TILEHYBRID_MEM_LIMIT here; by default half
# the node's memory shared by its ranks), not only past the whole machine:
# refused naming --verify and the limit (it ran into the plan's "lower the
# tile height", which does not help)
export TILEHYBRID_MEM_LIMIT=1000000
one "adi --verify on 64x64x64 at 2 ranks, TILEHYBRID_MEM_LIMIT=1000000: --verify and the limit" \
    "^adi: rank 0: --verify keeps every plane: X1 \* X2 \* Z = 64 \* 64 \* 64 points of 8 bytes, at least 1048576 bytes per process on 2 processes, more than its memory limit of 1000000 bytes (TILEHYBRID_MEM_LIMIT); verify a smaller --space$" \
    adi --verify --space 64x64x64
unset TILEHYBRID_MEM_LIMIT
one "adi --verify on 2^20 x 2^20 x 2^21 (2^61 points of 8 bytes): past 64 bits" \
    "^adi: rank 0: --verify keeps every plane: .*do not fit in 64 bits" \
    adi --verify --space 1048576x1048576x2097152
one "adi --bal 1e-400: a range error, not a number in [0, 1]" \
    "^adi: rank 0: --bal '1e-400': its magnitude is beyond what a double holds" \
    adi --model funneled --threads 2 --bal 1e-400
one "adi --bal 0.5 with the mpi model: refused, not ignored" \
    "^adi: rank 0: --bal applies to the funneled model only (--model funneled), not to --model mpi" \
    adi --space 8x8x8 --bal 0.5
one "de --bal 1 with the fine model: refused" "^de: rank 0: --bal applies to the funneled model only" \
    de --space 8x8x8 --model fine --threads 2 --bal 1
one "adi --tstartup 0: refused (a plan would read it as 'not given')" \
    "^adi: rank 0: --tstartup '0': expected a number > 0" \
    adi --space 8x8x4096 --tcomp 1e-8 --bandwidth 1e9 --tstartup 0 --json
one "adi --space 1x1x64 on 2 ranks: no grid, naming --space" \
    "^adi: rank 0: no process grid for 2 processes on the extents 1 x 1 (cfg.extent; the demos' --space): no grid fits" \
    adi --space 1x1x64
one "ssor --space 4x+4x4: the one number rule (no '+')" "^ssor: rank 0: --space '4x+4x4'" \
    ssor --space 4x+4x4
one "ssor --space ' 4x4x4': no leading space" "^ssor: rank 0: --space ' 4x4x4'" \
    ssor --space " 4x4x4"
run_timeout 60 $MPIEXEC -n 2 "$D/adi" --space 8x8x8 --model funneled --threads 2 --bal 1e-310 --verify
[ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q "^verify: ok"
check_sub=$?
[ $check_sub -eq 0 ] && ok "adi --bal 1e-310 (a subnormal) is a number: runs, verified" ||
    notok "adi --bal 1e-310: exit $rc, $(printf '%s' "$err" | head -c 200)"

# the way to a zero start-up cost: the environment (honoured: 0, not the
# default 0.000107)
run_timeout 60 env TILEHYBRID_TSTARTUP=0 $MPIEXEC -n 2 "$D/adi" --space 8x8x4096 --tcomp 1e-8 \
    --bandwidth 1e9 --json
[ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q '"model_tstartup": 0,'
check_zero=$?
[ $check_zero -eq 0 ] && ok "TILEHYBRID_TSTARTUP=0: the plan's model_tstartup is 0" ||
    notok "TILEHYBRID_TSTARTUP=0: exit $rc, $(printf '%s' "$out" | grep -o '"model_tstartup": [^,]*')"

# 4. the environment on one rank: TILEHYBRID_TCOMP on rank 1 only, while the
# model chooses the height. Rank 0 timed t_comp with the body after the
# first run and rank 1 did not, so they waited in different collectives for
# ever, with no message. Now both refuse the plan, with one message.
run_timeout 60 $MPIEXEC -n 1 "$D/adi" --space 64x64x640 : \
    -n 1 env TILEHYBRID_TCOMP=1e-8 "$D/adi" --space 64x64x640
err=$(printf '%s\n' "$err" | strip_launcher)
if [ $rc -ne 0 ] && [ $rc -ne 124 ] && [ -z "$out" ] &&
   [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] &&
   printf '%s\n' "$err" | grep -q "^adi: rank [01]: TILEHYBRID_TCOMP is set on some ranks only"; then
    ok "TILEHYBRID_TCOMP on rank 1 only: refused on both ranks, exit $rc: $err"
else
    notok "TILEHYBRID_TCOMP on rank 1 only: exit $rc (124: hung), stderr '$(printf '%s' "$err" | head -c 300)', stdout '$(printf '%s' "$out" | head -c 100)'"
fi

done_testing
