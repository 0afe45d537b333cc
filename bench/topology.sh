#!/bin/sh
# bench/topology.sh -- the communication-optimal process grid against the
# balanced (latency-optimal, MPI_Dims_create) grid, after Fig. 5 and 6 of
# the topology paper and Fig. 2, 3 and 5 of the tile-shape paper.
#
#   topology-time.csv         ADI and DE on X1 x 256 x Z, X1 in {16..256},
#                             2 processes (the two grids are 1x2 and 2x1):
#                             median wall time of each grid, and the ratio.
#   topology-granularity.csv  ADI 64x256xZ on 2 processes, tile height swept:
#                             total time, maximum compute and maximum
#                             communication time over the processes.
#   topology-volume.csv       the papers' 12 and 16 processes, oversubscribed
#                             (so no times): bytes and messages the runs
#                             send in all, each grid, normalised to the
#                             balanced grid the papers used (4x4; 3x4 for
#                             12), with the model's total volume (tilectl)
#                             and the published improvement.
#
# Run by bench/run.sh; alone: QUICK=1 RUNS=1 sh bench/topology.sh
set -eu
. bench/lib.sh
RUNS=${RUNS:-5}
if [ "$QUICK" = 1 ]; then
    Z=1024; X1S="16 64 256"; ZG=2048; TILES="25 100 400"; ZV=200
    VOL_SETS="adi:16:16,64"
else
    Z=8192; X1S="16 32 64 128 256"; ZG=8192; TILES="10 25 50 100 200 400 800"; ZV=200
    VOL_SETS="adi:16:16,32,64,128,256 adi:12:16,32,64,128,256 de:16:16,32,64,128,256 de2:16:32,64,128,256,512"
fi
# The balanced grid the papers compared against: MPI_Dims_create's, except
# for 12 processes, where the tile-shape paper used 3x4 (MPI_Dims_create: 4x3)
baseline() { if [ "$1" = 12 ]; then echo 3x4; else echo latency; fi; }

# A. wall time at 2 processes ---------------------------------------------
raw=$RESULTS/topology-time-raw.csv
echo "kernel,space,policy,grid,tile_height,run,seconds,bytes_total,messages_total,checksum" > "$raw"
ncase=$((2 * $(echo $X1S | wc -w) * 2 * RUNS)); i=0
for r in $(seq "$RUNS"); do
    for kernel in adi de; do
        for x1 in $X1S; do
            for pol in comm latency; do
                i=$((i + 1))
                j=$(run_json 2 $DEMODIR/$kernel --space "${x1}x256x$Z" --grid "$pol")
                g=$(echo "$j" | sed -n 's/.*"grid": \[\([0-9]*\), \([0-9]*\)\].*/\1x\2/p')
                s=$(echo "$j" | jnum seconds)
                say "[topology $i/$ncase] $kernel ${x1}x256x$Z, 2 processes, $pol grid $g, run $r: $s s"
                echo "$kernel,${x1}x256x$Z,$pol,$g,100,$r,$s,$(echo "$j" | jnum bytes_sent_total),$(echo "$j" | jnum messages_total),$(echo "$j" | jnum checksum)" >> "$raw"
            done
        done
    done
done
# the two grids must compute the same numbers
awk -F, 'NR > 1 { k = $1 "," $2; if (k in c && c[k] != $10) bad = bad " " k; c[k] = $10 }
         END { if (bad != "") { print "bench: checksums differ between grids:" bad > "/dev/stderr"; exit 1 } }' "$raw"
out=$RESULTS/topology-time.csv
echo "kernel,space,comm_grid,latency_grid,comm_seconds,latency_seconds,ratio_comm_to_latency,comm_bytes,latency_bytes" > "$out"
csv_median "$raw" 4 7 > "$RESULTS/.med"
awk -F, 'NR == FNR { t[$1 "," $2 "," $3] = $5; g[$1 "," $2 "," $3] = $4; next }
         FNR > 1 && $6 == 1 { b[$1 "," $2 "," $3] = $8; if (!(($1 "," $2) in seen)) { seen[$1 "," $2] = 1; ord[++n] = $1 "," $2 } }
         END { for (i = 1; i <= n; i++) { k = ord[i]; c = k ",comm"; l = k ",latency";
                 printf "%s,%s,%s,%.6f,%.6f,%.4f,%s,%s\n", k, g[c], g[l], t[c], t[l], t[c] / t[l], b[c], b[l] } }' \
    "$RESULTS/.med" "$raw" >> "$out"

# B. granularity, ADI 64x256 ------------------------------------------------
raw=$RESULTS/topology-granularity-raw.csv
echo "kernel,space,policy,tile_height,run,grid,seconds,max_compute,max_comm" > "$raw"
ncase=$(($(echo $TILES | wc -w) * 2 * RUNS)); i=0
for r in $(seq "$RUNS"); do
    for zt in $TILES; do
        for pol in comm latency; do
            i=$((i + 1))
            j=$(run_json 2 $DEMODIR/adi --space "64x256x$ZG" --grid "$pol" --tile-height "$zt")
            g=$(echo "$j" | sed -n 's/.*"grid": \[\([0-9]*\), \([0-9]*\)\].*/\1x\2/p')
            s=$(echo "$j" | jnum seconds)
            say "[granularity $i/$ncase] adi 64x256x$ZG, tile height $zt, $pol grid $g, run $r: $s s"
            echo "adi,64x256x$ZG,$pol,$zt,$r,$g,$s,$(echo "$j" | jmax compute),$(echo "$j" | jmax comm)" >> "$raw"
        done
    done
done
out=$RESULTS/topology-granularity.csv
echo "kernel,space,policy,tile_height,seconds,max_compute,max_comm" > "$out"
csv_median "$raw" 4 7 8 9 >> "$out"

# C. exact volumes at the papers' 12 and 16 processes -------------------------
# Published improvements of the communication-optimal grid in total time
# (percent), where the papers' text states them:
#   tile-shape paper Fig. 2 (ADI, 16 processes): 16: 45, 32: 19, 64: 9, 256: 2
#   tile-shape paper Fig. 3 (ADI, 12 processes): from 41 (16) down to 3 (the
#     text does not say for which space)
#   tile-shape paper Fig. 5 (DE XYT, set 1, 16): from 60 (16) to 5 (128)
#   topology paper Fig. 5 (ADI, 16 processes): more than 35 (16), about 2 (128)
published() {
    case "$1:$2:$3" in
        adi:16:16) echo "45 (tile-shape Fig. 2); >35 (topology Fig. 5a)" ;;
        adi:16:32) echo "19 (tile-shape Fig. 2)" ;;
        adi:16:64) echo "9 (tile-shape Fig. 2)" ;;
        adi:16:128) echo "about 2 (topology Fig. 5a)" ;;
        adi:16:256) echo "2 (tile-shape Fig. 2)" ;;
        adi:12:16) echo "41 (tile-shape Fig. 3)" ;;
        de:16:16) echo "60 (tile-shape Fig. 5)" ;;
        de:16:128) echo "5 (tile-shape Fig. 5)" ;;
        *) echo "" ;;
    esac
}
out=$RESULTS/topology-volume.csv
echo "kernel,space,processes,policy,grid,bytes_total,messages_total,bytes_max,model_bytes_total,volume_ratio,messages_ratio,published_improvement_percent" > "$out"
ncase=0
for set in $VOL_SETS; do
    ncase=$((ncase + 2 * $(echo "$set" | cut -d: -f3 | tr ',' ' ' | wc -w)))
done
i=0
for set in $VOL_SETS; do
    kernel=${set%%:*}; rest=${set#*:}; np=${rest%%:*}; xs=$(echo "${rest#*:}" | tr ',' ' ')
    for x in $xs; do
        case $kernel in
            de2) prog=de; space="1024x${x}x$ZV"; deps=3,3 ;;
            de) prog=de; space="${x}x256x$ZV"; deps=3,3 ;;
            *) prog=adi; space="${x}x256x$ZV"; deps=1,1 ;;
        esac
        lat_b=""; lat_m=""; lat_sum=""
        for pol in latency comm; do
            i=$((i + 1))
            g=$pol; [ "$pol" = latency ] && g=$(baseline "$np")
            j=$(run_json "$np" $DEMODIR/$prog --space "$space" --grid "$g")
            sum=$(echo "$j" | jnum checksum)
            [ "$pol" = latency ] && lat_sum=$sum
            [ "$sum" = "$lat_sum" ] || die "$prog $space: the two grids' checksums differ"
            g=$(echo "$j" | sed -n 's/.*"grid": \[\([0-9]*\), \([0-9]*\)\].*/\1x\2/p')
            bt=$(echo "$j" | jnum bytes_sent_total); mt=$(echo "$j" | jnum messages_total)
            if [ "$g" = comm ] || [ "$g" = latency ]; then
                model=$($TILECTL topo --procs "$np" --space "$space" --deps "$deps" --policy "$g" --json |
                        jnum total_volume)
            else
                model=$($TILECTL topo --procs "$np" --space "$space" --deps "$deps" \
                        --fixed "$(echo "$g" | tr x ,)" --json | jnum total_volume)
            fi
            [ "$pol" = latency ] && { lat_b=$bt; lat_m=$mt; }
            say "[volume $i/$ncase] $prog $space, $np processes, $pol grid $g: $bt bytes in $mt messages (model $((model * 8)) bytes)"
            echo "$kernel,$space,$np,$pol,$g,$bt,$mt,$(echo "$j" | jnum bytes_sent_max),$((model * 8)),$(awk -v a="$bt" -v b="$lat_b" 'BEGIN { printf "%.4f", a / b }'),$(awk -v a="$mt" -v b="$lat_m" 'BEGIN { printf "%.4f", a / b }'),$([ "$pol" = comm ] && published "$kernel" "$np" "$x")" >> "$out"
        done
    done
done
rm -f "$RESULTS/.med" "$RESULTS/.stderr"
