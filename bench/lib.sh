# bench/lib.sh -- shared helpers of the bench/*.sh scripts (sourced, not run).
#
# Settings read from the environment (bench/run.sh sets them):
#   MPIEXEC   the MPI launcher                    (mpiexec)
#   RESULTS   where CSV files go                  (bench/results)
#   QUICK     1 for the reduced set of `make bench-quick`
#   RUNS      repetitions per case; a case's time is the median of its runs
#   B, DEMODIR, TILECTL  where the binaries are (the Makefile's, per MPI)
#
# Every measurement is a JSON line from a demo; the helpers below read
# numbers out of it with sed/awk, so the scripts need no JSON tool.

# --help: the calling script's header comment; no other arguments
case "${1:-}" in
    "") ;;
    -h|--help) echo "usage: [QUICK=1] [RUNS=N] [RESULTS=DIR] sh $0"
               sed -n '2,/^set -eu/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
    *) printf '%s: no arguments (settings come from the environment; see --help)\n' "$0" >&2
       exit 2 ;;
esac

# the Makefile's default MPI: MPICH's own launcher when it is installed
if [ -z "${MPIEXEC:-}" ]; then
    if command -v mpiexec.mpich >/dev/null 2>&1; then MPIEXEC=mpiexec.mpich; else MPIEXEC=mpiexec; fi
fi
RESULTS=${RESULTS:-bench/results}
QUICK=${QUICK:-0}
B=${B:-build}                       # build directory (bench programs)
DEMODIR=${DEMODIR:-demos}           # the demo binaries
TILECTL=${TILECTL:-./tilectl}
# Oversubscribed runs (more threads than cores) must let idle OpenMP threads
# sleep; on the real cores it changes nothing we measure.
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
mkdir -p "$RESULTS"
. tools/mpi-env.sh      # Open MPI: run as root, oversubscribe, yield

# jnum KEY < JSON: the number (or bare string) after "KEY": .
jnum() { sed -n "s/.*\"$1\": *\"\{0,1\}\([-+0-9a-zA-Z_.]*\)\"\{0,1\}.*/\1/p" | head -n 1; }

# jrows KEY < JSON: the nested array "KEY": [[a, b], [c, d]] as lines
# "rank thread value" (rank and thread from 0).
jrows() {
    sed -n "s/.*\"$1\": *\[\(\[[^]]*\]\(, *\[[^]]*\]\)*\)\].*/\1/p" | head -n 1 |
        awk '{ gsub(/\], *\[/, "\n"); gsub(/[][ ]/, ""); n = split($0, row, "\n");
               for (r = 1; r <= n; r++) { m = split(row[r], v, ",");
                   for (t = 1; t <= m; t++) print r - 1, t - 1, v[t] } }'
}

# jmax KEY < JSON: the largest value of a nested array (e.g. the maximum
# compute time over every process and thread).
jmax() { jrows "$1" | awk 'NR == 1 || $3 > m { m = $3 } END { print m + 0 }'; }

# median: the median of the numbers on stdin (one per line).
median() {
    sort -g | awk '{ a[NR] = $1 } END { if (NR == 0) print "nan";
        else print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}

# say TEXT: a progress line (stdout, unbuffered enough for `make`).
say() { printf '%s\n' "$*"; }

# die TEXT: stop the benchmark with a message.
die() { printf 'bench: %s\n' "$*" >&2; exit 1; }

# run_json NP PROGRAM ARGS...: run an MPI program that prints one JSON line
# and print that line; stop the benchmark if the program fails, prints no
# JSON, or ran on another number of processes (a binary of another MPI
# started by this launcher runs as NP separate 1-process jobs).
run_json() {
    rj_np=$1; shift
    rj_out=$($MPIEXEC -n "$rj_np" "$@" --json 2>"$RESULTS/.stderr") ||
        die "failed: $MPIEXEC -n $rj_np $* --json ($(tail -n 3 "$RESULTS/.stderr"))"
    rj_line=$(printf '%s\n' "$rj_out" | grep '^{' | tail -n 1)
    [ -n "$rj_line" ] || die "no JSON from: $MPIEXEC -n $rj_np $* --json"
    rj_p=$(printf '%s\n' "$rj_line" | sed -n -e 's/.*"processes": *\([0-9]*\).*/\1/p' \
                                           -e 's/.*"ranks": *\([0-9]*\).*/\1/p')
    [ "$rj_p" = "$rj_np" ] ||
        die "$* ran on ${rj_p:-?} processes, not $rj_np: is $MPIEXEC the MPI it was built with?"
    printf '%s\n' "$rj_line"
}

# ref_checksum KERNEL SPACE: the checksum of the plain sequential loop over
# SPACE (X1xX2xZ), computed once per bench run and kept in $RESULTS.
ref_checksum() {
    rc_f=$RESULTS/.ref-$1-$2
    if [ ! -s "$rc_f" ]; then
        rc_j=$(seq_run "$1" $(echo "$2" | tr x ' ')) || die "seq_kernels $1 $2 failed"
        echo "$rc_j" | jnum checksum > "$rc_f"
        [ -s "$rc_f" ] || { rm -f "$rc_f"; die "seq_kernels $1 $2 printed no checksum"; }
    fi
    cat "$rc_f"
}

# check_sum KERNEL SPACE JSON: stop unless the run's checksum is the plain loop's.
check_sum() {
    cs_got=$(echo "$3" | jnum checksum)
    [ "$cs_got" = "$(ref_checksum "$1" "$2")" ] ||
        die "$1 $2: checksum $cs_got differs from the sequential loop's $(ref_checksum "$1" "$2")"
}

# seq_checksum KERNEL X Y Z: the checksum of the plain sequential loop.
seq_run() { "$B/bench/seq_kernels" "$@"; }

# csv_median RAW KEYCOLS VALCOL...: medians of the columns VALCOL... of RAW
# grouped by the first KEYCOLS columns, one line per group in first-seen
# order: the key columns, then the medians (RAW has a header line).
csv_median() {
    cm_raw=$1 cm_k=$2
    shift 2
    awk -F, -v k="$cm_k" -v cols="$*" 'BEGIN { nc = split(cols, col, " ") }
      NR > 1 {
        key = $1; for (i = 2; i <= k; i++) key = key "," $i;
        if (!(key in n)) order[++nk] = key;
        m = ++n[key]; for (c = 1; c <= nc; c++) v[key, c, m] = $(col[c]) }
      END { for (j = 1; j <= nk; j++) { key = order[j]; m = n[key]; line = key;
              for (c = 1; c <= nc; c++) {
                  for (a = 1; a <= m; a++) s[a] = v[key, c, a] + 0;
                  for (a = 2; a <= m; a++) { x = s[a]; b = a - 1;
                      while (b > 0 && s[b] > x) { s[b + 1] = s[b]; b-- } s[b + 1] = x }
                  line = line sprintf(",%.6f", (m % 2) ? s[(m + 1) / 2] : (s[m / 2] + s[m / 2 + 1]) / 2) }
              print line } }' "$cm_raw"
}

# csv_speedup RAW OUT COL2: OUT = "kernel,COL2,variant,seconds,speedup_over_plain"
# from RAW (kernel,COL2,variant,run,seconds): the median seconds of each
# variant and plain / variant, the "plain" variant of the same kernel as 1.
csv_speedup() {
    echo "kernel,$3,variant,seconds,speedup_over_plain" > "$2"
    csv_median "$1" 3 5 | awk -F, '{ if ($3 == "plain") base[$1] = $4; l[NR] = $0; k[NR] = $1; t[NR] = $4 }
        END { for (i = 1; i <= NR; i++) printf "%s,%.3f\n", l[i], base[k[i]] / t[i] }' >> "$2"
}
