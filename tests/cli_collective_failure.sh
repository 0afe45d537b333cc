#!/bin/sh
# tests/cli_collective_failure.sh -- no hang, ever, in the collectives of
# topology.h and scatterlb.h: an MPI call that fails on one rank ends the
# job (tilehybrid_mpi_failed: the call, the rank, MPI's error text, then
# MPI_Abort), as the engine does (tests/cli_failure.sh).
#
# $B/tests/failure_collectives (tests/failure_collectives.c, linked with the
# PMPI wrappers of tests/pmpi_failure.c) at 3 processes: first with nothing
# made to fail (every collective returns 0 on every rank), then with one
# call failing on one rank in slb_calibrate (the ping-pong's MPI_Send and
# MPI_Recv, the agreement's MPI_Allreduce, MPI_Scatter of the fits),
# slb_plan_create (agreement, MPI_Gather of the costs, MPI_Bcast of the
# plan, MPI_Comm_split of the reordered communicator), topo_cart_create_ex and
# topo_nest_cart_create (agreement, MPI_Cart_create): every rank must be
# gone within the 60 s guard (before the fix rank 1 returned the error and
# the others waited forever), non-zero, and stderr must name the call, the
# rank and the header.  Then the hook of tilehybrid_mpi_failure_swap gets
# the message instead of stderr, returns, and the job still ends.
set -u
. tests/lib.sh
scratch cli_collective_failure
P=$B/tests/failure_collectives

if [ ! -x "$P" ]; then
    notok "$P is built (make check builds it)"
    done_testing
fi

# run WHAT [VAR=VALUE...]: P WHAT at 3 processes; stderr (Open MPI's banner
# stripped) in $T/err, status in $rc, seconds in $secs
run() {
    what=$1
    shift
    run_job 3 env "$@" $P $what
}

for what in calibrate plan ordered scatterv cart nest; do
    run $what TILEHYBRID_FAIL_CALL=
    if [ $rc -eq 0 ] && [ ! -s "$T/err" ]; then
        ok "$what: nothing fails, every rank returns 0"
    else
        notok "$what: nothing fails: status $rc"; diag < "$T/err"
    fi
done

# WHAT CALL RANK WHERE: CALL fails on RANK in P WHAT; the message says WHERE
while read -r what call r where; do
    run $what TILEHYBRID_FAIL_CALL=$call TILEHYBRID_FAIL_RANK=$r
    failed_ok "$what: $call fails on rank $r of 3" "$call, rank $r, '$where' and MPI's error" \
        "^tilehybrid: rank $r: [A-Za-z_ ]*$call[A-Za-z_ ]* failed in $where.*(.*nternal.*); aborting the job"
done <<EOF
calibrate MPI_Send 1 scatterlb.h's calibration
calibrate MPI_Recv 1 scatterlb.h's calibration
calibrate MPI_Recv 0 scatterlb.h's calibration
calibrate MPI_Allreduce 1 scatterlb.h's agreement
calibrate MPI_Scatter 2 scatterlb.h's calibration, scattering the fits
plan MPI_Allreduce 1 scatterlb.h's agreement
plan MPI_Gather 1 scatterlb.h's slb_plan_create(), gathering
plan MPI_Gather 0 scatterlb.h's slb_plan_create(), gathering
plan MPI_Bcast 2 scatterlb.h's plan creation, broadcasting
ordered MPI_Comm_split 2 scatterlb.h's plan creation, ordering the ranks
scatterv MPI_Scatterv 1 scatterlb.h's slb_scatterv(), scattering the items
scatterv MPI_Scatterv 0 scatterlb.h's slb_scatterv(), scattering the items
cart MPI_Allreduce 1 topology.h's topo_cart_create_ex()
cart MPI_Cart_create 1 topology.h's topo_cart_create_ex()
nest MPI_Allreduce 1 topology.h's topo_nest_cart_create()
nest MPI_Cart_create 2 topology.h's topo_nest_cart_create()
EOF

# the user's policy: the hook gets the message (not stderr), returns, and
# the job still ends
run calibrate TILEHYBRID_FAIL_CALL=MPI_Send TILEHYBRID_FAIL_RANK=1 TILEHYBRID_FAIL_HOOK=1
if [ $rc -ne 0 ] && [ $rc -ne 124 ] &&
   grep -q "^failure_collectives hook on rank 1: tilehybrid: rank 1: MPI_Send" "$T/err" &&
   ! grep -q '; aborting the job' "$T/err"; then
    ok "tilehybrid_mpi_failure_swap: the hook gets the message instead of stderr, the job ends (${secs} s)"
else
    notok "tilehybrid_mpi_failure_swap: status $rc, the hook's message alone"
    diag < "$T/err"
fi
done_testing
