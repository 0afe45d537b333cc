#!/bin/sh
# sim/plot.sh -- draw the PNG figures of sim/results/sim-*.csv with gnuplot.
#   sh sim/plot.sh [RESULTS_DIR]
# Draws a figure for every CSV present; a missing CSV is skipped.
set -eu
PLOT=sim/plot.sh PLOT_RESULTS=sim/results PLOT_MAKE=simulate
. "$(dirname "$0")/../bench/plot-lib.sh"
trap 'rm -rf "$T"' EXIT
have() { [ -s "$R/$1" ] && [ "$(wc -l < "$R/$1")" -gt 1 ]; }

# 1. topology: optimal / balanced time, bytes, published ----------------------
if have sim-topology.csv; then
    # one panel per kernel, process count, processes per node, set and model
    sets=$(awk -F, 'NR > 1 { s = ($4 ~ /^1024x/) ? "2" : "1"; k = $1 ":" $2 ":" $3 ":" s ":" $5;
                     if (!(k in seen)) { seen[k] = 1; printf "%s ", k } }' "$R/sim-topology.csv")
    tt_data() { # tt_data I KEY: panel I's title and rows
        echo "$2" | awk -F: '{ printf "%s set %s, %s processes (%s per node), %s model\n",
                               toupper($1), $4, $2, $3, $5 }' > "$T/tt-$1.title"
        awk -F, -v key="$2" 'NR > 1 { st = ($4 ~ /^1024x/) ? "2" : "1";
            if ($1 ":" $2 ":" $3 ":" st ":" $5 != key) next;
            sp = $4; sub(/x[0-9]+$/, "", sp); pub = ($15 == "") ? "NaN" : 1 - $15;
            printf "%s\\n%s / %s,%s,%s,%s\n", sp, $6, $7, $12, $14, pub }' "$R/sim-topology.csv" > "$T/tt-$1.csv"
    }
    for_keys tt_data $sets
    tt_panel() {
        echo "set title \"$(cat "$T/tt-$1.title")\" font ',9'"
        pub=""
        grep -q ',[0-9.]*$' "$T/tt-$1.csv" && pub=", '' using 4 title 'published time' lc rgb '#ee6677'"
        echo "plot \"$T/tt-$1.csv\" using 2:xtic(1) title 'simulated time' lc rgb '#4477aa', '' using 3 title 'bytes' lc rgb '#bbbbbb'$pub"
    }
    multiplot $n "Communication-optimal grid / balanced grid, simulated on the papers' cluster: time at each grid's best tile height, bytes, and the published time ratio (1 - improvement)" \
        "set style data histograms; set style histogram clustered gap 1; set yrange [0:1.3]
set key top left font ',7'; set xtics font ',7'; set ytics 0.2" tt_panel |
        gp sim-topology.png "1100,$((250 * ((n + 1) / 2) + 60))"
fi

# 2. scatter: per-rank finish times of each run --------------------------------
if have sim-scatter.csv && have sim-scatter-summary.csv; then
    awk -F, 'NR > 1 { printf "%s %s,%s,%s,%s,%s,%s,%s\n", $1, $2, $3, $4, $5, $6, $7, $8 }' \
        "$R/sim-scatter.csv" > "$T/s.csv"
    pub() { awk -F, -v r="$1" '$1 == r { print $5 }' "$R/sim-scatter-summary.csv"; }
    gp sim-scatter.png 1100,520 <<EOF
set multiplot layout 1,3 title "Seismic tomography, 817,101 rays on the paper's grid, simulated: finish time of each rank (the dashed line: the paper's measured latest finish)"
set style data histograms; set style histogram clustered gap 1; set boxwidth 0.9
set yrange [0:1050]; set ylabel "seconds"; set xtics rotate by -60 font ',7'; set key top right font ',8'
set title "uniform (Figure 2)"
plot "$T/s.csv" using 3:xtic(1) title "slb_plan_scatter_ordered" lc rgb '#ee6677', "" using 2 title "MPI_Scatter" lc rgb '#bbbbbb', $(pub uniform_ordered) with lines lw 2 dt 2 lc rgb 'black' title "paper: $(pub uniform_ordered) s"
set title "balanced, decreasing bandwidth (Figure 3)"
plot "$T/s.csv" using 5:xtic(1) title "slb_plan_scatter_ordered" lc rgb '#4477aa', "" using 4 title "slb_plan_scatterv (MPI_Scatterv)" lc rgb '#bbbbbb', $(pub balanced_ordered) with lines lw 2 dt 2 lc rgb 'black' title "paper: $(pub balanced_ordered) s"
set title "increasing bandwidth (Figure 4)"
plot "$T/s.csv" using 6:xtic(1) title "own plan, slb_plan_scatter_ordered" lc rgb '#228833', "" using 7 title "Figure 3's counts, reversed" lc rgb '#ccbb44', $(pub ascending_ordered) with lines lw 2 dt 2 lc rgb 'black' title "paper: $(pub ascending_ordered) s"
unset multiplot
EOF
fi

# 3. hybrid: funneled / pure MPI ---------------------------------------------------
if have sim-hybrid.csv; then
    h_data() { # h_data I KERNEL:MESSAGES: panel I's rows and title
        awk -F, -v k="${2%:*}" -v o="${2#*:}" 'NR > 1 && $1 == k && $3 == o {
            sp = $2; sub(/x[0-9]+$/, "", sp);
            if (!(sp in seen)) { seen[sp] = 1; ord[++m] = sp; lab[sp] = sp "\\n" $4 " / " $7 }
            r[sp, $8] = $13 }
          END { for (i = 1; i <= m; i++) { sp = ord[i];
                printf "%s,%s,%s,%s\n", lab[sp], r[sp, "none"], r[sp, "constant"], r[sp, "variable"] } }' \
            "$R/sim-hybrid.csv" > "$T/h-$1.csv"
        echo "$2" | awk -F: '{ printf "%s, pure MPI pays t_comm for %s messages\n", toupper($1),
                               ($2 == "inter") ? "inter-node" : "all" }' > "$T/h-$1.title"
    }
    for_keys h_data $(keys "$R/sim-hybrid.csv" 1 3)
    h_panel() {
        echo "set title \"$(cat "$T/h-$1.title")\" font ',9'"
        echo "plot \"$T/h-$1.csv\" using 2:xtic(1) title 'even split' lc rgb '#bbbbbb', '' using 3 title 'constant balance' lc rgb '#ccbb44', '' using 4 title 'variable balance' lc rgb '#4477aa', 1 with lines lc rgb 'black' notitle"
    }
    multiplot $n "Funneled (8 nodes x 2 threads) / pure MPI (16 processes), simulated on the journal's 8 dual nodes; grids MPI/funneled from the paper's Table 1" \
        "set style data histograms; set style histogram clustered gap 1; set yrange [0.6:1.2]
set key top left font ',7'; set xtics font ',7'; set ylabel 'time / pure MPI'" h_panel |
        gp sim-hybrid.png "1100,$((260 * ((n + 1) / 2) + 60))"
fi

# 4. scale: weak and strong, simulated and predicted; real time ------------------
if have sim-scale.csv; then
    for k in adi de; do
        for s in weak strong; do
            awk -F, -v k=$k -v s=$s 'NR > 1 && $1 == k && $2 == s { print $3 "," $7 "," $8 "," $11 }' \
                "$R/sim-scale.csv" | sort -t, -k1,1n > "$T/sc-$k-$s.csv"
        done
    done
    awk -F, 'NR > 1 && $2 == "grids" { sp = $4; sub(/x[0-9]+$/, "", sp);
        printf "%s\\n%s,%s,%s\n", sp, $5, $7, $8 }' "$R/sim-scale.csv" > "$T/sc-grids.csv"
    # the series' spaces, for the titles: the strong space, the weak block
    strong=$(awk -F, 'NR > 1 && $2 == "strong" { print $4; exit }' "$R/sim-scale.csv")
    weak=$(awk -F, 'NR > 1 && $2 == "weak" { split($4, x, "x"); split($5, g, "x");
        printf "%d x %d x %d", x[1] / g[1], x[2] / g[2], x[3]; exit }' "$R/sim-scale.csv")
    line() { # line FILE COLUMN TITLE STYLE: a plot clause, or nothing for an empty file
        [ -s "$1" ] && printf '"%s" using 1:%s with %s title "%s", ' "$1" "$2" "$4" "$3"; }
    color() { if [ "$1" = adi ]; then echo "#4477aa"; else echo "#ee6677"; fi; }
    pl() { # pl SCALING: simulated points and predicted lines of both kernels
        for k in adi de; do
            line "$T/sc-$k-$1.csv" 2 "$(echo $k | tr a-z A-Z) simulated" "points pt 7 ps 1.3 lc rgb '$(color $k)'"
            line "$T/sc-$k-$1.csv" 3 "$(echo $k | tr a-z A-Z) pipeline model" "lines lw 2 dt 2 lc rgb '$(color $k)'"
        done | sed 's/, $//'; }
    real() { for k in adi de; do for s in weak strong; do
                 d=1; [ $s = strong ] && d=2
                 line "$T/sc-$k-$s.csv" 4 "$(echo $k | tr a-z A-Z) $s" "linespoints lw 2 dt $d lc rgb '$(color $k)'"
             done; done | sed 's/, $//'; }
    gp sim-scale.png 1200,420 <<EOF
set multiplot layout 1,4 title "A modern cluster simulated (64 nodes x 64 cores, 100 Gbit/s): ADI and DE, tile height 64, topology.h's grid"
set logscale x 2; set xlabel "processes"; set key top left font ',8'
set title "weak: $weak per process"; set ylabel "simulated seconds"; set yrange [0:*]
plot $(pl weak)
set title "strong: $strong"
plot $(pl strong)
set title "real time of each simulation"; set ylabel "seconds (this machine)"
plot $(real)
unset logscale x; set xlabel ""; set title "grids: volume-optimal vs square"; set ylabel "simulated seconds"
set style data histograms; set style histogram clustered gap 1; set xtics font ',6'
set key top left Left reverse font ',7' samplen 1; set offsets 0, 0, graph 0.25, 0
plot "$T/sc-grids.csv" using 2:xtic(1) title "simulated" lc rgb '#4477aa', "" using 3 title "pipeline model (scale.sh)" lc rgb '#bbbbbb'
unset multiplot
EOF
fi

# 5. policies: every grid simulated and predicted; the two policies' picks -----
if have sim-policy.csv; then
    for k in adi de; do # label "grid\n(choice)", simulated ms, predicted ms
        awk -F, -v k=$k 'NR > 1 && $1 == "scale" && $2 == k {
            c = ($7 == "-") ? "" : "\\n(" $7 ")"; printf "%s%s,%s,%s\n", $6, c, 1e3 * $9, 1e3 * $8 }' \
            "$R/sim-policy.csv" > "$T/po-$k.csv"
    done
    sp=$(awk -F, 'NR > 1 && $1 == "scale" { print $3 " processes, " $4; exit }' "$R/sim-policy.csv")
    np=0    # one panel per kernel simulated (--quick: ADI alone)
    for k in adi de; do [ -s "$T/po-$k.csv" ] && np=$((np + 1)); done
    [ $np -gt 0 ] || np=1
    {
        echo "set multiplot layout 1,$np title \"Grid policies against simulation: $sp, tile height 64, modern cluster\" font ',9'"
        echo "set style data histograms; set style histogram clustered gap 1; set xtics font ',7'"
        echo "set ylabel 'milliseconds'; set yrange [0:*]; set key top right"
        for k in adi de; do
            [ -s "$T/po-$k.csv" ] || continue
            echo "set title '$(echo $k | tr a-z A-Z) (picks: comm, the volume policy; time, the time policy)'"
            echo "plot \"$T/po-$k.csv\" using 2:xtic(1) title 'simulated' lc rgb '#4477aa', '' using 3 title 'pipeline model' lc rgb '#bbbbbb'"
        done
        echo "unset multiplot"
    } | gp sim-policy.png "$((450 + 450 * np)),420"
fi
