#!/bin/sh
# bench/plot.sh -- draw the PNG figures of bench/results/*.csv with gnuplot.
#   sh bench/plot.sh [RESULTS_DIR]
# Draws a figure for every CSV present; a missing CSV is skipped.
set -eu
PLOT=bench/plot.sh PLOT_RESULTS=bench/results PLOT_MAKE=bench
. "$(dirname "$0")/../bench/plot-lib.sh"
have() { [ -s "$R/$1" ]; }

# 1. topology: wall time of the two grids at 2 processes ---------------------
if have topology-time.csv; then
    for k in adi de; do
        awk -F, -v k=$k 'NR > 1 && $1 == k { sub(/x[0-9]+$/, "", $2);
            printf "%s\\n%s | %s,1,%s\n", $2, $4, $3, $7 }' "$R/topology-time.csv" > "$T/tt-$k.csv"
    done
    gp topology-time.png <<EOF
set multiplot layout 1,2 title "Communication-optimal grid vs balanced (latency-optimal) grid, 2 processes: wall time / balanced grid's"
set style data histograms; set style histogram clustered gap 1
set yrange [0:1.2]; set ylabel "time, normalised to the balanced grid"; set key below; set bmargin 6
set title "ADI"; plot "$T/tt-adi.csv" using 2:xtic(1) title "balanced grid", "" using 3 title "communication-optimal grid"
set title "DE";  plot "$T/tt-de.csv"  using 2:xtic(1) title "balanced grid", "" using 3 title "communication-optimal grid"
unset multiplot
EOF
fi

# 2. topology: granularity, ADI 64x256 --------------------------------------
if have topology-granularity.csv; then
    for p in comm latency; do
        awk -F, -v p=$p 'NR > 1 && $3 == p { print $4 "," $5 "," $6 "," $7 }' \
            "$R/topology-granularity.csv" > "$T/tg-$p.csv"
    done
    sp=$(sed -n 2p "$R/topology-granularity.csv" | cut -d, -f2)
    gp topology-granularity.png <<EOF
set multiplot layout 1,3 title "ADI $sp, 2 processes: communication-optimal vs balanced grid, by tile height z"
set logscale x; set xlabel "tile height z"; set key top right; set yrange [0:*]
set title "total time (s)"; plot "$T/tg-comm.csv" using 1:2 with linespoints lw 2 title "comm.-optimal", "$T/tg-latency.csv" using 1:2 with linespoints lw 2 title "balanced"
set title "max compute time (s)"; plot "$T/tg-comm.csv" using 1:3 with linespoints lw 2 title "comm.-optimal", "$T/tg-latency.csv" using 1:3 with linespoints lw 2 title "balanced"
set title "max communication time (s)"; plot "$T/tg-comm.csv" using 1:4 with linespoints lw 2 title "comm.-optimal", "$T/tg-latency.csv" using 1:4 with linespoints lw 2 title "balanced"
unset multiplot
EOF
fi

# 3. topology: exact volumes at 12 and 16 processes ---------------------------
if have topology-volume.csv; then
    sets=$(keys "$R/topology-volume.csv" 1 3)
    tv_data() { # tv_data I KERNEL:PROCS: panel I's rows and title
        k=${2%:*}; np=${2#*:}
        # space label, volume ratio, messages ratio, published time ratio (1 - improvement)
        awk -F, -v k="$k" -v np="$np" 'NR > 1 && $1 == k && $3 == np && $4 == "comm" {
            sp = $2; sub(/x[0-9]+$/, "", sp); pub = "?";
            if ($12 != "") { v = $12; sub(/^[^0-9]*/, "", v); sub(/[^0-9].*$/, "", v); pub = 1 - v / 100 }
            printf "%s\\n%s,%s,%s,%s\n", sp, $5, $10, $11, pub }' "$R/topology-volume.csv" > "$T/tv-$1.csv"
        eval "title_$1=\"\$k, \$np processes\""
    }
    for_keys tv_data $sets
    {
        echo "set multiplot layout 2,2 title \"Communication-optimal grid at the papers' process counts: measured total bytes and messages / balanced grid's, and the published time ratio\""
        echo "set style data histograms; set style histogram clustered gap 1; set yrange [0:1.25]"
        echo "set ylabel 'ratio to the balanced grid'; set key top left font ',8'; set bmargin 4"
        i=0
        for s in $sets; do
            i=$((i + 1)); eval "t=\$title_$i"
            t=$(echo "$t" | sed 's/^de2,/DE set 2 (1024 x X2),/; s/^de,/DE set 1,/; s/^adi,/ADI,/')
            pub=""
            grep -q ',[0-9.]*$' "$T/tv-$i.csv" && pub=", '' using 4 title 'published time ratio'"
            echo "set title \"$t\"; plot \"$T/tv-$i.csv\" using 2:xtic(1) title 'bytes', '' using 3 title 'messages'$pub"
        done
        echo "unset multiplot"
    } | gp topology-volume.png 1000,680
fi

# 4. programming models ----------------------------------------------------
if have models.csv; then
    for k in adi de; do
        for st in cores over2x; do
            awk -F, -v k=$k -v st=$st 'NR > 1 && $1 == k && $3 == st {
                sp = $2; sub(/x[0-9]+$/, "", sp);
                if (!(sp in seen)) { seen[sp] = 1; ord[++n] = sp }
                v[sp, ++c[sp]] = $9 }
              END { for (i = 1; i <= n; i++) { sp = ord[i]; printf "%s", sp;
                    for (j = 1; j <= c[sp]; j++) printf ",%s", v[sp, j]; printf "\n" } }' \
                "$R/models.csv" > "$T/m-$k-$st.csv"
        done
    done
    cols="2 title 'pure MPI', '' using 3 title 'fine', '' using 4 title 'funneled', '' using 5 title 'funneled constant', '' using 6 title 'funneled variable', '' using 7 title 'funneled adaptive', '' using 8 title 'multiple'"
    gp models.png 1000,680 <<EOF
set yrange [0:1.5]
set multiplot layout 2,2 title "Programming models, wall time normalised to pure MPI (lower is better)"
set style data histograms; set style histogram clustered gap 1
set key below horizontal font ',8'
set title "ADI, 2 cores: MPI 2 processes, hybrids 1 x 2 threads"; plot "$T/m-adi-cores.csv" using $(echo "$cols" | sed 's/^2/2:xtic(1)/')
set title "DE, 2 cores: MPI 2 processes, hybrids 1 x 2 threads"; plot "$T/m-de-cores.csv" using $(echo "$cols" | sed 's/^2/2:xtic(1)/')
set title "ADI, 2x oversubscribed: MPI 4 processes, hybrids 2 x 2"; plot "$T/m-adi-over2x.csv" using $(echo "$cols" | sed 's/^2/2:xtic(1)/')
set title "DE, 2x oversubscribed: MPI 4 processes, hybrids 2 x 2"; plot "$T/m-de-over2x.csv" using $(echo "$cols" | sed 's/^2/2:xtic(1)/')
unset multiplot
EOF
fi

# 5. granularity of the models ----------------------------------------------
if have granularity.csv; then
    ks=$(keys "$R/granularity.csv" 1)
    {
        echo "set multiplot layout 1,$(echo $ks | wc -w) title 'Programming models by tile height z, 2 cores (MPI 2 processes, hybrids 1 x 2 threads)'"
        echo "set logscale x; set xlabel 'tile height z'; set ylabel 'seconds'; set key top center; set yrange [0:*]"
        for k in $ks; do
            sp=$(awk -F, -v k=$k 'NR > 1 && $1 == k { print $2; exit }' "$R/granularity.csv")
            pl=""
            for m in mpi fine funneled multiple; do
                awk -F, -v k=$k -v m=$m 'NR > 1 && $1 == k && $3 == m { print $7 "," $8 }' \
                    "$R/granularity.csv" > "$T/g-$k-$m.csv"
                pl="$pl${pl:+, }\"$T/g-$k-$m.csv\" using 1:2 with linespoints lw 2 title '$m'"
            done
            echo "set title '$(echo $k | tr a-z A-Z) $sp'; plot $pl"
        done
        echo "unset multiplot"
    } | gp granularity.png
fi

# 5b. the tile height: measured sweep, the model's curve, the plan's choice --
if have height-sweep.csv && have height-summary.csv; then
    ks=$(awk -F, 'NR > 1 && !($1 in s) { s[$1] = 1; printf "%s ", $1 }' "$R/height-sweep.csv")
    {
        echo "set multiplot layout 1,$(echo $ks | wc -w) title 'Tile height z at 2 processes: measured (median) and the pipeline model (costs the plan measured)'"
        echo "set logscale x; set xlabel 'tile height z'; set ylabel 'seconds'; set key top left; set yrange [0:*]"
        for k in $ks; do
            awk -F, -v k=$k 'NR > 1 && $1 == k { print $2 "," $3 "," $4 }' "$R/height-sweep.csv" > "$T/h-$k.csv"
            awk -F, -v k=$k 'NR > 1 && $1 == k { print $3 "," $4 }' "$R/height-summary.csv" > "$T/hc-$k.csv"
            awk -F, -v k=$k 'NR > 1 && $1 == k { print $5 "," $6 }' "$R/height-summary.csv" > "$T/hn-$k.csv"
            sp=$(awk -F, -v k=$k 'NR > 1 && $1 == k { print $2; exit }' "$R/height-summary.csv")
            echo "set title '$(echo $k | tr a-z A-Z) $sp'; plot \"$T/h-$k.csv\" using 1:2 with linespoints lw 2 pt 7 title 'measured', \"$T/h-$k.csv\" using 1:3 with lines lw 2 dt 2 title 'model T(z)', \"$T/hc-$k.csv\" using 1:2 with points pt 9 ps 2.5 title 'plan chose (first run)', \"$T/hn-$k.csv\" using 1:2 with points pt 5 ps 2 title 'after timing the body'"
        done
        echo "unset multiplot"
    } | gp height.png
fi

# 6. thread balance -----------------------------------------------------------
if have balance.csv; then
    ks=$(awk -F, 'NR > 1 && !($1 in s) { s[$1] = 1; printf "%s ", $1 }' "$R/balance.csv")
    {
        echo "set multiplot layout $(echo $ks | wc -w),1 title 'Funneled model, 2 processes x 2 threads: where each thread spends the run (p = process, t = thread; t0 is the master)'"
        echo "set style data histograms; set style histogram rowstacked; set boxwidth 0.8; set ylabel 'seconds'"
        echo "set key outside right; set xtics rotate by -30 font ',8'"
        for k in $ks; do
            awk -F, -v k=$k 'NR > 1 && $1 == k {
                printf "%s p%s t%s (%.2f),%s,%s,%s\n", $3, $4, $5, $11, $6, $7, $8 }' \
                "$R/balance.csv" > "$T/b-$k.csv"
            sp=$(awk -F, -v k=$k 'NR > 1 && $1 == k { print $2; exit }' "$R/balance.csv")
            echo "set title '$(echo $k | tr a-z A-Z) $sp (policy, process, thread, final factor)'"
            echo "plot '$T/b-$k.csv' using 2:xtic(1) title 'compute' lc rgb '#4477aa', '' using 3 title 'communication' lc rgb '#ee6677', '' using 4 title 'idle' lc rgb '#cccccc'"
        done
        echo "unset multiplot"
    } | gp balance.png "1000,$((330 * $(echo $ks | wc -w) + 60))"
fi

# 7. scatter -------------------------------------------------------------------
if have scatter-seismic.csv; then
    for c in uniform descending ascending; do
        awk -F, -v c=$c 'NR > 1 && $1 == c { print $3 "," $5 }' "$R/scatter-seismic.csv" > "$T/s-$c.csv"
    done
    lat() { awk -F, -v c="$1" '$1 == c { print $5 }' "$R/scatter-makespan.csv"; }
    gp scatter-seismic.png <<EOF
set multiplot layout 1,3 title "Seismic tomography, 817,101 rays on the paper's 16 processors: predicted finish times (bars) and the paper's measured latest finish (line)"
set style data histograms; set boxwidth 0.8; set yrange [0:900]; set ylabel "seconds"
set xtics rotate by -60 font ',7'; set key top left font ',8'
set title "uniform (MPI_Scatter), Fig. 2"; plot "$T/s-uniform.csv" using 2:xtic(1) title "predicted" lc rgb '#ee6677', $(lat uniform) with lines lw 2 dt 2 lc rgb 'black' title "paper: $(lat uniform) s"
set title "balanced, descending bandwidth, Fig. 3"; plot "$T/s-descending.csv" using 2:xtic(1) title "predicted" lc rgb '#4477aa', $(lat descending) with lines lw 2 dt 2 lc rgb 'black' title "paper: $(lat descending) s"
set title "balanced, ascending bandwidth, Fig. 4"; plot "$T/s-ascending.csv" using 2:xtic(1) title "predicted" lc rgb '#228833', $(lat ascending) with lines lw 2 dt 2 lc rgb 'black' title "paper: $(lat ascending) s"
unset multiplot
EOF
fi
if have scatter-demo.csv; then
    awk -F, 'NR > 1 { printf "rank %s (%sx slower),%s,%s,%s\n", $1, $2, $4, $6, $7 }' "$R/scatter-demo.csv" > "$T/sd.csv"
    gp scatter-demo.png <<EOF
set title "demos/scatter on this machine: finish time of each rank, MPI_Scatter vs balanced MPI_Scatterv"
set style data histograms; set style histogram clustered gap 1; set ylabel "seconds"; set yrange [0:*]
plot "$T/sd.csv" using 2:xtic(1) title "uniform (MPI_Scatter)" lc rgb '#ee6677', "" using 3 title "balanced (slb_scatterv)" lc rgb '#4477aa', "" using 4 title "balanced, predicted" lc rgb '#bbbbbb'
EOF
fi

# 8. overhead -------------------------------------------------------------------
if have overhead.csv; then
    awk -F, 'NR > 1 { k = toupper($1) " " $2; if (!(k in s)) { s[k] = 1; o[++n] = k } v[k, $3] = $4 }
        END { for (i = 1; i <= n; i++) printf "%s,%s,%s,%s,%s,%s\n", o[i], v[o[i], "plain"],
              v[o[i], "toolkit-planes-z100"], v[o[i], "toolkit-z-z100"],
              v[o[i], "toolkit-planes-z10"], v[o[i], "toolkit-z-z10"] }' "$R/overhead.csv" > "$T/o.csv"
    gp overhead.png <<EOF
set title "One process: the plain sequential loop nest against the toolkit (seconds, lower is better)"
set style data histograms; set style histogram clustered gap 1; set ylabel "seconds"; set yrange [0:*]
set key top left
plot "$T/o.csv" using 2:xtic(1) title "plain x, y, z loop" lc rgb '#bbbbbb', "" using 3 title "toolkit, plane order, z = 100" lc rgb '#4477aa', "" using 4 title "toolkit, Z inner, z = 100" lc rgb '#228833', "" using 5 title "toolkit, plane order, z = 10" lc rgb '#66ccee', "" using 6 title "toolkit, Z inner, z = 10" lc rgb '#ccbb44'
EOF
fi

# 9. kernels (seidel, Smith-Waterman) ------------------------------------------
if have kernels.csv; then
    awk -F, 'NR > 1 { k = $1 " " $2; if (!(k in s)) { s[k] = 1; o[++n] = k } v[k, $3] = $4 }
        END { for (i = 1; i <= n; i++) printf "%s,%s,%s,%s\n", o[i], v[o[i], "plain"],
              v[o[i], "toolkit-1"], v[o[i], "toolkit-2"] }' "$R/kernels.csv" > "$T/k.csv"
    gp kernels.png <<EOF
set title "seidel-2d and Smith-Waterman: the plain loop against the toolkit (seconds, lower is better)"
set style data histograms; set style histogram clustered gap 1; set ylabel "seconds"; set yrange [0:*]
set key top left
plot "$T/k.csv" using 2:xtic(1) title "plain loop" lc rgb '#bbbbbb', "" using 3 title "toolkit, 1 process" lc rgb '#4477aa', "" using 4 title "toolkit, 2 processes" lc rgb '#228833'
EOF
fi
# 9b. anchors: PRK's p2p and NPB's LU beside the toolkit ---------------------------
if have anchors.csv; then
    awk -F, 'NR > 1 { printf "\"%s %s\\n%s process%s\",%s\n", $1, $2, $3, $3 == 1 ? "" : "es", $7 }' \
        "$R/anchors.csv" > "$T/an.csv"
    ymax=$(awk -F, 'NR > 1 && $7 > m { m = $7 } END { print (m * 1.15 > 1.25 ? m * 1.15 : 1.25) }' "$R/anchors.csv")
    gp anchors.png <<EOF
set title "The toolkit against other people's MPI codes: its rate / theirs (PRK's Synch_p2p, NPB's LU; above 1: faster)"
set style data histograms; set style histogram clustered gap 1; set ylabel "toolkit / anchor"; set yrange [0:$ymax]
set datafile separator ","; set key top left; set bmargin 5
plot "$T/an.csv" using 2:xtic(1) title "toolkit / anchor" lc rgb '#4477aa', 1 with lines dt 2 lc rgb '#000000' title "the anchor"
EOF
fi
# 10. speed: one process in G points/s against the limit; 2 cores ----------------
if have speed.csv; then
    for k in adi de; do
        awk -F, -v k=$k 'NR > 1 && $1 == k && $4 !~ /^limit/ {
            if (!($4 in s)) { s[$4] = 1; o[++n] = $4 } g[$4, $3] = $6 }
            END { for (i = 1; i <= n; i++) printf "%s,%s,%s\n", o[i], g[o[i], "O2"], g[o[i], "native"] }' \
            "$R/speed.csv" > "$T/sp-$k.csv"
    done
    lim() { awk -F, -v k="$1" -v f="$2" -v v="$3" '$1 == k && $3 == f && $4 == v { print $6 + 0; exit }' "$R/speed.csv"; }
    line() { # line KERNEL FLAGS VARIANT TITLE STYLE: a limit as a horizontal line, if measured
        l_v=$(lim "$1" "$2" "$3")
        [ -z "$l_v" ] || printf ', %s with lines %s title "%s: %s G/s"' "$l_v" "$5" "$4" "$l_v"; }
    # the issue's targets for the plan's own choices (auto): ADI 1.2 / 2.2, DE 0.5 / 1.0 G/s
    panel() { # panel KERNEL TITLE TARGET_O2 TARGET_NATIVE
        echo "set title '$2'; set xrange [-0.6:*]"
        printf 'plot "%s" using 2:xtic(1) title "-O2" lc rgb "#4477aa", "" using 3 title "-O2 -march=native" lc rgb "#ee6677"' "$T/sp-$1.csv"
        line "$1" O2 limit "limit, -O2" "lw 2 lc rgb '#4477aa'"
        line "$1" native limit "limit, -march=native" "lw 2 lc rgb '#ee6677'"
        line "$1" native limit-512 "limit, 512-bit vectors" "lw 2 dt 2 lc rgb '#aa3377'"
        printf ', %s with lines lw 2 dt 3 lc rgb "#4477aa" title "target (auto), -O2: %s", %s with lines lw 2 dt 3 lc rgb "#ee6677" title "target (auto), native: %s"\n' "$3" "$3" "$4" "$4"
    }
    cpanel=
    if have speed-cores.csv; then
        awk -F, 'NR > 1 && $4 != "toolkit-1" { k = toupper($1) " " $3; if (!(k in s)) { s[k] = 1; o[++n] = k }
            v[k, $4] = $9 }
            END { for (i = 1; i <= n; i++) printf "%s,%s,%s\n", o[i], v[o[i], "mpi-2"], v[o[i], "funneled-1x2"] }' \
            "$R/speed-cores.csv" > "$T/spc.csv"
        cpanel=1
    fi
    sp=$(awk -F, 'NR > 1 { print $2; exit }' "$R/speed.csv")
    {
        echo "set multiplot layout 1,$([ -n "$cpanel" ] && echo 3 || echo 2) title \"Tiles at SIMD speed, $sp: one process, G points/s of each variant (bars) against the machine's limit for the same expression on independent points (lines)\""
        echo "set style data histograms; set style histogram clustered gap 1; set ylabel 'G points/s'; set yrange [0:*]"
        echo "set key below font ',8' maxrows 4; set bmargin 9; set xtics font ',9'"
        panel adi "ADI (divide by 3)" 1.2 2.2
        panel de "DE (two divisions by 7)" 0.5 1.0
        if [ -n "$cpanel" ]; then
            echo "set title \"2 cores: speedup over the toolkit on 1 process\"; set ylabel 'speedup'; set yrange [0:*]"
            echo "plot '$T/spc.csv' using 2:xtic(1) title 'pure MPI, 2 processes' lc rgb '#228833', '' using 3 title 'funneled, 1 process x 2 threads' lc rgb '#ccbb44', 1.7 with lines lw 2 dt 2 lc rgb 'black' title 'target: 1.7', 1 with lines lw 1 lc rgb '#888888' title '1 process'"
        fi
        echo "unset multiplot"
    } | gp speed.png 1200,600
fi
rm -rf "$T"
