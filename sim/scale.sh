#!/bin/sh
# sim/scale.sh -- experiment 4: ADI and DE on 256, 1,024 and 4,096 simulated
# processes of a modern cluster (sim/platforms/modern.xml), weak and strong
# scaling, beside the pipeline model's prediction
#
#   T(z) = (Z/z + sum_i (P_i - 1)) * (z * t_plane + t_msg(z))
#
# with t_plane = the points of a block's plane x t_comp and t_msg(z) = the
# route's latency + the bytes a process sends per tile / the link bandwidth
# (every message priced as an inter-node one), and the real time each
# simulation took.  One latency per step, where topology.h's time policy
# (experiment 5) charges t_startup per message: on this cluster a step's
# messages go out together and their latencies overlap (CM02, sending
# costs no CPU), while the policy's t_startup is the papers' CPU cost of
# each send (journal eq. 5), paid one message after the other.
#   weak    a 32 x 32 block per process: 512^2, 1024^2, 2048^2 x 2048
#   strong  1024 x 1024 x 2048 on every count
# (the demos compute every point for real, so the real time grows with the
# points: 64 x 64 blocks took 66 s per 256-rank run here)
#   grids   the 1,024-rank case of issue 15: 64 x 1024 x 2048, the
#           volume-optimal grid (topology.h) against 32x32
# Tile height 64; the grid is topology.h's (square spaces: the square grid).
# CM02 network model (no TCP calibration factors; transfers overlap).
#   sim-scale.csv  kernel,scaling,procs,space,grid,tile_height,seconds,
#                  predicted,bytes_total,messages_total,real_seconds
# Ranks fill the 64-core nodes in order (modern.hosts), as a block
# distribution of Slurm would.
# QUICK=1: ADI on 64 and 256 processes (strong: 512 x 512 x 2048), and the
# grid check at 256 (16 x 512 x 2048).
. sim/lib.sh
PLAT=$PLATFORMS/modern.xml
HOSTS=$PLATFORMS/modern.hosts
out=$RESULTS/sim-scale.csv
Z=2048 ZT=64
T_COMP=6.4e-9 LAT=1e-6 BW=12.5e9
# collectives that scale in the simulator (the run's end: reductions,
# gathers); they are outside the timed pipeline.  (smpi/allreduce:rab1
# spins forever in SimGrid 3.32 at 256 ranks.)
SIM_EXTRA_CFG="--cfg=smpi/reduce:binomial --cfg=smpi/gather:ompi_binomial"
export SIM_EXTRA_CFG
echo "kernel,scaling,procs,space,grid,tile_height,seconds,predicted,bytes_total,messages_total,real_seconds" > "$out"

# predict D1 D2 X1 X2 P1 P2: the pipeline model's time (seconds)
predict() {
    awk -v d1="$1" -v d2="$2" -v x1="$3" -v x2="$4" -v p1="$5" -v p2="$6" -v Z="$Z" -v z="$ZT" \
        -v tc="$T_COMP" -v lat="$LAT" -v bw="$BW" 'BEGIN {
        c1 = int((x1 + p1 - 1) / p1); c2 = int((x2 + p2 - 1) / p2)
        bytes = 8 * z * ((p1 > 1) * d1 * c2 + (p2 > 1) * d2 * c1)
        tmsg = (bytes > 0) ? lat + bytes / bw : 0
        steps = int((Z + z - 1) / z) + (p1 - 1) + (p2 - 1)
        printf "%.6f", steps * (z * c1 * c2 * tc + tmsg) }'
}

# one KERNEL SCALING NP SPACE [GRID]
one() {
    r=$(sim_json "$3" "$PLAT" "$HOSTS" cm02 "$SIMBIN/demos/$1" --space "$4" \
            --tile-height "$ZT" --grid "${5:-comm}" --no-progress)
    g=$(echo "$r" | jarr grid | paste -sd x -)
    s=$(echo "$r" | jnum seconds)
    if [ "$1" = adi ]; then d=1; else d=3; fi
    x1=${4%%x*} rest=${4#*x}; x2=${rest%%x*}
    pm=$(predict $d $d "$x1" "$x2" "${g%x*}" "${g#*x}")
    echo "$1,$2,$3,$4,$g,$ZT,$s,$pm,$(echo "$r" | jnum bytes_sent_total),$(echo "$r" | jnum messages_total),${r##* }" >> "$out"
    say "  $1 $2 P=$3 $4 grid $g: $s s simulated, model $pm s, ${r##* } s real"
}

# same_as_strong: the last weak run is also a point of the strong series
same_as_strong() { tail -n 1 "$out" | sed 's/,weak,/,strong,/' >> "$out"; }

if [ "$QUICK" = 1 ]; then
    one adi weak 64 256x256x$Z; one adi weak 256 512x512x$Z; same_as_strong
    one adi strong 64 512x512x$Z
    one adi grids 256 16x512x$Z; one adi grids 256 16x512x$Z 16x16
    exit 0
fi
for k in adi de; do
    for np in 256 1024 4096; do
        case $np in 256) w=512 ;; 1024) w=1024 ;; 4096) w=2048 ;; esac
        one $k weak $np ${w}x${w}x$Z
        if [ $np = 1024 ]; then same_as_strong; else one $k strong $np 1024x1024x$Z; fi
    done
done
one adi grids 1024 64x1024x$Z; one adi grids 1024 64x1024x$Z 32x32
