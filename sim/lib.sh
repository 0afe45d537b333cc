# sim/lib.sh -- shared helpers of the sim/*.sh scripts (sourced, not run).
#
# Settings read from the environment (sim/run.sh sets them):
#   SMPIRUN   SimGrid's launcher                        (smpirun)
#   SIMBIN    the SMPI build: demos/ and sim/ inside    (build/smpi)
#   RESULTS   where CSV files and figures go            (sim/results)
#   QUICK     1 for the reduced set of `make simulate-quick`
#
# Every simulation prints one JSON line (the demos' --json); the helpers
# read numbers out of it with sed, so the scripts need no JSON tool.  The
# functions without settings (model_cfg, jnum, jarr, say, die) are in
# sim/common.sh, which tests/cli_simulate.sh sources too.
set -eu
SMPIRUN=${SMPIRUN:-smpirun}
SIMBIN=${SIMBIN:-build/smpi}
RESULTS=${RESULTS:-sim/results}
QUICK=${QUICK:-0}
PLATFORMS=sim/platforms
mkdir -p "$RESULTS"

# Every run: computation charged by tiling.h's hook (points x TILE_SIM_FLOPS
# flops on the host's speed), never timed; SimGrid's chatter off.
SIM_CFG="--cfg=smpi/simulate-computation:no --log=root.thresh:error --log=smpi.thresh:error"

. sim/common.sh

# now: seconds since the epoch, with fractions
now() { date +%s.%N; }

# sim_json NP PLATFORM HOSTFILE MODEL PROGRAM ARGS...: simulate PROGRAM on NP
# ranks and print its JSON line followed by " <real seconds>"; stop if it
# fails or prints no JSON.
sim_json() {
    sj_np=$1 sj_plat=$2 sj_hosts=$3 sj_model=$4; shift 4
    sj_net=$(model_cfg "$sj_model") || die "no such network model '$sj_model' (simulating $*)"
    sj_t0=$(now)
    # shellcheck disable=SC2086
    sj_out=$($SMPIRUN -np "$sj_np" -platform "$sj_plat" -hostfile "$sj_hosts" \
                 $SIM_CFG $sj_net ${SIM_EXTRA_CFG:-} "$@" --json \
                 2>"$RESULTS/.stderr") ||
        die "failed: $SMPIRUN -np $sj_np -platform $sj_plat ... $* ($(tail -n 3 "$RESULTS/.stderr"))"
    sj_t1=$(now)
    sj_line=$(printf '%s\n' "$sj_out" | grep '^{' | tail -n 1)
    [ -n "$sj_line" ] || die "no JSON from: $* ($(tail -n 3 "$RESULTS/.stderr"))"
    printf '%s %s\n' "$sj_line" "$(echo "$sj_t1 $sj_t0" | awk '{ printf "%.2f", $1 - $2 }')"
}
