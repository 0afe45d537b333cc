#!/bin/sh
# sim/policy.sh -- experiment 5: the grid policies of topology.h against
# simulation.  The volume policy (TOPO_POLICY_COMM, Lemma 1) minimises the
# bytes a process sends; the time policy (TOPO_POLICY_TIME, `tilectl topo
# --policy time`) minimises the pipeline model's predicted time
#
#   T = (ceil(Z/z) + sum_i (P_i - 1)) * (z t_comp prod c_j + m t_startup
#                                        + z elem_bytes S / bandwidth)
#
# (fill steps, messages and volume at the tile height).  Two parts:
#   scale   the 1,024-rank case of issue 15 on the modern cluster (CM02,
#           transfers overlap): ADI 64 x 1024 x 2048, tile height 64, EVERY
#           2-D grid (1x1024 ... 64x16) simulated beside its prediction;
#           the volume policy picks 8x128, the time policy 32x32.  The same
#           for DE (widths 3, 3) on the grids whose blocks hold 3 layers
#           (tiling.h refuses the others): 8x128 and 16x64.
#   papers  the papers' cluster (16 nodes, FastEthernet, "nonoverlap": the
#           sender pays t_comm, the papers' own model), ADI X1 x 256 x 16384
#           at 16 processes and tile heights 25, 50, 100: the time policy's
#           grid and the volume policy's, each simulated (one run when they
#           agree).
# The cost models given to the time policy are the platforms' own numbers
# (sim/cluster-platform.sh): modern t_comp 6.4 ns, t_startup 1 us (two
# links of 0.5 us), 12.5 GB/s; papers' t_comp 288 ns, t_startup 107 us,
# 10 MB/s (tilectl's defaults).  Doubles (8 bytes).
#   sim-policy.csv  part,kernel,procs,space,tile_height,grid,choice,
#                   predicted,seconds,bytes_total,messages_total,real_seconds
#                   (choice: time, comm, time+comm, or - for another grid)
# QUICK=1: scale at 256 ranks on 16 x 512 x 2048 (four grids), papers on
# 64 x 256 x 4096 at tile heights 25 and 100.
. sim/lib.sh
out=$RESULTS/sim-policy.csv
MODERN="--tcomp 6.4e-9 --tstartup 1e-6 --bandwidth 12.5e9"
PAPERS="--tcomp 288e-9 --tstartup 107e-6 --bandwidth 10e6"

# tilectl: the one of this checkout, or a native build of tools/tilectl
# (it needs no MPI: every subcommand is a pure function)
TILECTL=${TILECTL:-}
if [ -z "$TILECTL" ]; then
    TILECTL=./tilectl
    if [ ! -x "$TILECTL" ]; then
        TILECTL=$RESULTS/.tilectl
        ${CC:-cc} -std=c99 -O2 -DTILEHYBRID_NO_MPI= -I. -o "$TILECTL" tools/tilectl/*.c -lm ||
            die "cannot build tools/tilectl with ${CC:-cc} (set TILECTL=...)"
    fi
fi

echo "part,kernel,procs,space,tile_height,grid,choice,predicted,seconds,bytes_total,messages_total,real_seconds" > "$out"

# topo NP SPACE DEPS Z COST [ARGS...]: tilectl topo's JSON line
topo() {
    t_np=$1 t_sp=$2 t_d=$3 t_z=$4 t_cost=$5; shift 5
    # shellcheck disable=SC2086
    "$TILECTL" topo --procs "$t_np" --space "$t_sp" --deps "$t_d" --tile-height "$t_z" \
        $t_cost "$@" --json || die "tilectl topo --procs $t_np --space $t_sp failed"
}

# run PART KERNEL NP SPACE Z GRID CHOICE PREDICTED PLATFORM HOSTS MODEL
run() {
    r=$(sim_json "$3" "$PLATFORMS/$9" "$PLATFORMS/${10}" "${11}" "$SIMBIN/demos/$2" \
            --space "$4" --tile-height "$5" --grid "$6" --no-progress)
    g=$(echo "$r" | jarr grid | paste -sd x -)
    [ "$g" = "$6" ] || die "$2 $4: asked for grid $6, ran $g"
    s=$(echo "$r" | jnum seconds)
    echo "$1,$2,$3,$4,$5,$6,$7,$8,$s,$(echo "$r" | jnum bytes_sent_total),$(echo "$r" | jnum messages_total),${r##* }" >> "$out"
    say "  $1 $2 P=$3 $4 z=$5 grid $6 ($7): $s s simulated, model $8 s, ${r##* } s real"
}

# scale KERNEL NP SPACE GRIDS...: every listed grid on the modern cluster
scale() {
    k=$1 np=$2 sp=$3; shift 3
    if [ "$k" = adi ]; then d=1,1; else d=3,3; fi
    j=$(topo "$np" "$sp" $d 64 "$MODERN" --policy time)
    tg=$(echo "$j" | jarr grid | paste -sd x -)
    cg=$(echo "$j" | jarr comm_grid | paste -sd x -)
    for g in "$@"; do
        ch=-
        [ "$g" = "$tg" ] && ch=time
        [ "$g" = "$cg" ] && { [ $ch = time ] && ch=time+comm || ch=comm; }
        pm=$(topo "$np" "$sp" $d 64 "$MODERN" --fixed "$(echo "$g" | tr x ,)" | jnum predicted_seconds)
        run scale "$k" "$np" "$sp" 64 "$g" "$ch" "$pm" modern.xml modern.hosts cm02
    done
}

# papers KERNEL SPACE Z: the time policy's and the volume policy's grids
papers() {
    if [ "$1" = adi ]; then d=1,1; else d=3,3; fi
    j=$(topo 16 "$2" $d "$3" "$PAPERS" --policy time)
    tg=$(echo "$j" | jarr grid | paste -sd x -)
    cg=$(echo "$j" | jarr comm_grid | paste -sd x -)
    if [ "$tg" = "$cg" ]; then
        run papers "$1" 16 "$2" "$3" "$tg" time+comm "$(echo "$j" | jnum predicted_seconds)" \
            fastethernet.xml fastethernet-1ppn.hosts nonoverlap
    else
        run papers "$1" 16 "$2" "$3" "$tg" time "$(echo "$j" | jnum predicted_seconds)" \
            fastethernet.xml fastethernet-1ppn.hosts nonoverlap
        run papers "$1" 16 "$2" "$3" "$cg" comm "$(echo "$j" | jnum comm_predicted_seconds)" \
            fastethernet.xml fastethernet-1ppn.hosts nonoverlap
    fi
}

# the end of a run (reductions, gathers) at 1,024 ranks: as sim/scale.sh
SIM_EXTRA_CFG="--cfg=smpi/reduce:binomial --cfg=smpi/gather:ompi_binomial"
export SIM_EXTRA_CFG
if [ "$QUICK" = 1 ]; then
    scale adi 256 16x512x2048 2x128 4x64 8x32 16x16
    for z in 25 100; do papers adi 64x256x4096 $z; done
    exit 0
fi
scale adi 1024 64x1024x2048 1x1024 2x512 4x256 8x128 16x64 32x32 64x16
# DE reads 3 layers: tiling.h runs only grids whose blocks are 3 wide
scale de 1024 64x1024x2048 4x256 8x128 16x64
for z in 25 50 100; do
    for x in 16 32 64 128 256; do papers adi "${x}x256x16384" $z; done
done
