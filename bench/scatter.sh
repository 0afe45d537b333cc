#!/bin/sh
# bench/scatter.sh -- load-balanced MPI_Scatterv, after Figures 2-4 of the
# scatter paper.
#
#   scatter-seismic.csv   the paper's Table 1 (16 processors, 817,101 rays,
#                         demos/data/seismic-1999.csv): every processor's
#                         predicted items and finish time, for the uniform
#                         MPI_Scatter split (Fig. 2), the balanced split with
#                         processors by descending bandwidth (Fig. 3) and by
#                         ascending bandwidth (Fig. 4).
#   scatter-makespan.csv  predicted earliest and latest finish of each case,
#                         beside the paper's measured ones.
#   scatter-demo.csv      demos/scatter on this machine, 4 ranks slowed down
#                         1x, 2x, 3x, 4x (oversubscribed on 2 cores): each
#                         rank's measured finish time, uniform against
#                         balanced (medians over the runs).
#
# Run by bench/run.sh; alone: QUICK=1 RUNS=1 sh bench/scatter.sh
set -eu
. bench/lib.sh
RUNS=${RUNS:-5}
ITEMS=$([ "$QUICK" = 1 ] && echo 30000 || echo 120000)
costs=demos/data/seismic-1999.csv

# the seismic instance, ascending bandwidth: the root first (it receives
# last whatever the order), then the others by decreasing lambda
asc=$RESULTS/.seismic-ascending.csv
{ head -n 1 "$costs"; sed -n 2p "$costs"; tail -n +3 "$costs" | sort -t, -k7,7 -g -r; } > "$asc"

# "key":[a,b,...] of a compact JSON object -> one value per line
jlist() { sed -n "s/.*\"$1\":\[\([^]]*\)\].*/\1/p" | head -n 1 | tr ',' '\n' | tr -d '"'; }

out=$RESULTS/scatter-seismic.csv
mk=$RESULTS/scatter-makespan.csv
echo "case,position,processor,items,finish" > "$out"
echo "case,predicted_earliest,predicted_latest,paper_earliest,paper_latest,paper_figure" > "$mk"
for c in uniform:$costs:bandwidth:259:853:2 descending:$costs:bandwidth:405:430:3 ascending:$asc:given:437:486:4; do
    IFS=: read -r name file order pe pl fig <<EOF
$c
EOF
    method=$([ "$name" = uniform ] && echo uniform || echo exact)
    j=$($TILECTL scatter --costs "$file" --items 817101 --method "$method" --order "$order" --json) ||
        die "tilectl scatter failed ($name)"
    echo "$j" | jlist order > "$RESULTS/.o"
    echo "$j" | jlist counts > "$RESULTS/.n"
    echo "$j" | jlist finish > "$RESULTS/.f"
    paste -d, "$RESULTS/.o" "$RESULTS/.n" "$RESULTS/.f" |
        awk -F, -v c="$name" '{ printf "%s,%d,%s,%s,%.3f\n", c, NR, $1, $2, $3 }' >> "$out"
    awk -v c="$name" -v pe="$pe" -v pl="$pl" -v fig="$fig" \
        'NR == 1 || $1 < lo { lo = $1 } NR == 1 || $1 > hi { hi = $1 }
         END { printf "%s,%.1f,%.1f,%s,%s,Fig. %s\n", c, lo, hi, pe, pl, fig }' "$RESULTS/.f" >> "$mk"
    say "[scatter] seismic, $name: predicted finish $(tail -n 1 "$mk" | cut -d, -f2) .. $(tail -n 1 "$mk" | cut -d, -f3) s (paper measured $pe .. $pl s)"
done

raw=$RESULTS/scatter-demo-raw.csv
echo "run,rank,slowdown,uniform_items,uniform_finish,balanced_items,balanced_finish,balanced_predicted" > "$raw"
for r in $(seq "$RUNS"); do
    j=$(run_json 4 $DEMODIR/scatter --items "$ITEMS" --slowdown 1,2,3,4)
    u=$(echo "$j" | sed -n 's/.*"uniform":{\([^}]*\)}.*/\1/p')
    b=$(echo "$j" | sed -n 's/.*"balanced":{\([^}]*\)}.*/\1/p')
    echo "$u" | grep -q '"checksum_ok":true' && echo "$b" | grep -q '"checksum_ok":true' ||
        die "demos/scatter: a checksum is wrong: $j"
    echo "$j" | jlist slowdown > "$RESULTS/.s"
    echo "$u" | jlist counts > "$RESULTS/.uc"; echo "$u" | jlist finish > "$RESULTS/.uf"
    echo "$b" | jlist counts > "$RESULTS/.bc"; echo "$b" | jlist finish > "$RESULTS/.bf"
    echo "$b" | jlist predicted > "$RESULTS/.bp"
    paste -d, "$RESULTS/.s" "$RESULTS/.uc" "$RESULTS/.uf" "$RESULTS/.bc" "$RESULTS/.bf" "$RESULTS/.bp" |
        awk -v r="$r" '{ print r "," NR - 1 "," $0 }' >> "$raw"
    say "[scatter $r/$RUNS] demos/scatter, 4 ranks, $ITEMS items: makespan uniform $(echo "$u" | jnum makespan | head -c 6) s, balanced $(echo "$b" | jnum makespan | head -c 6) s"
done
# per rank: the median of every column over the runs
out=$RESULTS/scatter-demo.csv
echo "rank,slowdown,uniform_items,uniform_finish,balanced_items,balanced_finish,balanced_predicted" > "$out"
awk -F, -v OFS=, 'NR == 1 { print; next } { t = $1; $1 = $2; $2 = t; print }' "$raw" > "$RESULTS/.byrank"
csv_median "$RESULTS/.byrank" 1 3 4 5 6 7 8 |
    awk -F, '{ printf "%s,%.0f,%.0f,%s,%.0f,%s,%s\n", $1, $2, $3, $4, $5, $6, $7 }' >> "$out"
# per run: the two makespans and their ratio (same run), then the medians
mk=$RESULTS/scatter-demo-makespan.csv
echo "run,uniform_makespan,balanced_makespan,ratio" > "$mk"
awk -F, 'NR > 1 { if ($5 > u[$1]) u[$1] = $5; if ($7 > b[$1]) b[$1] = $7; n = $1 }
    END { for (r = 1; r <= n; r++) printf "%d,%.6f,%.6f,%.4f\n", r, u[r], b[r], u[r] / b[r] }' "$raw" >> "$mk"
col() { awk -F, -v c="$1" 'NR > 1 { print $c }' "$mk" | median; }
echo "median,$(col 2),$(col 3),$(col 4)" >> "$mk"
rm -f "$RESULTS"/.o "$RESULTS"/.n "$RESULTS"/.f "$RESULTS"/.s "$RESULTS"/.uc "$RESULTS"/.uf \
      "$RESULTS"/.bc "$RESULTS"/.bf "$RESULTS"/.bp "$RESULTS/.byrank" "$asc" "$RESULTS/.stderr"
