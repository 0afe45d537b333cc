#!/bin/sh
# tests/cli_failure.sh -- no hang, ever: an MPI call that fails on one rank,
# and a plan larger than the memory limit.
#
# 1. $B/tests/mpi_failure (tests/mpi_failure.c, linked with the PMPI
#    wrappers of tests/pmpi_failure.c) at 3 processes, in every model, with
#    one call of the engine made to fail on rank 1 (MPI_Isend, MPI_Irecv
#    with nonblocking face messages; MPI_Send_init, MPI_Recv_init at the
#    plan's creation, MPI_Startall in the run, MPI_Request_free at its
#    destruction with persistent ones (the default); MPI_Waitall in the run;
#    MPI_Allreduce in the plan's creation, at the start and at the end of
#    the run; the reduction's MPI_Allgather; tile_gather's MPI_Alltoallw
#    after the run; with MPI-4, the multiple model's partitioned messages:
#    MPI_Psend_init, MPI_Precv_init, MPI_Pready, MPI_Parrived): every rank must be
#    gone within seconds (a 60 s guard; the failure of a rank would
#    otherwise leave the others waiting forever), the job's status must be
#    non-zero, and stderr must name the call and the rank (and the tile,
#    for the face messages).  Then the same with cfg.on_mpi_failure: the
#    hook gets the message, returns, and the engine aborts.
# 2. demos/adi with a space whose Z window passes the memory limit (the
#    default, half the physical memory, and TILEHYBRID_MEM_LIMIT) is
#    refused at once with the sizes and the limit, before allocating (run
#    under a 4 GB address-space limit: allocating the 21 GB window instead
#    would fail with another message).
set -u
. tests/lib.sh
scratch cli_failure
P=$B/tests/mpi_failure

# fail NAME MODEL CALL K [VAR=VALUE...]: run mpi_failure at 3 processes with
# CALL failing on rank 1 after K good calls; stderr (Open MPI's banner
# stripped) in $T/err, status in $rc, seconds in $secs
fail() {
    name=$1 model=$2 call=$3 k=$4
    shift 4
    start=$(date +%s)
    timeout 60 $MPIEXEC -n 3 env TILEHYBRID_FAIL_CALL=$call TILEHYBRID_FAIL_RANK=1 \
        TILEHYBRID_FAIL_AFTER=$k TILEHYBRID_FAIL_MODEL=$model "$@" $P \
        > "$T/out" 2> "$T/err.raw" < /dev/null
    rc=$?
    secs=$(( $(date +%s) - start ))
    strip_launcher < "$T/err.raw" > "$T/err"
}

# failed_ok NAME CALL PATTERN: the run ended within the guard, non-zero, and
# stderr has "rank 1...: CALL failed" and PATTERN
failed_ok() {
    if [ $rc -eq 124 ]; then
        notok "$1: every rank exits (killed after 60 s: a rank waits forever)"
    elif [ $rc -eq 0 ]; then
        notok "$1: the job exits non-zero (status 0: did the call fail?)"
    elif ! grep -q "rank 1[,:].*$2[a-zA-Z_ ]* failed" "$T/err" || ! grep -q -e "$3" "$T/err"; then
        notok "$1: the message names $2, rank 1 and '$3'"
    else
        ok "$1: every rank gone in ${secs} s, status $rc, the message names the call and the rank"
        return
    fi
    diag < "$T/err"
}

if [ ! -x "$P" ]; then
    notok "$P is built (make check builds it)"
    done_testing
fi

for model in mpi fine funneled multiple; do
    for ck in "nonblocking MPI_Isend 1 tile [0-9]" "nonblocking MPI_Irecv 1 tile [0-9]" \
              "persistent MPI_Send_init 0 persistent send of" \
              "persistent MPI_Recv_init 0 persistent receive of" \
              "persistent MPI_Startall 1 tile [0-9]" \
              "persistent MPI_Request_free 0 in tile_plan_destroy()" \
              "persistent MPI_Waitall 1 tile [0-9]" \
              "persistent MPI_Allreduce 0 the plan.s creation" \
              "persistent MPI_Allreduce 4 the start of a run" \
              "persistent MPI_Allreduce 5 the outcome of a run" \
              "persistent MPI_Allgather 0 combining the reductions" \
              "persistent MPI_Alltoallw 0 in tile_gather()"; do
        set -- $ck
        kind=$1 call=$2 k=$3
        shift 3
        fail x $model $call $k TILEHYBRID_FAIL_MESSAGES=$kind
        failed_ok "$model model, $kind messages, $call #$((k + 1)) fails on rank 1 of 3" \
            $call "$*"
    done
done
for ck in "MPI_Psend_init 0 partitioned send of" "MPI_Precv_init 0 partitioned receive of" \
          "MPI_Pready 1 tile [0-9]" "MPI_Parrived 0 tile [0-9]" "MPI_Startall 1 partitioned" \
          "MPI_Waitall 1 partitioned" "MPI_Request_free 0 in tile_plan_destroy()"; do
    set -- $ck
    call=$1 k=$2
    shift 2
    fail x multiple $call $k TILEHYBRID_FAIL_MESSAGES=partitioned
    if [ $rc -eq 3 ]; then
        skip "multiple model, partitioned messages, $call fails" "this MPI has no MPI-4 partitioned communication"
        continue
    fi
    failed_ok "multiple model, partitioned messages, $call #$((k + 1)) fails on rank 1 of 3" \
        $call "$*"
done

# the user's policy: the hook gets the message (and does not print it
# again), returns, and the engine aborts
fail hook mpi MPI_Isend 1 TILEHYBRID_FAIL_HOOK=1 TILEHYBRID_FAIL_MESSAGES=nonblocking
failed_ok "cfg.on_mpi_failure, MPI_Isend fails on rank 1" MPI_Isend \
    "^mpi_failure hook on rank 1: tiling.h: rank 1: MPI_Isend failed"
if [ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q 'aborting the plan' "$T/err"; then
    notok "cfg.on_mpi_failure replaces the engine's own report"; diag < "$T/err"
else
    ok "cfg.on_mpi_failure replaces the engine's own report"
fi

# 2. the memory limit, before any allocation -------------------------------
# refused SECONDS NAME WANT ARGS...: adi at 2 processes under a 4 GB
# address-space limit exits 2 within SECONDS with a message matching WANT
refused() {
    secs=$1 name=$2 want=$3
    shift 3
    start=$(date +%s)
    ( ulimit -v 4000000 2>/dev/null
      exec timeout 60 $MPIEXEC -n 2 "$@" ) > "$T/out" 2> "$T/err.raw" < /dev/null
    rc=$?
    took=$(( $(date +%s) - start ))
    strip_launcher < "$T/err.raw" > "$T/err"
    if [ $rc -eq 2 ] && [ $took -le $secs ] && grep -q -e "$want" "$T/err"; then
        ok "$name: refused in ${took} s, exit 2, the message names the sizes and the limit"
    else
        notok "$name: exit $rc after ${took} s, want 2 within $secs s and '$want'"
        diag < "$T/err"
    fi
}
pages=$(getconf _PHYS_PAGES 2>/dev/null || echo 0)
psize=$(getconf PAGESIZE 2>/dev/null || echo 0)
if [ "$pages" -gt 0 ] && [ "$psize" -gt 0 ] &&
   [ $((pages / 1024 * psize / 2 / 1024)) -lt 26000000 ]; then
    refused 30 "adi --space 4x300000000x2 --grid 2x1 (a 21.6 GB Z window per rank)" \
        "needs 26400000713 bytes on this rank (a Z window of 3 planes of 900000003 points of 8 bytes), above its memory limit of [0-9]* bytes (half the physical memory" \
        $DEMODIR/adi --space 4x300000000x2 --grid 2x1 --tile-height 100   # the sizes above
else
    skip "adi --space 4x300000000x2 --grid 2x1 against half the physical memory" \
        "this machine has 52 GB or more (half of it holds the plan)"
fi
refused 30 "TILEHYBRID_MEM_LIMIT=100000000: adi --space 4x300000000x2 --grid 2x1" \
    "above its memory limit of 100000000 bytes (TILEHYBRID_MEM_LIMIT); lower the tile height" \
    env TILEHYBRID_MEM_LIMIT=100000000 $DEMODIR/adi --space 4x300000000x2 --grid 2x1
refused 30 "TILEHYBRID_MEM_LIMIT=100000: adi --space 40x30x2000 --verify (every plane)" \
    "(a Z window of 2001 planes of 651 points of 8 bytes), above its memory limit of 100000 bytes (TILEHYBRID_MEM_LIMIT); TILE_STORE_FULL keeps every plane" \
    env TILEHYBRID_MEM_LIMIT=100000 $DEMODIR/adi --space 40x30x2000 --verify --tile-height 100
refused 30 "TILEHYBRID_MEM_LIMIT=12x: not a number of bytes" \
    "TILEHYBRID_MEM_LIMIT = '12x': not a whole number of bytes >= 1" \
    env TILEHYBRID_MEM_LIMIT=12x $DEMODIR/adi --space 40x30x20
done_testing
