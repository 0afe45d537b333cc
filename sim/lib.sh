# sim/lib.sh -- shared helpers of the sim/*.sh scripts (sourced, not run).
#
# Settings read from the environment (sim/run.sh sets them):
#   SMPIRUN   SimGrid's launcher                        (smpirun)
#   SIMBIN    the SMPI build: demos/ and sim/ inside    (build/smpi)
#   RESULTS   where CSV files and figures go            (sim/results)
#   QUICK     1 for the reduced set of `make simulate-quick`
#
# Every simulation prints one JSON line (the demos' --json); the helpers
# read numbers out of it with sed, so the scripts need no JSON tool.
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

# model_cfg MODEL: the network model's options (sim/README.md explains them)
#   default     SMPI's default model: piecewise latency and bandwidth
#               factors calibrated on a real TCP cluster; MPI_Isend returns
#               at once and the transfer overlaps the computation
#   nonoverlap  CM02 (plain max-min bandwidth sharing, latency as in the
#               platform) and every MPI_Isend charges the sender's CPU the
#               papers' t_comm(x) = t_startup + x / B_sustained
#               (107 us + x / 10 MB/s): MPICH-1 over TCP did not overlap
#   bothends    nonoverlap, and the receiver pays the same t_comm(x) in
#               MPI_Recv/MPI_Wait (smpi/or): a blocking TCP receive copies
#               from the socket too.  A sensitivity check of experiment 1,
#               not a calibration
#   cm02        CM02 alone: nominal latency and bandwidth, transfers
#               overlap (the modern platform and the seismic grid, whose
#               numbers are already what an application sees)
model_cfg() {
    case $1 in
        default) echo "--cfg=network/model:SMPI" ;;
        nonoverlap) echo "--cfg=network/model:CM02 --cfg=smpi/ois:0:107e-6:1e-7" ;;
        bothends) echo "--cfg=network/model:CM02 --cfg=smpi/ois:0:107e-6:1e-7 --cfg=smpi/or:0:107e-6:1e-7" ;;
        cm02) echo "--cfg=network/model:CM02" ;;
        *) die "unknown network model '$1'" ;;
    esac
}

# jnum KEY < JSON: the number (or bare string) after "KEY": .
jnum() { sed -n "s/.*\"$1\": *\"\{0,1\}\([-+0-9a-zA-Z_.]*\)\"\{0,1\}.*/\1/p" | head -n 1; }

# jarr KEY < JSON: the flat array "KEY": [a, b, ...] as one value per line.
jarr() { sed -n "s/.*\"$1\": *\[\([^]]*\)\].*/\1/p" | head -n 1 | tr ',' '\n' | tr -d ' "'; }

say() { printf '%s\n' "$*"; }
die() { printf 'sim: %s\n' "$*" >&2; exit 1; }

# now: seconds since the epoch, with fractions
now() { date +%s.%N; }

# sim_json NP PLATFORM HOSTFILE MODEL PROGRAM ARGS...: simulate PROGRAM on NP
# ranks and print its JSON line followed by " <real seconds>"; stop if it
# fails or prints no JSON.
sim_json() {
    sj_np=$1 sj_plat=$2 sj_hosts=$3 sj_model=$4; shift 4
    sj_t0=$(now)
    # shellcheck disable=SC2046
    sj_out=$($SMPIRUN -np "$sj_np" -platform "$sj_plat" -hostfile "$sj_hosts" \
                 $SIM_CFG $(model_cfg "$sj_model") ${SIM_EXTRA_CFG:-} "$@" --json \
                 2>"$RESULTS/.stderr") ||
        die "failed: $SMPIRUN -np $sj_np -platform $sj_plat ... $* ($(tail -n 3 "$RESULTS/.stderr"))"
    sj_t1=$(now)
    sj_line=$(printf '%s\n' "$sj_out" | grep '^{' | tail -n 1)
    [ -n "$sj_line" ] || die "no JSON from: $* ($(tail -n 3 "$RESULTS/.stderr"))"
    printf '%s %s\n' "$sj_line" "$(echo "$sj_t1 $sj_t0" | awk '{ printf "%.2f", $1 - $2 }')"
}
