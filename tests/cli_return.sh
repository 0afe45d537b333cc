#!/bin/sh
# tests/cli_return.sh -- a `return` out of the body never hangs the job.
#
# $B/tests/return_body (tests/return_body.c, built without OpenMP, where
# the compiler lets a body return):
# 1. at 1 process the run ends, tile_plan_status() reports TILE_ERR_BODY
#    ("a return (or goto) left the body"), the next run is refused with it,
#    and the program goes on to MPI_Finalize;
# 2. at 2 and 3 processes, a return on rank 0 only (from a function, then
#    tile_plan_status, tile_plan_destroy, MPI_Finalize; from main), or on
#    every rank before the plan runs again: the job ends within seconds (a
#    60 s guard), non-zero, stderr naming the rank and the return; with
#    cfg.on_mpi_failure the hook gets the message, then the job ends;
# 3. $B/tests/return_body_noguard, without the guard that sees the return
#    when it happens (compilers with neither a cleanup attribute nor C++):
#    the job ends at tile_plan_destroy() or at the next run's start,
#    before any collective (no "tilehybrid_agree_status()" message).
set -u
. tests/lib.sh
scratch cli_return
P=$B/tests/return_body
NG=$B/tests/return_body_noguard

for prog in "$P" "$NG"; do
    if [ ! -x "$prog" ]; then
        notok "$prog is built (make check-build builds it)"
        done_testing
    fi
done

# 1. one process: nothing waits, the error is reported
for mode in fn again; do
    expect_output "1 process, return ($mode): tile_plan_status() says TILE_ERR_BODY, a return left the body" \
        60 '^left .*TILE_ERR_BODY.*a return \(or goto\) left the body' $MPIEXEC -n 1 $P $mode
done

# 2. more processes: the job ends with the message
MSG='rank 0: a return (or goto) left the body of a run: the other ranks wait for its messages'
for np in 2 3; do
    for mode in fn again main; do
        run_job $np $P $mode
        failed_ok "$np processes, return ($mode)" "rank 0 and the return" "$MSG" \
            "aborting the job"
        if grep -q 'tilehybrid_agree_status\|Message truncated' "$T/err"; then
            notok "$np processes, return ($mode): no agreement or truncation message"
            diag < "$T/err"
        else
            ok "$np processes, return ($mode): no agreement or truncation message"
        fi
    done
    run_job $np $P fn hook
    failed_ok "$np processes, return, cfg.on_mpi_failure" "the hook's message" "^hook got: .*$MSG"
done

# 3. without the guard: at tile_plan_destroy() (fn), at the next run (again)
for mode in fn again; do
    run_job 2 $NG $mode
    failed_ok "2 processes, no guard, return ($mode)" "rank 0 and the return" "$MSG"
    if grep -q 'tilehybrid_agree_status\|Message truncated' "$T/err"; then
        notok "2 processes, no guard, return ($mode): ended before any collective"
        diag < "$T/err"
    else
        ok "2 processes, no guard, return ($mode): ended before any collective"
    fi
done

done_testing
