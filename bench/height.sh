#!/bin/sh
# bench/height.sh -- the tile height the plan chooses against a sweep
# (issue 13), ADI and DE at 2 processes (pure MPI).
#
#   height-sweep.csv    per kernel and tile height z (log-spaced 1..1000,
#                       and the heights the plan chose): the median wall
#                       time of the 2-process runs given --tile-height z,
#                       and the pipeline model's predicted time at z
#                       (tilectl plan --tile-height z, on the costs the
#                       plan measured: t_comp timed on the body, the
#                       network's ping-pong);
#   height-summary.csv  per kernel: the height the plan chose (no
#                       --tile-height; the most frequent choice of the
#                       runs) and the median time of the runs that chose
#                       it, the height it would choose once the body is
#                       timed (tile_height_next) and that height's time,
#                       the sweep's best (the fastest z of
#                       height-sweep.csv), the ratios to the best, the
#                       predicted parallel efficiency and the measured one
#                       (the toolkit's own 1-process time / (2 x the chosen
#                       runs' time)), and last the chosen height's time as
#                       height-sweep.csv has it (chosen_z_seconds) over
#                       the best's (chosen_z_vs_best).
# Every height's time comes from the same kind of run (given the height),
# the same number of them: a height the plan chose that the sweep does not
# have gets RUNS runs of its own after the rounds.  The space is the speed
# targets' 64x256x16384: at Z = 4096 a run takes 0.03 s and the medians of
# a few runs differed by 10% at the same height.  Every run's checksum is
# compared with the plain sequential loop's.
# Run by bench/run.sh; alone: QUICK=1 RUNS=1 sh bench/height.sh
set -eu
. bench/lib.sh
RUNS=${RUNS:-3}
if [ "$QUICK" = 1 ]; then
    SPACE=64x256x1024; ZS="1 4 16 64 256 1000"; KERNELS=adi
else
    SPACE=64x256x16384; ZS="1 2 4 8 16 32 64 128 256 512 1000"; KERNELS="adi de"
fi
deps() { [ "$1" = adi ] && echo 1,1 || echo 3,3; }
say "load before: $(cut -d' ' -f1-3 /proc/loadavg)"

raw=$RESULTS/height-raw.csv
echo "kernel,kind,z,run,seconds,chosen,next,pred_eff,tcomp,tstartup,bandwidth" > "$raw"
one() { # one KERNEL NP KIND [--tile-height z]: a run's line in $raw
    o_k=$1 o_np=$2 o_kind=$3; shift 3
    o_j=$(run_json "$o_np" $DEMODIR/$o_k --space "$SPACE" "$@")
    check_sum "$o_k" "$SPACE" "$o_j"
    o_z=$(echo "$o_j" | jnum tile_height)
    printf '%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n' "$o_k" "$o_kind" "$o_z" "$r" \
        "$(echo "$o_j" | jnum seconds)" "$o_z" "$(echo "$o_j" | jnum tile_height_next)" \
        "$(echo "$o_j" | jnum predicted_efficiency)" "$(echo "$o_j" | jnum model_tcomp)" \
        "$(echo "$o_j" | jnum model_tstartup)" "$(echo "$o_j" | jnum model_bandwidth)" >> "$raw"
    say "[height] $o_k $SPACE, $o_np process(es), $o_kind, z $o_z, run $r: $(tail -n 1 "$raw" | cut -d, -f5) s"
}
for r in $(seq "$RUNS"); do
    for k in $KERNELS; do
        one "$k" 1 one
        one "$k" 2 chosen
        for z in $ZS; do one "$k" 2 sweep --tile-height "$z"; done
    done
done
# the heights the plan chose (first run, or next once the body is timed)
# that the sweep does not have: RUNS runs each, given the height
for k in $KERNELS; do
    for ez in $(awk -F, -v k="$k" '$1 == k && $2 == "chosen" { print $3; print $7 }' "$raw" |
                grep -v -x -e nan -e '' | sort -un); do
        case " $ZS " in *" $ez "*) continue ;; esac
        for r in $(seq "$RUNS"); do one "$k" 2 extra --tile-height "$ez"; done
    done
done
say "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

# medians; the model's curve on the chosen runs' measured costs
med() { awk -F, -v k="$1" -v c="$2" -v z="${3:-}" -v col="$4" \
        '$1 == k && $2 == c && (z == "" || $3 == z) { print $col }' "$raw" | median; }
# the most frequent value of column COL of KERNEL's chosen runs (the smaller on a tie)
mode() { awk -F, -v k="$1" -v col="$2" '$1 == k && $2 == "chosen" { print $col }' "$raw" |
         sort -n | uniq -c | sort -k1,1nr -k2,2n | awk 'NR == 1 { print $2 }'; }
# KERNEL's runs given --tile-height (the sweep's and the extra ones): "z seconds" lines
given_runs() { awk -F, -v k="$1" '$1 == k && ($2 == "sweep" || $2 == "extra") { print $3, $5 }' "$raw"; }
# the median time of KERNEL's runs given --tile-height Z
given() { given_runs "$1" | awk -v z="$2" '$1 == z { print $2 }' | median; }
out=$RESULTS/height-sweep.csv
echo "kernel,z,seconds,predicted_seconds" > "$out"
sum=$RESULTS/height-summary.csv
echo "kernel,space,chosen_z,chosen_seconds,next_z,next_seconds,best_z,best_seconds,chosen_vs_best,next_vs_best,predicted_efficiency,measured_efficiency,chosen_z_seconds,chosen_z_vs_best" > "$sum"
for k in $KERNELS; do
    tc=$(med "$k" chosen "" 9) ts=$(med "$k" chosen "" 10) bw=$(med "$k" chosen "" 11)
    for z in $(given_runs "$k" | cut -d' ' -f1 | sort -n -u); do
        t=$(given "$k" "$z")
        p=$($TILECTL plan --procs 2 --space "$SPACE" --deps "$(deps "$k")" --tile-height "$z" \
            --tcomp "$tc" --tstartup "$ts" --bandwidth "$bw" --json | jnum predicted_seconds)
        [ "$t" = nan ] || echo "$k,$z,$t,$p" >> "$out"
    done
    zc=$(mode "$k" 3) zn=$(mode "$k" 7)
    t1=$(med "$k" one "" 5) tch=$(med "$k" chosen "$zc" 5)
    tn=$(given "$k" "$zn") tz=$(given "$k" "$zc")
    best=$(awk -F, -v k="$k" '$1 == k { print $2, $3 }' "$out" | sort -g -k2 | head -n 1)
    awk -v k="$k" -v sp="$SPACE" -v zc="$zc" -v tch="$tch" -v zn="$zn" -v tn="$tn" -v b="$best" \
        -v tz="$tz" -v pe="$(med "$k" chosen "$zc" 8)" -v t1="$t1" '
        function num(x) { return x != "" && x != "nan" && x + 0 > 0 }
        function ratio(x, y) { return num(x) && num(y) ? sprintf("%.4f", x / y) : "nan" }
        BEGIN { split(b, bb, " ");
        printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", k, sp, zc, tch, zn, tn, bb[1], bb[2],
               ratio(tch, bb[2]), ratio(tn, bb[2]), pe, ratio(t1, 2 * tch), tz, ratio(tz, bb[2]) }' >> "$sum"
done
cat "$sum"
