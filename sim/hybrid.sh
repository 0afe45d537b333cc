#!/bin/sh
# sim/hybrid.sh -- experiment 3: the coarse-grain funneled model, balanced,
# against pure MPI on the journal's 8 dual nodes (FastEthernet), simulated
# with the skeleton sim/funneled.c (sim/README.md says what it models).
#
#   pure MPI   16 ranks, 2 per node (fastethernet-2ppn.hosts), 1 thread
#   funneled   8 ranks, 1 per node (node-0..7), 2 threads each: balance
#              none (even split), constant and variable (balance.h, eq. 1,
#              with the papers' t_comp, t_startup and B)
# on ADI (d = 1,1) and DE (d = 3,3), X1 x 256 x 16384 with X1 = 16..256, the
# process grids of the hybrid paper's Table 1, each case at its best tile
# height of 10, 25, 50, 100, 200.  The sender's CPU pays t_comm(x) for every
# message to another node (--overhead inter, CM02 network model); the full
# run repeats pure MPI with every message charged (--overhead all, what
# SMPI's smpi/ois does) to show how much the comparison rests on that.
#   sim-hybrid.csv        kernel,space,overhead,mpi_grid,z_mpi,t_mpi,
#                         hybrid_grid,balance,z_hybrid,t_hybrid,bal_min,
#                         bal_max,ratio,improvement,published
#   sim-hybrid-check.csv  the skeleton against the ADI demo itself (pure MPI,
#                         same platform, SMPI's smpi/ois): seconds, bytes,
#                         messages of both
# QUICK=1: ADI, X1 = 16, 64, 256, tile heights 25 and 100, overhead inter.
. sim/lib.sh
PLAT=$PLATFORMS/fastethernet.xml
out=$RESULTS/sim-hybrid.csv
chk=$RESULTS/sim-hybrid-check.csv
PROG=$SIMBIN/sim/funneled
echo "kernel,space,overhead,mpi_grid,z_mpi,t_mpi,hybrid_grid,balance,z_hybrid,t_hybrid,bal_min,bal_max,ratio,improvement,published" > "$out"
if [ "$QUICK" = 1 ]; then ZS="25 100" XS="16 64 256" KS=adi OVS=inter
else ZS="10 25 50 100 200" XS="16 32 64 128 256" KS="adi de" OVS="inter all"; fi

# the hybrid paper's Table 1: message passing and hybrid grids per X1
grid_mpi() { case $1 in 16) echo 1x16 ;; 256) echo 4x4 ;; *) echo 2x8 ;; esac; }
grid_hyb() { case $1 in 16|32|64) echo 1x8 ;; *) echo 2x4 ;; esac; }
deps() { if [ "$1" = adi ]; then echo 1,1; else echo 3,3; fi; }

# best NP HOSTS ARGS...: every tile height; "z seconds bal_min bal_max" of
# the fastest
best() {
    b_np=$1 b_hosts=$2; shift 2
    for z in $ZS; do
        r=$(sim_json "$b_np" "$PLAT" "$PLATFORMS/$b_hosts" cm02 "$PROG" --tile-height "$z" "$@")
        echo "$z $(echo "$r" | jnum seconds) $(echo "$r" | jnum bal_min) $(echo "$r" | jnum bal_max)"
    done | sort -g -k2,2 | head -n 1
}

# the published improvement (a range for the whole set)
published() { if [ "$1" = adi ]; then echo "0.02..0.12"; else echo "0.03..0.22"; fi; }

for k in $KS; do
    for x in $XS; do
        s=${x}x256x16384 gm=$(grid_mpi "$x") gh=$(grid_hyb "$x")
        for ov in $OVS; do
            set -- $(best 16 fastethernet-2ppn.hosts --space "$s" --grid "$gm" --deps "$(deps $k)" \
                         --overhead "$ov")
            zm=$1 tm=$2
            for b in none constant variable; do
                # the funneled side always pays for inter-node messages only:
                # it has no other kind
                set -- $(best 8 fastethernet-1ppn.hosts --space "$s" --grid "$gh" --threads 2 \
                             --deps "$(deps $k)" --balance "$b" --overhead inter)
                ratio=$(awk "BEGIN { printf \"%.4f\", $2 / $tm }")
                echo "$k,$s,$ov,$gm,$zm,$tm,$gh,$b,$1,$2,$3,$4,$ratio,$(awk "BEGIN { printf \"%.4f\", 1 - $ratio }"),$(published $k)" >> "$out"
                say "  $k $s ($ov): MPI $gm $tm s (z=$zm), funneled $gh $b $2 s (z=$1, bal $3..$4), ratio $ratio"
            done
        done
    done
done

# the skeleton against the engine: the ADI demo, pure MPI, 16 ranks on the
# 8 dual nodes, SMPI's own per-message overhead (nonoverlap model)
echo "space,grid,tile_height,t_demo,t_skeleton,bytes_demo,bytes_skeleton,messages_demo,messages_skeleton" > "$chk"
for g in 1x16 4x4; do
    s=16x256x4096
    d=$(sim_json 16 "$PLAT" "$PLATFORMS/fastethernet-2ppn.hosts" nonoverlap "$SIMBIN/demos/adi" \
            --space $s --tile-height 25 --grid $g --no-progress)
    r=$(sim_json 16 "$PLAT" "$PLATFORMS/fastethernet-2ppn.hosts" nonoverlap "$PROG" \
            --space $s --tile-height 25 --grid $g --overhead none)
    echo "$s,$g,25,$(echo "$d" | jnum seconds),$(echo "$r" | jnum seconds),$(echo "$d" | jnum bytes_sent_total),$(echo "$r" | jnum bytes_sent_total),$(echo "$d" | jnum messages_total),$(echo "$r" | jnum messages_total)" >> "$chk"
done
say "  skeleton check (demo against skeleton): $(tail -n +2 "$chk" | cut -d, -f2,4,5 | tr '\n' ' ')"
