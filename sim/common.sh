# sim/common.sh -- functions shared by sim/lib.sh (the experiments) and
# tests/cli_simulate.sh (sourced, not run).  Definitions only: no settings,
# no directories, no `set`, so that a test can source it as it is.

# model_cfg MODEL: print the network model's SimGrid options (sim/README.md
# explains them); an unknown MODEL: a message on stderr and status 1.  Call
# it on its own (opts=$(model_cfg "$m") || die ...), never inside a longer
# command's $(...), where its status is lost
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
        *) printf "sim: unknown network model '%s' (default, nonoverlap, bothends, cm02)\n" "$1" >&2
           return 1 ;;
    esac
}

# jnum KEY < JSON: the number (or bare string) after "KEY": .
jnum() { sed -n "s/.*\"$1\": *\"\{0,1\}\([-+0-9a-zA-Z_.]*\)\"\{0,1\}.*/\1/p" | head -n 1; }

# jarr KEY < JSON: the flat array "KEY": [a, b, ...] as one value per line.
jarr() { sed -n "s/.*\"$1\": *\[\([^]]*\)\].*/\1/p" | head -n 1 | tr ',' '\n' | tr -d ' "'; }

say() { printf '%s\n' "$*"; }
die() { printf 'sim: %s\n' "$*" >&2; exit 1; }
