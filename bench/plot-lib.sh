# bench/plot-lib.sh -- the start that bench/plot.sh and sim/plot.sh share
# (sourced, not run): their options, the results directory R, gnuplot's PNG
# terminal, the scratch folder T and gp().
#
# Set before sourcing it: PLOT (the script, as in its messages:
# bench/plot.sh), PLOT_RESULTS (the default results directory) and
# PLOT_MAKE (the make target that writes them).  Also keys(), for_keys()
# and multiplot(), below.  The script's lines 2 and 4
# are its --help text.
case "${1:-}" in
    -h|--help) echo "usage: sh $PLOT [RESULTS_DIR]"
               sed -n '2p;4p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "$PLOT: unknown option '$1' (usage: sh $PLOT [RESULTS_DIR])" >&2; exit 2 ;;
esac
R=${1:-${RESULTS:-$PLOT_RESULTS}}
[ -d "$R" ] || { echo "$PLOT: $R: no such directory (run make $PLOT_MAKE first)" >&2; exit 2; }
command -v gnuplot >/dev/null 2>&1 ||
    { echo "$PLOT: gnuplot is missing. Run:  sudo apt-get install -y gnuplot-nox" >&2; exit 1; }
if gnuplot -e 'set terminal pngcairo' >/dev/null 2>&1; then
    TERM_PNG="pngcairo noenhanced font 'sans,10' size"
else
    TERM_PNG="png noenhanced size"
fi
T=$R/.plot
mkdir -p "$T"
gp() { # gp OUT.png [W,H]: run the gnuplot program on stdin, writing OUT.png
    { printf 'set terminal %s %s\nset output "%s"\nset datafile separator ","\n' "$TERM_PNG" "${2:-1000,560}" "$R/$1"
      printf 'set style fill solid 0.85 border -1\nset grid ytics lc rgb "#dddddd"\nset key top left\n'
      cat; } | gnuplot || { echo "$PLOT: gnuplot failed on $1" >&2; exit 1; }
    echo "figure: $R/$1"
}
keys() { # keys FILE COLUMN...: the distinct values of the COLUMNs (joined by ':') in FILE's rows
         # after the header, in order of first appearance, each followed by a space
    keys_f=$1
    shift
    awk -F, -v cols="$*" 'BEGIN { nc = split(cols, c, " ") }
        NR > 1 { k = $c[1]; for (i = 2; i <= nc; i++) k = k ":" $c[i];
                 if (!(k in s)) { s[k] = 1; printf "%s ", k } }' "$keys_f"
}
for_keys() { # for_keys FN KEY...: `FN I KEY` for each KEY, I counting from 1 (a panel's
              # number); n is their count afterwards
    for_keys_fn=$1
    shift
    n=0
    for for_keys_k in "$@"; do
        n=$((n + 1))
        $for_keys_fn $n "$for_keys_k"
    done
}
multiplot() { # multiplot N TITLE SETTINGS PANEL: a gnuplot program of N panels, two a row, under
              # TITLE (font 9): the SETTINGS, then `PANEL i` writes panel i's commands
    echo "set multiplot layout $(( ($1 + 1) / 2 )),2 title \"$2\" font ',9'"
    printf '%s\n' "$3"
    multiplot_i=0
    while [ $multiplot_i -lt $1 ]; do
        multiplot_i=$((multiplot_i + 1))
        $4 $multiplot_i
    done
    echo "unset multiplot"
}
