#!/bin/sh
# bench/memory.sh -- memory flat in Z (issue 13's target: the largest
# resident set of a rank grows less than 1.5x for 10x Z): ADI and DE,
# 64 x 256 x Z and 64 x 256 x 10Z, 2 processes (pure MPI), each rank's
# maximum resident set size from GNU time (/usr/bin/time, %M: "Maximum
# resident set size" of time -v) for
#   demo      the demo with its defaults (demos/adi, demos/de: the Z
#             window storage)
#   toolkit   bench/inner_order.c with the plan's own choices (order auto),
#             one run and its checksum run,
# each with the tile height the plan chooses (height "chosen": the model's
# best z grows about as sqrt(Z), and the window with it, up to the
# level-2 cache bound) and with the tile height fixed at 64 (the storage
# alone).
#
#   memory.csv   per kernel, program, height and space: the tile height
#                that ran, the largest RSS of the two ranks in KiB (the
#                median over RUNS runs, one by default: it varies little),
#                and its ratio to the same case's at Z.
#
# The two programs' checksums over each space must agree (two programs,
# one result), or the benchmark stops; the plain loop over 10Z
# would need the whole array (2.7 GB), which is what the window avoids.
# --quick: ADI only, Z = 256.  The full set takes about a minute.
# Run by bench/run.sh; alone: QUICK=1 sh bench/memory.sh
set -eu
. bench/lib.sh
RUNS=${RUNS:-1}
if [ "$QUICK" = 1 ]; then Z=256; KERNELS=adi; else Z=2048; KERNELS="adi de"; fi
TIME=${TIME_PROG:-/usr/bin/time}
"$TIME" -f %M true >/dev/null 2>&1 ||
    die "$TIME (GNU time, with -f %M) is missing: sudo apt-get install -y time"

raw=$RESULTS/memory-raw.csv
echo "kernel,program,height,space,run,tile_height,max_rss_kib" > "$raw"
# rss NP PROGRAM ARGS...: run_json under GNU time on every rank; the JSON
# line in $RESULTS/.json, the largest rank's RSS (KiB) on stdout
rss() {
    rs_np=$1 rs_f=$RESULTS/.rss; shift
    rm -f "$rs_f"
    run_json "$rs_np" "$TIME" -a -o "$rs_f" -f %M "$@" > "$RESULTS/.json"
    [ "$(grep -c '^[0-9][0-9]*$' "$rs_f")" = "$rs_np" ] ||
        die "$TIME wrote $(wc -l < "$rs_f") lines for $rs_np ranks: $(tr '\n' ' ' < "$rs_f")"
    sort -n "$rs_f" | tail -n 1
}
# one KERNEL PROGRAM HEIGHT SPACE ARGS...: a case's line in $raw
one() {
    o_k=$1 o_p=$2 o_h=$3 o_sp=$4; shift 4
    o_m=$(rss 2 "$@")
    # the order that ran: inner_order's "order_run", the demos' "order"
    o_z=$(jnum tile_height < "$RESULTS/.json") o_o=$(jnum order_run < "$RESULTS/.json")
    [ -n "$o_o" ] || o_o=$(jnum order < "$RESULTS/.json")
    echo "$o_k,$o_p,$o_h,$o_sp,$r,$o_z,$o_m" >> "$raw"
    say "[memory] $o_k $o_sp, $o_p${o_o:+ (order $o_o)}, 2 processes, tile height $o_z ($o_h)," \
        "run $r: max RSS $o_m KiB"
}
for r in $(seq "$RUNS"); do
    for k in $KERNELS; do
        for z in "$Z" $((10 * Z)); do
            sp=64x256x$z
            for h in chosen 64; do
                if [ $h = chosen ]; then opt=; ih=0; else opt="--tile-height $h"; ih=$h; fi
                one "$k" demo "$h" "$sp" $DEMODIR/$k --space "$sp" $opt
                cd_=$(jnum checksum < "$RESULTS/.json")
                one "$k" toolkit "$h" "$sp" $B/bench/inner_order "$k" 64 256 "$z" auto "$ih" 1
                ct=$(jnum checksum < "$RESULTS/.json")
                [ "$cd_" = "$ct" ] ||
                    die "$k $sp: the demo's checksum $cd_, bench/inner_order's (order auto) $ct"
            done
        done
    done
done
out=$RESULTS/memory.csv
echo "kernel,program,height,space,tile_height,max_rss_kib,ratio_to_z" > "$out"
csv_median "$raw" 4 6 7 | awk -F, '{ key = $1 "," $2 "," $3; if (!(key in base)) base[key] = $6;
    printf "%s,%s,%s,%s,%d,%d,%.3f\n", $1, $2, $3, $4, $5, $6, $6 / base[key] }' >> "$out"
rm -f "$RESULTS/.rss" "$RESULTS/.json" "$RESULTS/.stderr"
cat "$out"
