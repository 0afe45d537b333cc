#!/bin/sh
# tests/cli_bench.sh -- the benchmark scripts' plumbing (not their timings):
# the JSON and CSV helpers of bench/lib.sh on fixed inputs, bench/scatter.sh's
# predictions for the paper's Table 1, and bench/plot.sh's figures.
set -u
. tests/lib.sh
D=$DEMODIR
TILECTL=${1:-$TILECTL}
R=$B/bench-test
rm -rf "$R"; mkdir -p "$R"
export RESULTS=$R QUICK=1 RUNS=1
set --                  # bench/lib.sh reads the caller's arguments
. bench/lib.sh

j='{"seconds": 0.125, "checksum": "00ff12", "per_thread": {"compute": [[1.5, 0.25], [3, 2]], "comm": [[0.1, 0], [0.2, 0]]}, "x": 1}'
[ "$(echo "$j" | jnum seconds)" = 0.125 ] && [ "$(echo "$j" | jnum checksum)" = 00ff12 ] &&
    ok "jnum reads numbers and strings" || notok "jnum: '$(echo "$j" | jnum seconds)' '$(echo "$j" | jnum checksum)'"
rows=$(echo "$j" | jrows compute | tr '\n' ';')
[ "$rows" = "0 0 1.5;0 1 0.25;1 0 3;1 1 2;" ] && ok "jrows lists process, thread, value" \
    || notok "jrows: $rows"
[ "$(echo "$j" | jmax compute)" = 3 ] && [ "$(echo "$j" | jmax comm)" = 0.2 ] &&
    ok "jmax takes the largest value over processes and threads" || notok "jmax"
[ "$(printf '3\n1\n2\n' | median)" = 2 ] && [ "$(printf '4\n1\n2\n10\n' | median)" = 3 ] &&
    ok "median of odd and even counts" || notok "median"
printf 'k,a,run,v\nx,1,1,5\nx,2,1,7\nx,1,2,1\nx,1,3,3\nx,2,2,9\n' > "$R/m.csv"
[ "$(csv_median "$R/m.csv" 2 4 | tr '\n' ';')" = "x,1,3.000000;x,2,8.000000;" ] &&
    ok "csv_median groups by the key columns in first-seen order" ||
    notok "csv_median: $(csv_median "$R/m.csv" 2 4 | tr '\n' ';')"
[ "$(csv_median "$R/m.csv" 1 3 4 | tr '\n' ';')" = "x,2.000000,5.000000;" ] &&
    ok "csv_median takes several value columns" ||
    notok "csv_median, two columns: $(csv_median "$R/m.csv" 1 3 4 | tr '\n' ';')"

if [ -x "$D/scatter" ] && [ -x "$TILECTL" ]; then
    if sh bench/scatter.sh > "$R/scatter.log" 2>&1; then
        m=$R/scatter-makespan.csv
        grep -q '^uniform,225.7,829.2,259,853,Fig. 2$' "$m" &&
            grep -q '^descending,404.0,404.0,405,430,Fig. 3$' "$m" &&
            grep -q '^ascending,414.4,414.4,437,486,Fig. 4$' "$m" &&
            ok "bench/scatter.sh: Table 1 predictions (829.2 s uniform, 404.0 s balanced, 414.4 s ascending)" ||
            { notok "bench/scatter.sh makespans"; diag < "$m"; }
        [ "$(grep -c '^uniform,' "$R/scatter-seismic.csv")" = 16 ] &&
            [ "$(awk -F, '$1 == "descending" { s += $4 } END { print s }' "$R/scatter-seismic.csv")" = 817101 ] &&
            ok "bench/scatter.sh: 16 processors, the balanced counts add up to 817101 rays" ||
            notok "bench/scatter.sh: seismic CSV"
        [ "$(awk -F, 'NR > 1 { s[$1] += $6 } END { for (r in s) print s[r] }' "$R/scatter-demo-raw.csv" |
             sort -u)" = 30000 ] &&
            [ "$(grep -c '^median,' "$R/scatter-demo-makespan.csv")" = 1 ] &&
            ok "bench/scatter.sh: in every run demos/scatter's balanced counts add up to the items" ||
            { notok "bench/scatter.sh: demo CSV"; diag < "$R/scatter-demo-raw.csv"; }
    else
        notok "bench/scatter.sh failed"; tail -n 5 "$R/scatter.log" | diag
    fi
else
    notok "demos/scatter or tilectl not built"
fi

if command -v gnuplot >/dev/null 2>&1; then
    if sh bench/plot.sh "$R" > "$R/plot.log" 2>&1 &&
       [ "$(head -c 4 "$R/scatter-seismic.png" | od -An -c | tr -d ' ')" = "211PNG" ] &&
       [ -s "$R/scatter-demo.png" ]; then
        ok "bench/plot.sh draws PNG figures from the CSV files"
    else notok "bench/plot.sh"; tail -n 5 "$R/plot.log" | diag; fi
else
    skip "bench/plot.sh draws PNG figures from the CSV files" "gnuplot not installed (make bench installs it)"
fi
rm -rf "$R"
done_testing
