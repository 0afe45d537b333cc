#!/bin/sh
# tests/cli_bench.sh -- the benchmark scripts' plumbing (not their timings):
# the JSON and CSV helpers of bench/lib.sh on fixed inputs, bench/scatter.sh's
# predictions for the paper's Table 1, bench/speed.sh and bench/memory.sh
# in quick mode (their CSV rows, the checksums they compare, and that a
# checksum unlike the plain loop's stops them), and bench/plot.sh's figures.
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

scratch cli_bench
# bench/inner_order's per_thread times (the round of the median wall time):
# compute, comm and idle for every rank and thread; every thread computes
# for a time > 0, its three times add up to at most the wall time, and
# with 2 ranks rank 1's row is its own, not rank 0's.  (Which round they
# come from cannot be seen from outside: in a run this small, the run's
# start and end, which no thread's times count, can be half of it.)
for io in "1 funneled 2" "2 mpi 1" "2 funneled 2"; do
    set -- $io
    if [ -x "$B/bench/inner_order" ]; then
        run_job "$1" $B/bench/inner_order adi 16 64 512 auto 0 3 "$2" "$3"
        s=$(jnum seconds < "$T/out")
        for k in compute comm idle; do jrows $k < "$T/out" > "$T/$k"; done
        v=$(paste "$T/compute" "$T/comm" "$T/idle" | awk -v s="$s" -v n=$(($1 * $3)) '
            $1 != $4 || $1 != $7 || $2 != $5 || $2 != $8 { print "rows out of line: " $0; bad = 1; exit }
            $3 <= 0 || $6 < 0 || $9 < 0 || $3 + $6 + $9 > s * 1.01 + 1e-4 {
                print "rank " $1 " thread " $2 ": " $3 " + " $6 " + " $9 " (wall time " s ")"
                bad = 1; exit }
            { m++; row[$1] = row[$1] " " $3 " " $6 " " $9 }
            END {
                if (bad) exit
                if (m != n) print m + 0 " rows for " n " threads"
                else if ((1 in row) && row[1] == row[0]) print "rank 1 has the times of rank 0:" row[0]
                else print "ok" }')
        [ $rc -eq 0 ] && [ "$v" = ok ] &&
            ok "bench/inner_order, $2 at $1 x $3: per_thread compute, comm and idle times" ||
            { notok "bench/inner_order, $2 at $1 x $3: status $rc, $v"; diag < "$T/out"; diag < "$T/err"; }
    else
        notok "bench/inner_order not built"
    fi
done
set --

# bench/speed.sh, quick: every kernel x flags x variant row, one checksum
# per kernel (the plain loop's) in every row but the limit's
NB=$B/bench-native

if [ "${CHECK_TIER:-}" = quick ]; then
    skip "bench/speed.sh" "the quick tier does not build $NB/ (make check-full does)"
elif [ -x "$B/bench/inner_order" ] && [ -x "$B/bench/limit" ] && [ -x "$NB/inner_order" ] &&
   [ -x "$NB/seq_kernels" ] && [ -x "$NB/limit" ] && [ -x "$NB/limit-512" ]; then
    if sh bench/speed.sh > "$R/speed.log" 2>&1; then
        s=$R/speed.csv c=$R/speed-cores.csv
        want="adi,O2,plain adi,O2,planes adi,O2,z adi,O2,hyper adi,O2,auto adi,O2,limit
              adi,native,plain adi,native,planes adi,native,z adi,native,hyper adi,native,auto
              adi,native,limit adi,native,limit-512"
        got=$(awk -F, 'NR > 1 { print $1 "," $3 "," $4 }' "$s" | tr '\n' ' ')
        [ "$got" = "$(echo $want $(echo $want | sed 's/adi,/de,/g')) " ] &&
            ok "bench/speed.sh: a row per kernel, flags (O2, native) and variant, the limits too" ||
            { notok "bench/speed.sh rows: $got"; diag < "$s"; }
        [ "$(awk -F, 'NR > 1 && $4 !~ /^limit/ { print $1, $7 }' "$s" | sort -u | wc -l)" = 2 ] &&
            [ "$(awk -F, 'NR > 1 && $4 ~ /^limit/ { print $1, $7 }' "$s" | sort -u | wc -l)" = 2 ] &&
            [ "$(awk -F, 'NR > 1 && ($5 <= 0 || $6 <= 0)' "$s")" = "" ] &&
            ok "bench/speed.sh: one checksum per kernel in its plain, toolkit and limit rows, times > 0" ||
            { notok "bench/speed.sh checksums or times"; diag < "$s"; }
        [ "$(awk -F, 'NR > 1 && $4 == "auto" { print $8 }' "$s" | sort -u)" = hyper ] &&
            ok "bench/speed.sh: the plan's own choice (auto) ran the hyperplane order at 64x256" ||
            { notok "bench/speed.sh: auto ran $(awk -F, '$4 == "auto" { print $8 }' "$s" | tr '\n' ' ')"; }
        [ "$(awk -F, 'NR > 1 { print $1 "," $3 "," $4 "," $5 "," $6 }' "$c" | tr '\n' ' ')" = \
          "adi,O2,toolkit-1,1,1 adi,O2,mpi-2,2,1 adi,O2,funneled-1x2,1,2 adi,native,toolkit-1,1,1 adi,native,mpi-2,2,1 adi,native,funneled-1x2,1,2 de,O2,toolkit-1,1,1 de,O2,mpi-2,2,1 de,O2,funneled-1x2,1,2 de,native,toolkit-1,1,1 de,native,mpi-2,2,1 de,native,funneled-1x2,1,2 " ] &&
            [ "$(awk -F, 'NR > 1 && $4 == "toolkit-1" { print $9 }' "$c" | sort -u)" = 1.000 ] &&
            [ "$(awk -F, 'NR > 1 { if ($4 == "toolkit-1") b[$1 $3] = $7; k[NR] = $1 $3; t[NR] = $7; x[NR] = $9 }
                 END { for (i in t) { d = b[k[i]] / t[i] - x[i]; if (d > 0.001 || d < -0.001) print i } }' "$c")" = "" ] &&
            ok "bench/speed.sh: 2-core speedups over the toolkit's 1-process run, per kernel and flags" ||
            { notok "bench/speed.sh: speed-cores.csv"; diag < "$c"; }
    else
        notok "bench/speed.sh failed"; tail -n 5 "$R/speed.log" | diag
    fi
    # a plain loop whose checksum is not the toolkit's stops the benchmark
    F=$R/fakeb
    mkdir -p "$F/bench"
    for p in inner_order limit; do ln -s "$(cd "$B/bench" && pwd)/$p" "$F/bench/$p"; done
    printf '#!/bin/sh\necho "{\\"kernel\\": \\"$1\\", \\"seconds\\": 0.5, \\"checksum\\": \\"0123456789abcdef\\"}"\n' \
        > "$F/bench/seq_kernels"
    chmod +x "$F/bench/seq_kernels"
    ln -s "$(cd "$NB" && pwd)" "$F/bench-native"
    if RESULTS=$R/fake B=$F sh bench/speed.sh > "$R/fake.log" 2>&1; then
        notok "bench/speed.sh went on with a checksum unlike the plain loop's"
    else
        grep -q 'checksum [0-9a-f]* differs from the sequential loop.s 0123456789abcdef' "$R/fake.log" &&
            ok "bench/speed.sh stops when a run's checksum is not the plain loop's" ||
            { notok "bench/speed.sh failed otherwise"; tail -n 3 "$R/fake.log" | diag; }
    fi
    rm -rf "$R/fake" "$F"
    speed_ran=1
else
    notok "bench/speed.sh: build/bench/{inner_order,limit} and $NB/ not built (make check-build)"
fi

# bench/memory.sh, quick (ADI): 2 programs x 2 heights x Z and 10 Z
if [ -x "$D/adi" ] && [ -x "$B/bench/inner_order" ] && /usr/bin/time -f %M true >/dev/null 2>&1; then
    if sh bench/memory.sh > "$R/memory.log" 2>&1; then
        m=$R/memory.csv
        [ "$(awk -F, 'NR > 1 { print $1 "," $2 "," $3 "," $4 }' "$m" | sort | tr '\n' ' ')" = \
          "adi,demo,64,64x256x256 adi,demo,64,64x256x2560 adi,demo,chosen,64x256x256 adi,demo,chosen,64x256x2560 adi,toolkit,64,64x256x256 adi,toolkit,64,64x256x2560 adi,toolkit,chosen,64x256x256 adi,toolkit,chosen,64x256x2560 " ] &&
            [ "$(awk -F, 'NR > 1 && ($6 < 1000 || ($4 ~ /x256$/ && $7 != "1.000"))' "$m")" = "" ] &&
            [ "$(awk -F, 'NR > 1 && $3 == 64 && $5 != 64' "$m")" = "" ] &&
            ok "bench/memory.sh: the largest RSS of each case at Z and 10 Z, ratios to Z" ||
            { notok "bench/memory.sh: memory.csv"; diag < "$m"; }
    else
        notok "bench/memory.sh failed"; tail -n 5 "$R/memory.log" | diag
    fi
else
    skip "bench/memory.sh" "demos/adi, bench/inner_order or GNU time (/usr/bin/time) missing"
fi

# bench/anchors.sh: the anchors' plumbing, on stand-ins the test writes (no
# one else's code): a "PRK" tree whose MPI1/Synch_p2p builds a program that
# prints PRK's lines, an "NPB" tree whose LU prints NPB's, and stand-in
# demos; the toolkit's side is otherwise the real demos/p2p and demos/lu.
if [ -x "$D/p2p" ] && [ -x "$D/lu" ]; then
    fk=$R/fake
    mkdir -p "$fk/prk/MPI1/Synch_p2p" "$fk/prk/common" "$fk/prk/include" "$fk/npb/LU" "$fk/npb/config" \
             "$fk/demos"
    : > "$fk/prk/common/MPI.defs"
    # fake_main RATE_LABEL RATE PROCS_LABEL OK_LINE BAD_LINE BAD_VAR: an MPI
    # program printing them (BAD_LINE for OK_LINE when BAD_VAR is set; one
    # process more than it has when FAKE_RANKS is set)
    fake_main() {
        printf '#include <mpi.h>\n#include <stdio.h>\n#include <stdlib.h>\n'
        printf 'int main(int argc, char **argv) { int n, r; MPI_Init(&argc, &argv);\n'
        printf '  MPI_Comm_size(MPI_COMM_WORLD, &n); MPI_Comm_rank(MPI_COMM_WORLD, &r);\n'
        printf '  if (r == 0) printf("%s = %%d\\n%%s\\n%s %s\\n", n + (getenv("FAKE_RANKS") != NULL),\n' "$3" "$1" "$2"
        printf '                    getenv("%s") ? "%s" : "%s");\n' "$6" "$5" "$4"
        printf '  MPI_Finalize(); return 0; }\n'
    }
    fake_main "Rate (MFlops/s):" "1000.0 Avg time (s): 0.5" "Number of ranks" "Solution validates" \
        "ERROR: solution does not validate" FAKE_BAD > "$fk/prk/MPI1/Synch_p2p/p2p.c"
    printf 'include ../../common/make.defs\np2p: p2p.c\n\t$(MPICC) $(DEFAULT_OPT_FLAGS) -o p2p p2p.c\n' \
        > "$fk/prk/MPI1/Synch_p2p/Makefile"
    fake_main "Mop/s total =" "2000.0" "Total processes" "Verification = SUCCESSFUL" \
        "Verification = UNSUCCESSFUL" FAKE_BAD > "$fk/npb/LU/lu.c"
    : > "$fk/npb/LU/Makefile"
    printf '.PHONY: LU\nLU:\n\tmkdir -p bin && $(MPICC) -o bin/lu.$(CLASS).x LU/lu.c\n' > "$fk/npb/Makefile"
    : > "$fk/npb/config/make.def"
    fake_main "Rate (MFlops/s):" "500.0 Avg time (s): 1.0" "Number of ranks" "Solution validates" \
        "ERROR: solution does not validate" FAKE_DEMO_BAD > "$fk/demos/p2p.c"
    fake_main "Mop/s total =" "3000.0" "Total processes" "Verification    =               SUCCESSFUL" \
        "Verification    =             UNSUCCESSFUL" FAKE_DEMO_BAD > "$fk/demos/lu.c"
    $MPICC -o "$fk/demos/p2p" "$fk/demos/p2p.c" && $MPICC -o "$fk/demos/lu" "$fk/demos/lu.c" ||
        notok "the stand-in demos did not build"
    # an VAR=VALUE...: bench/anchors.sh, quick, one run, its copies under $R
    an() { env RESULTS="$R/an" QUICK=1 RUNS=1 MPIFC="$MPICC" ANCHOR_BUILD="$R/anchors" "$@" sh bench/anchors.sh 2>&1; }
    # stops WHAT TEXT VAR=VALUE...: anchors.sh with those settings exits
    # non-zero saying TEXT (grep's pattern)
    stops() {
        s_what=$1 s_text=$2
        shift 2
        if s_out=$(an "$@"); then
            notok "bench/anchors.sh, $s_what: exit 0"; echo "$s_out" | tail -n 5 | diag
        elif echo "$s_out" | grep -q -- "$s_text"; then
            ok "bench/anchors.sh stops: $s_what"
        else notok "bench/anchors.sh, $s_what: the message"; echo "$s_out" | tail -n 5 | diag; fi
    }
    if out=$(an) && [ ! -e "$R/an/anchors.csv" ] &&
       echo "$out" | grep -q "p2p: skipped, no PRK_DIR (git clone https://github.com/ParRes/Kernels" &&
       echo "$out" | grep -q "LU: skipped, no NPB_DIR (NPB 3.4 from https://www.nas.nasa.gov/software/npb.html"; then
        ok "bench/anchors.sh without PRK_DIR and NPB_DIR: skips both, saying where to get them"
    else notok "bench/anchors.sh without the directories"; echo "$out" | diag; fi
    stops "a PRK_DIR that is not a PRK checkout, naming what is missing" \
        "PRK_DIR=$fk/npb: no MPI1/Synch_p2p/p2p.c there (a checkout of https://github.com/ParRes/Kernels)" \
        PRK_DIR="$fk/npb"
    if out=$(an PRK_DIR="$fk/prk" NPB_DIR="$fk/npb") &&
       grep -q '^DEFAULT_OPT_FLAGS=-O2 -ffp-contract=off$' "$R/anchors/prk/common/make.defs" &&
       [ ! -e "$fk/prk/MPI1/Synch_p2p/p2p" ] && [ ! -e "$fk/npb/bin" ] &&
       echo "$out" | awk '/^\[anchors\] (p2p|LU) .* run 1: / { k = ($2 == "p2p") ? "p2p" : "lu"
                              p = $0; sub(/ process.*/, "", p); sub(/.* /, "", p); t[k "," p] = $NF }
                          END { for (x in t) print x "," t[x] }' > "$R/printed" &&
       awk -F, 'NR == FNR { t[$1 "," $2] = $3; next }
                FNR == 1 && $0 != "kernel,size,processes,unit,anchor,toolkit,toolkit_over_anchor" { bad = 1 }
                FNR > 1 { n++; k[$1 "," $2 "," $3 "," $4] = 1; a = ($1 == "p2p") ? 1000 : 2000
                          if ($5 != a || !(($1 "," $3) in t) || $6 != t[$1 "," $3] + 0 || $6 == a ||
                              ($7 - $6 / a) ^ 2 > 1e-6) bad = 1 }
                END { exit !(n == 4 && !bad && ("p2p,1000x1000,1,MFlop/s" in k) && ("p2p,1000x1000,2,MFlop/s" in k) &&
                             ("lu,class S,1,Mop/s" in k) && ("lu,class S,2,Mop/s" in k)) }' "$R/printed" "$R/an/anchors.csv"; then
        ok "bench/anchors.sh: builds copies of both trees (PRK with -O2 -ffp-contract=off), runs them beside demos/p2p and demos/lu at 1 and 2 processes; anchors.csv has each side's rate as printed and the ratios"
    else notok "bench/anchors.sh with both anchors"; echo "$out" | tail -n 5 | diag; diag < "$R/an/anchors.csv"; fi
    stops "PRK's p2p does not verify" "PRK's p2p did not verify: .* printed no 'Solution validates'" \
        FAKE_BAD=1 PRK_DIR="$fk/prk"
    stops "NPB's LU says UNSUCCESSFUL" "NPB's LU did not verify: .* printed no 'Verification \*= \*SUCCESSFUL'" \
        FAKE_BAD=1 NPB_DIR="$fk/npb"
    stops "an anchor on another process count (another MPI's launcher)" "PRK's p2p ran on 2 processes, not 1" \
        FAKE_RANKS=1 PRK_DIR="$fk/prk" ANCHOR_PROCS=1
    stops "the toolkit's p2p does not verify" "demos/p2p did not verify" \
        FAKE_DEMO_BAD=1 PRK_DIR="$fk/prk" DEMODIR="$fk/demos"
    stops "the toolkit's LU says UNSUCCESSFUL" "demos/lu did not verify" \
        FAKE_DEMO_BAD=1 NPB_DIR="$fk/npb" DEMODIR="$fk/demos"
    stops "ANCHOR_PROCS=x" "ANCHOR_PROCS='x': not a list of process counts" ANCHOR_PROCS=x PRK_DIR="$fk/prk"
    stops "ANCHOR_LU_CLASS=C" "ANCHOR_LU_CLASS=C: not S, W, A or B" ANCHOR_LU_CLASS=C NPB_DIR="$fk/npb"
    stops "RUNS=0" "RUNS=0: not a whole number of runs above 0" RUNS=0 PRK_DIR="$fk/prk"
else
    skip "bench/anchors.sh" "demos/p2p or demos/lu not built"
fi

if command -v gnuplot >/dev/null 2>&1; then
    if sh bench/plot.sh "$R" > "$R/plot.log" 2>&1 &&
       [ "$(head -c 4 "$R/scatter-seismic.png" | od -An -c | tr -d ' ')" = "211PNG" ] &&
       [ -s "$R/scatter-demo.png" ] &&
       { [ -z "${speed_ran:-}" ] ||
         [ "$(head -c 4 "$R/speed.png" 2>/dev/null | od -An -c | tr -d ' ')" = "211PNG" ]; }; then
        ok "bench/plot.sh draws PNG figures from the CSV files"
    else notok "bench/plot.sh"; tail -n 5 "$R/plot.log" | diag; fi
else
    skip "bench/plot.sh draws PNG figures from the CSV files" "gnuplot not installed (make bench installs it)"
fi
rm -rf "$R"
done_testing
