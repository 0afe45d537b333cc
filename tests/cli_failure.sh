#!/bin/sh
# tests/cli_failure.sh -- no hang, ever: an MPI call that fails on one rank,
# and a plan larger than the memory limit.
#
# 1. $B/tests/mpi_failure (tests/mpi_failure.c, linked with the PMPI
#    wrappers of tests/pmpi_failure.c) at 3 processes, in every model, with
#    one call of the engine made to fail on rank 1 (MPI_Isend, MPI_Irecv
#    with nonblocking face messages; MPI_Send_init, MPI_Recv_init at the
#    plan's creation, MPI_Startall in the run, MPI_Request_free at its
#    destruction with persistent ones (the default); MPI_Waitall in the run
#    (MPI_Testall: TILEHYBRID_WAIT=yield, else spin);
#    MPI_Allreduce in the plan's creation, at the start and at the end of
#    the run; the reduction's MPI_Allgather; tile_gather's MPI_Alltoallw
#    after the run; in the creation, the MPI_Comm_dup, MPI_Cart_create,
#    the agreement's MPI_Bcast and balance.h's ping-pong; with MPI-4, the
#    multiple model's partitioned messages: MPI_Psend_init, MPI_Precv_init,
#    MPI_Pready, MPI_Parrived; the demos' own calls: adi's, sw's reduction,
#    demos/scatter's and scatterlb.h's data movers under it, linked with
#    the same wrappers as $B/tests/*_failure): every rank must be
#    gone within seconds (a 60 s guard; the failure of a rank would
#    otherwise leave the others waiting forever), the job's status must be
#    non-zero, and stderr must name the call and the rank (and the tile,
#    for the face messages).  Then the same with cfg.on_mpi_failure: the
#    hook gets the message, returns, and the engine aborts.
# 2. demos/adi with a space whose Z window passes the memory limit (the
#    default, half the physical memory shared by the ranks on the node,
#    and TILEHYBRID_MEM_LIMIT) is
#    refused at once with the sizes and the limit, before allocating (run
#    under a 4 GB address-space limit: allocating the 21 GB window instead
#    would fail with another message).
set -u
. tests/lib.sh
scratch cli_failure
# the waits as MPI calls them at 3 processes on a smaller machine too:
# TILEHYBRID_WAIT=auto would poll with MPI_Testall there instead of the
# MPI_Waitall counted below (the case of a wait that yields: its own)
TILEHYBRID_WAIT=spin
export TILEHYBRID_WAIT
P=$B/tests/mpi_failure

# fail NAME MODEL CALL K [VAR=VALUE...]: run mpi_failure at 3 processes with
# CALL failing on rank 1 after K good calls; stderr (Open MPI's banner
# stripped) in $T/err, status in $rc, seconds in $secs
fail() {
    name=$1 model=$2 call=$3 k=$4
    shift 4
    run_job 3 env TILEHYBRID_FAIL_CALL=$call TILEHYBRID_FAIL_RANK=1 \
        TILEHYBRID_FAIL_AFTER=$k TILEHYBRID_FAIL_MODEL=$model "$@" $P
}

# failed_on1 NAME CALL PATTERN: lib.sh's failed_ok, stderr having "rank
# 1...: CALL failed" and PATTERN
failed_on1() {
    failed_ok "$1" "$2, rank 1 and '$3'" "rank 1[,:].*$2[a-zA-Z_ ]* failed" "$3"
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
        pick 4 || continue      # the quick tier: a sample (tests/lib.sh)
        set -- $ck
        kind=$1 call=$2 k=$3
        shift 3
        # the funneled model's balancer agrees on its policy at the plan's
        # creation (balance.h's bal_policy_setup_ex): one MPI_Allreduce more
        # before the run's
        [ $model = funneled ] && [ $call = MPI_Allreduce ] && [ $k -ge 4 ] && k=$((k + 1))
        fail x $model $call $k TILEHYBRID_FAIL_MESSAGES=$kind
        failed_on1 "$model model, $kind messages, $call #$((k + 1)) fails on rank 1 of 3" \
            $call "$*"
    done
done
for ck in "MPI_Psend_init 0 partitioned send of" "MPI_Precv_init 0 partitioned receive of" \
          "MPI_Pready 1 face message [0-9]" "MPI_Parrived 0 tile [0-9]" "MPI_Startall 1 partitioned" \
          "MPI_Waitall 1 partitioned" "MPI_Request_free 0 in tile_plan_destroy()"; do
    set -- $ck
    call=$1 k=$2
    shift 2
    fail x multiple $call $k TILEHYBRID_FAIL_MESSAGES=partitioned
    if [ $rc -eq 3 ]; then
        skip "multiple model, partitioned messages, $call fails" "this MPI has no MPI-4 partitioned communication"
        continue
    fi
    failed_on1 "multiple model, partitioned messages, $call #$((k + 1)) fails on rank 1 of 3" \
        $call "$*"
done

# a wait that yields (TILEHYBRID_WAIT=yield: MPI_Testall polls, each a
# call; the agreements' MPI_Iallreduce completes by MPI_Test) fails on
# rank 1: named, with the tile
fail x mpi MPI_Testall 0 TILEHYBRID_FAIL_MESSAGES=persistent TILEHYBRID_WAIT=yield
failed_on1 "a wait that yields (TILEHYBRID_WAIT=yield): its MPI_Testall fails on rank 1 of 3" \
    MPI_Testall "completing [0-9]* face message.* of tile [0-9]"

# the reduction's two collectives, each named alone (the message said
# "MPI_Allreduce or MPI_Allgather"): the sum's MPI_Allreduce is the run's
# seventh (after the creation's, the start's and the outcome's)
fail x mpi MPI_Allgather 0 TILEHYBRID_FAIL_MESSAGES=persistent
failed_on1 "the reduction's MPI_Allgather fails on rank 1 of 3: named alone" MPI_Allgather \
    "rank 1: MPI_Allgather failed while combining the reductions at the end of a run (.*nternal"
fail x mpi MPI_Allreduce 6 TILEHYBRID_FAIL_MESSAGES=persistent
failed_on1 "the reduction's MPI_Allreduce fails on rank 1 of 3: named alone" MPI_Allreduce \
    "rank 1: MPI_Allreduce failed while combining the reductions at the end of a run (.*nternal"

# the calls of the plan's creation outside the run, each named with MPI's
# own error (the wrappers return MPI_ERR_INTERN): the duplicate of comm, the
# grid's MPI_Cart_create, the agreement's MPI_Bcast (rank 0 has a bad tile
# height, so the agreement broadcasts its message), and balance.h's
# ping-pong (funneled, BAL_POLICY_CONSTANT: the network is measured, on the
# pair (0, 1); rank 1's partner would wait in MPI_Recv forever)
unset TILEHYBRID_BANDWIDTH TILEHYBRID_TSTARTUP
fail x mpi MPI_Comm_dup 0
failed_on1 "MPI_Comm_dup of tile_plan_create fails on rank 1 of 3" MPI_Comm_dup \
    "rank 1: MPI_Comm_dup failed in tile_plan_create(), duplicating comm (.*nternal"
fail x mpi MPI_Cart_create 0
failed_on1 "MPI_Cart_create of the grid fails on rank 1 of 3" MPI_Cart_create \
    "rank 1: MPI_Cart_create failed in topology.h's topo_nest_cart_create().*(.*nternal"
fail x mpi MPI_Bcast 0 TILEHYBRID_FAIL_BAD=1
failed_on1 "MPI_Bcast of the creation's agreement fails on rank 1 of 3" MPI_Bcast \
    "rank 1: MPI_Bcast failed in tilehybrid_agree().*(.*nternal"
for ck in "MPI_Sendrecv 0" "MPI_Send 0" "MPI_Recv 0" "MPI_Recv 5"; do
    set -- $ck
    fail x funneled $1 $2 TILEHYBRID_FAIL_BALANCE=1
    failed_on1 "funneled model, BAL_POLICY_CONSTANT: $1 #$(($2 + 1)) of the balancing's ping-pong fails on rank 1 of 3" \
        $1 "rank 1: $1 failed in balance.h's bal_policy_setup_ex().*(.*nternal"
done

# balance.h's ping-pong names MPI_Comm_size itself (it said MPI_Comm_rank
# for either): call #5 of rank 1 is the pair's
fail x funneled MPI_Comm_size 4 TILEHYBRID_FAIL_BALANCE=1
failed_on1 "funneled model, BAL_POLICY_CONSTANT: MPI_Comm_size of the balancing's ping-pong fails on rank 1 of 3" \
    MPI_Comm_size "rank 1: MPI_Comm_size failed in balance.h's bal_policy_setup_ex().*(.*nternal"

# tile_mpi_check() names the call it is given (it said "an MPI call")
fail x mpi none 0 TILEHYBRID_FAIL_CHECK=1
failed_on1 "tile_mpi_check() of a user's call on rank 1 of 3" MPI_Example \
    "rank 1: MPI_Example failed in a run"

# one_message CALL DOING [VAR=VALUE...]: CALL fails on rank 2 of 3, the
# last, which only receives, one message per tile: the message names it in
# the singular (it said "1 face messages")
one_message() {
    call=$1 doing=$2
    shift 2
    fail x mpi $call 1 TILEHYBRID_FAIL_RANK=2 "$@"
    if [ $rc -ne 0 ] && [ $rc -ne 124 ] &&
       grep -q "rank 2: $call failed $doing 1 face message of tile [0-9]" "$T/err"; then
        ok "$call of one message fails on rank 2 of 3: gone in ${secs} s, '1 face message'"
    else
        notok "$call of one message fails on rank 2 of 3: status $rc, '1 face message'"
        diag < "$T/err"
    fi
}
one_message MPI_Waitall completing
# (rank 2 starts one receive per tile with persistent messages)
one_message MPI_Startall starting TILEHYBRID_FAIL_MESSAGES=persistent

# the demos' own calls on the plan's communicator (it returns errors):
# demos/adi linked with the same wrappers ($B/tests/adi_failure)
for call in MPI_Reduce MPI_Gather MPI_Bcast; do
    if [ ! -x "$B/tests/adi_failure" ]; then
        notok "$B/tests/adi_failure is built (make check builds it)"
        break
    fi
    run_job 3 env TILEHYBRID_FAIL_CALL=$call TILEHYBRID_FAIL_RANK=1 \
        $B/tests/adi_failure --space 24x24x8
    failed_on1 "demos/adi: its own $call on the plan's communicator fails on rank 1 of 3" $call \
        "^adi: rank 1: $call failed .*(.*nternal.*); aborting the job"
done
# demo_fail PROGRAM CALL ARG...: the first CALL fails on rank 1 of 3 in
# $B/tests/PROGRAM ARG... (a demo linked with the wrappers)
demo_fail() {
    prog=$1 call=$2
    shift 2
    run_job 3 env TILEHYBRID_FAIL_CALL=$call TILEHYBRID_FAIL_RANK=1 $B/tests/$prog "$@"
}
# the agreement on the command line (demo_agree, before any plan): rank 1
# returned 1 alone and the others waited in the collective for ever
if [ -x "$B/tests/adi_failure" ]; then
    # topology.h's check of comm names the one call (it said
    # "MPI_Comm_test_inter or MPI_Comm_size")
    demo_fail adi_failure MPI_Comm_test_inter --space 24x24x8
    failed_on1 "demos/adi: MPI_Comm_test_inter of the grid's creation fails on rank 1 of 3" \
        MPI_Comm_test_inter "^tilehybrid: rank 1: MPI_Comm_test_inter failed in topology.h's topo_nest_cart_create() (.*nternal.*); aborting the job"
    demo_fail adi_failure MPI_Allreduce --space 24x24x8
    failed_on1 "demos/adi: the agreement on the command line (demo_agree) fails on rank 1 of 3" \
        MPI_Allreduce "^tilehybrid: rank 1: MPI_Allreduce failed in adi's agreement on the command line (demo_agree) (.*nternal.*); aborting the job"
    # the network's ping-pong for the model's tile height (no
    # TILEHYBRID_BANDWIDTH): the call by name with MPI's own text (it said
    # "an MPI call of balance.h" and MPI_ERR_OTHER's text)
    for call in MPI_Sendrecv MPI_Send MPI_Recv; do
        demo_fail adi_failure $call --space 24x24x48
        failed_on1 "demos/adi: $call of the tile height's network ping-pong fails on rank 1 of 3" \
            $call "^tiling.h: rank 1: $call failed in balance.h's bal_calibrate_comm_all_ex(), measuring the network for the tile height (.*nternal.*); aborting the job"
    done
fi

# demos/ssor --output: MPI_File_open fails on rank 1 only (the others
# opened the file): they would wait in the collective MPI_File_close for
# ever; rank 1 names the call, the others abort
if [ -x "$B/tests/ssor_failure" ]; then
    demo_fail ssor_failure MPI_File_open --space 12x12x12 --max-iter 2 --output "$T/u.bin"
    failed_on1 "demos/ssor: MPI_File_open of --output fails on rank 1 of 3 only" MPI_File_open \
        "^ssor: rank 1: MPI_File_open failed writing .*; the file is incomplete$"
else
    notok "$B/tests/ssor_failure is built (make check builds it)"
fi

# demos/sw's best score is a declared MAXLOC reduction (it had its own
# MPI_Gather of per-thread bests): the engine's MPI_Allgather combining it
# fails on rank 1, which names the call with MPI's text and ends the job
if [ -x "$B/tests/sw_failure" ]; then
    demo_fail sw_failure MPI_Allgather --random 40,30
    failed_on1 "demos/sw: the MPI_Allgather combining its best score fails on rank 1 of 3" \
        MPI_Allgather "^tiling.h: rank 1: MPI_Allgather failed while combining the reductions at the end of a run (.*nternal.*); aborting the job"
else
    notok "$B/tests/sw_failure is built (make check builds it)"
fi
# demos/p2p's corner feedback, its own point-to-point calls on the plan's
# communicator between runs: the last rank's MPI_Send, the first rank's
# MPI_Recv (the other would wait for ever)
if [ -x "$B/tests/p2p_failure" ]; then
    for ck in "MPI_Send 2 sending the corner a\[m-1\]\[n-1\] to the rank of a\[0\]\[0\]" \
              "MPI_Recv 0 receiving the corner a\[m-1\]\[n-1\] from rank 2"; do
        set -- $ck
        call=$1 r=$2
        shift 2
        run_job 3 env TILEHYBRID_FAIL_CALL=$call TILEHYBRID_FAIL_RANK=$r \
            $B/tests/p2p_failure --size 40,30 --tile-height 4
        failed_ok "demos/p2p: the corner's $call fails on rank $r of 3" "$call, rank $r" \
            "^p2p: rank $r: $call failed $* (.*nternal.*); aborting the job"
    done
else
    notok "$B/tests/p2p_failure is built (make check builds it)"
fi
# demos/scatter (scatterlb.h's data movers return SLB_ERR_MPI on the failing
# rank alone: the demo must end the job; it waited forever, and said
# "scatter: an MPI call failed" or "MPI_Allreduce failed" without MPI's text)
# scatter_case CALL K WANT: CALL #K+1 fails on rank 1 of 3
# scatter_case CALL K WANT 4: on 4 ranks, --slowdown 1,1,1,1
scatter_case() {
    call=$1 k=$2 want=$3 np=${4:-3}
    run_job $np env TILEHYBRID_FAIL_CALL=$call TILEHYBRID_FAIL_RANK=1 \
        TILEHYBRID_FAIL_AFTER=$k $B/tests/scatter_failure --items 3000 \
        --slowdown "$([ $np -eq 4 ] && echo 1,1,1,1 || echo 1)"
    failed_on1 "demos/scatter: $call #$((k + 1)) fails on rank 1 of $np" $call "$want"
}
if [ -x "$B/tests/scatter_failure" ]; then
    scatter_case MPI_Scatterv 0 \
        "^demos/scatter: rank 1: MPI_Scatterv failed in slb_plan_scatterv(), the balanced scatter (.*nternal.*); aborting the job"
    scatter_case MPI_Allreduce 0 \
        "^tilehybrid: rank 1: MPI_Allreduce failed in demos/scatter's agreement on the command line (.*nternal.*); aborting the job"
    scatter_case MPI_Scatter 0 \
        "^demos/scatter: rank 1: MPI_Scatter failed in the uniform scatter (.*nternal.*); aborting the job"
    scatter_case MPI_Gather 0 \
        "^demos/scatter: rank 1: MPI_Gather failed gathering every rank's slowdown (.*nternal.*); aborting the job"
    # scatterlb.h's calibration names the one call that failed (it said
    # "MPI_Send or MPI_Recv"): rank 1 receives first, then sends back
    scatter_case MPI_Recv 0 \
        "^tilehybrid: rank 1: MPI_Recv failed in scatterlb.h's calibration's transfers between the root and a rank (.*nternal.*); aborting the job"
    scatter_case MPI_Send 0 \
        "^tilehybrid: rank 1: MPI_Send failed in scatterlb.h's calibration's transfers between the root and a rank (.*nternal.*); aborting the job"
    # local calls, one name each (they said "MPI_Comm_size or MPI_Comm_rank";
    # the agreed MPI_Type_size said "an MPI call failed (argument '')"), and
    # the plan's second MPI_Type_size: the failing rank left the collective
    # MPI_Comm_split to the others, who waited for ever (4 ranks: the
    # bandwidth order differs from the ranks' there, so the plan splits)
    scatter_case MPI_Comm_size 1 \
        "^tilehybrid: rank 1: MPI_Comm_size failed in scatterlb.h's calibration, on comm (.*nternal.*); aborting the job"
    scatter_case MPI_Comm_size 2 \
        "^tilehybrid: rank 1: MPI_Comm_size failed in scatterlb.h's plan creation, on comm (.*nternal.*); aborting the job"
    scatter_case MPI_Type_size 0 \
        "^demos/scatter: rank 1: MPI_Type_size failed in scatterlb.h's calibration (.*nternal.*)$"
    scatter_case MPI_Type_size 1 \
        "^demos/scatter: rank 1: MPI_Type_size failed in scatterlb.h's plan (.*nternal.*)$"
    scatter_case MPI_Type_size 2 \
        "^demos/scatter: rank 1: MPI_Type_size failed in scatterlb.h's plan (.*nternal.*)$" 4
else
    notok "$B/tests/scatter_failure is built (make check builds it)"
fi

# the user's policy: the hook gets the message (and does not print it
# again), returns, and the engine aborts.
# hook_case WHOSE CALL K WANT [VAR=VALUE...]: CALL #K+1 fails on rank 1 with
# cfg.on_mpi_failure set; its message (WANT) reaches the hook, not stderr
hook_case() {
    whose=$1 call=$2 k=$3 want=$4
    shift 4
    fail hook mpi $call $k TILEHYBRID_FAIL_HOOK=1 "$@"
    failed_on1 "cfg.on_mpi_failure, $call of $whose fails on rank 1" $call "$want"
    if [ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q '; aborting the job' "$T/err"; then
        notok "cfg.on_mpi_failure replaces $whose's own report"; diag < "$T/err"
    else
        ok "cfg.on_mpi_failure replaces $whose's own report"
    fi
}
hook_case "the engine" MPI_Isend 1 \
    "^mpi_failure hook on rank 1: tiling.h: rank 1: MPI_Isend failed" \
    TILEHYBRID_FAIL_MESSAGES=nonblocking
# topology.h's own failure path (tilehybrid_mpi_failed) during the plan's
# creation takes the plan's hook too (tile_plan_create lends it)
hook_case topology.h MPI_Cart_create 0 \
    "^mpi_failure hook on rank 1: tilehybrid: rank 1: MPI_Cart_create failed in topology.h's topo_nest_cart_create()"

# 2. the memory limit, before any allocation -------------------------------
# refused SECONDS NAME WANT ARGS...: adi at $NP processes (default 2) under
# a 4 GB address-space limit exits 2 with a message matching WANT (SECONDS:
# what it took on an idle machine, said in the name; not asserted, since a
# loaded machine may take longer: the address-space limit is what shows
# that nothing was allocated)
refused() {
    secs=$1 name=$2 want=$3
    shift 3
    start=$(date +%s)
    ( ulimit -v 4000000 2>/dev/null
      exec timeout -k 10 60 $MPIEXEC -n "${NP:-2}" "$@" ) > "$T/out" 2> "$T/err.raw" < /dev/null
    rc=$?
    took=$(( $(date +%s) - start ))
    strip_launcher < "$T/err.raw" > "$T/err"
    if [ $rc -eq 2 ] && grep -q -e "$want" "$T/err"; then
        ok "$name: refused in ${took} s, exit 2, the message names the sizes and the limit"
    else
        notok "$name: exit $rc after ${took} s, want 2 and '$want'"
        diag < "$T/err"
    fi
}
pages=$(getconf _PHYS_PAGES 2>/dev/null || echo 0)
psize=$(getconf PAGESIZE 2>/dev/null || echo 0)
if [ "$pages" -gt 0 ] && [ "$psize" -gt 0 ] &&
   [ $((pages * psize / 2)) -lt 26400001865 ]; then
    refused 30 "adi --space 4x300000000x2 --grid 2x1 (a 21.6 GB Z window per rank)" \
        "needs 26400001865 bytes on this rank (a Z window of 3 planes of 900000003 points of 8 bytes), above its memory limit of [0-9]* bytes (half the physical memory" \
        $DEMODIR/adi --space 4x300000000x2 --grid 2x1 --tile-height 100   # the sizes above
else
    skip "adi --space 4x300000000x2 --grid 2x1 against half the physical memory" \
        "this machine has 52 GB or more (half of it holds the plan)"
fi
# the default limit is the node's: 4 ranks of 9.6 GB each on this node pass
# half its memory together (where each stays under it, the check per rank
# let them through)
if [ "$pages" -gt 0 ] && [ "$psize" -gt 0 ] &&
   [ $((pages * psize / 2)) -lt 38400007364 ]; then
    NP=4 refused 60 "adi --space 4x150000000x2 --grid 4x1 at 4 ranks on one node (9.6 GB each)" \
        "needs 9600001841 bytes on this rank .*, above its memory limit of [0-9]* bytes (half the physical memory, shared by the 4 ranks on this node: cfg.mem_limit, TILEHYBRID_MEM_LIMIT); lower the tile height or use more nodes" \
        $DEMODIR/adi --space 4x150000000x2 --grid 4x1 --tile-height 100
else
    skip "adi --space 4x150000000x2 --grid 4x1 at 4 ranks against the node's memory" \
        "half this machine's memory holds 4 x 9.6 GB"
fi
# Z = 1: the tile height cannot be lowered (and is not suggested)
refused 30 "TILEHYBRID_MEM_LIMIT=100000000: adi --space 100000x100000x1 (Z = 1)" \
    "above its memory limit of 100000000 bytes (TILEHYBRID_MEM_LIMIT); use more processes$" \
    env TILEHYBRID_MEM_LIMIT=100000000 $DEMODIR/adi --space 100000x100000x1
refused 30 "TILEHYBRID_MEM_LIMIT=100000000: adi --space 4x300000000x2 --grid 2x1" \
    "above its memory limit of 100000000 bytes (TILEHYBRID_MEM_LIMIT); lower the tile height" \
    env TILEHYBRID_MEM_LIMIT=100000000 $DEMODIR/adi --space 4x300000000x2 --grid 2x1 --tile-height 100
# (the demo checks --verify's whole space itself, per node, before the plan)
refused 30 "TILEHYBRID_MEM_LIMIT=100000: adi --space 40x30x2000 --verify (every plane)" \
    "^adi: rank 0: --verify keeps every plane: X1 \\* X2 \\* Z = 40 \\* 30 \\* 2000 points of 8 bytes, at least 9600000 bytes per process on 2 processes, more than its memory limit of 100000 bytes (TILEHYBRID_MEM_LIMIT); verify a smaller --space" \
    env TILEHYBRID_MEM_LIMIT=100000 $DEMODIR/adi --space 40x30x2000 --verify --tile-height 100
refused 30 "TILEHYBRID_MEM_LIMIT=12x: not a number of bytes" \
    "TILEHYBRID_MEM_LIMIT = '12x': not a whole number of bytes >= 1" \
    env TILEHYBRID_MEM_LIMIT=12x $DEMODIR/adi --space 40x30x20
refused 30 "TILEHYBRID_MEM_LIMIT=99999999999999999999: out of range" \
    "TILEHYBRID_MEM_LIMIT = '99999999999999999999': out of range (1 to 9223372036854775807 bytes)" \
    env TILEHYBRID_MEM_LIMIT=99999999999999999999 $DEMODIR/adi --space 40x30x20
done_testing
