#!/bin/sh
# sim/scatter.sh -- experiment 2: the scatter paper's seismic run (Table 1:
# 16 processors, 817,101 rays) on its own grid, simulated
# (sim/platforms/seismic.xml, written by sim/seismic-platform.sh), with
# sim/scatter_seismic.c: uniform against balanced, scatterlb.h's two calls
# (slb_plan_scatterv, i.e. MPI_Scatterv, and slb_plan_scatter_ordered, one
# send after the other) against each other, the paper's bandwidth order
# against the opposite one.
#   sim-scatter.csv          per rank: rank,name,<run>_finish for the six
#                            runs, the plans' counts and predicted finish
#   sim-scatter-summary.csv  run,makespan,earliest,predicted,published,
#                            published_earliest
# The same in quick and full runs (one simulation, a few seconds).
. sim/lib.sh
out=$RESULTS/sim-scatter.csv
sum=$RESULTS/sim-scatter-summary.csv
RUNS="uniform uniform_ordered balanced balanced_ordered ascending_ordered reversed_ordered"
r=$(sim_json 16 "$PLATFORMS/seismic.xml" "$PLATFORMS/seismic.hosts" cm02 \
        "$SIMBIN/sim/scatter_seismic" --costs "$PLATFORMS/seismic.costs")
[ "$(echo "$r" | jnum ok)" = true ] || die "scatter_seismic: rays lost or duplicated"

# columns: one file per array, pasted side by side
tmp=$RESULTS/.scatter.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
seq 0 15 > "$tmp/0rank"
echo "$r" | jarr names > "$tmp/1name"
hdr="rank,name"
i=2
for run in $RUNS; do
    echo "$r" | jarr "${run}_finish" > "$tmp/${i}f"
    hdr="$hdr,${run}_finish"
    i=$((i + 1))
done
for run in balanced ascending_ordered; do
    echo "$r" | jarr "${run}_counts" | awk '{ printf "%d\n", $1 }' > "$tmp/${i}c"
    echo "$r" | jarr "${run}_predicted" > "$tmp/${i}p"
    hdr="$hdr,${run}_counts,${run}_predicted"
    i=$((i + 1))
done
{ echo "$hdr"; paste -d, $(ls "$tmp"/* | sort -V); } > "$out"

# published: the paper's Figures 2, 3 and 4 (latest and earliest finish)
published() {
    case $1 in
        uniform_ordered) echo "853,259" ;;
        balanced_ordered) echo "430,405" ;;
        ascending_ordered|reversed_ordered) echo "486,437" ;;
        *) echo "," ;;
    esac
}
echo "run,makespan,earliest,predicted,published,published_earliest" > "$sum"
for run in $RUNS; do
    m=$(echo "$r" | jnum "${run}_makespan")
    e=$(echo "$r" | jarr "${run}_finish" | sort -g | head -n 1)
    pm=$(echo "$r" | jnum "${run}_predicted_makespan")
    echo "$run,$m,$e,$pm,$(published $run)" >> "$sum"
    say "  scatter $run: makespan $m s (earliest $e s)${pm:+, predicted $pm s}"
done
