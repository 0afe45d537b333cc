#!/bin/sh
# bench/anchors.sh -- other people's programs beside the toolkit's (issue
# 37): PRK's MPI1 Synch_p2p against demos/p2p and NPB 3.4's MPI LU against
# demos/lu, at 1 and 2 processes, the anchor and the toolkit alternating.
# Their code is never in this repository: say where it is,
#
#   PRK_DIR   a checkout of the Parallel Research Kernels
#             (git clone https://github.com/ParRes/Kernels): its
#             MPI1/Synch_p2p, common/ and include/
#   NPB_DIR   NPB 3.4's MPI tree, the directory NPB3.4-MPI of
#             https://www.nas.nasa.gov/software/npb.html: its LU
#
# and each is copied into $B/anchors/ and built there (the directories
# named are only read): PRK's p2p with the toolkit's compiler and flags
# ($MPICC -O2 -ffp-contract=off, the same code generation), NPB's LU with
# its own default flags (its config/make.def, else make.def.template: -O3)
# through $MPIFC (default: the Fortran wrapper of $MPICC's MPI,
# mpif90.mpich beside mpicc.mpich).  An anchor not named is skipped,
# saying where to get it; a directory named that does not hold it stops
# the bench.
#
#   anchors.csv   kernel, size, processes, unit, the median rate of the
#                 anchor and of the toolkit (p2p: "Rate (MFlops/s)" as
#                 both print it; LU: "Mop/s total", NPB's operation count
#                 in both), and toolkit / anchor (above 1: the toolkit is
#                 faster).  Issue 37's targets: p2p and LU class A at least
#                 1 at 1 and at 2 processes.
#
# Every run must verify (both p2p's "Solution validates"; both LU's
# "Verification = SUCCESSFUL") on the number of processes asked for, else
# the bench stops.  Sizes: p2p 8000 x 8000, 20 iterations; LU class A
# (QUICK: 1000 x 1000 and class S).  ANCHOR_PROCS: the process counts
# ("1 2"); ANCHOR_LU_CLASS: LU's class; ANCHOR_BUILD: where the copies are
# built ($B/anchors); RUNS: the rounds (3).  Run by bench/run.sh
# (PARTS=anchors); alone: PRK_DIR=... NPB_DIR=... sh bench/anchors.sh
set -eu
. bench/lib.sh
RUNS=${RUNS:-3}
PROCS=${ANCHOR_PROCS:-1 2}
if [ "$QUICK" = 1 ]; then
    P2P_M=1000 P2P_ITER=20 LU_CLASS=${ANCHOR_LU_CLASS:-S}
else
    P2P_M=8000 P2P_ITER=20 LU_CLASS=${ANCHOR_LU_CLASS:-A}
fi
# the compiler of the launcher's MPI (mpicc.mpich beside mpiexec.mpich)
if [ -z "${MPICC:-}" ]; then
    case $MPIEXEC in
        *mpiexec.*) MPICC=mpicc.${MPIEXEC##*mpiexec.} ;;
        *) MPICC=mpicc ;;
    esac
fi
case $LU_CLASS in S|W|A|B) ;; *) die "ANCHOR_LU_CLASS=$LU_CLASS: not S, W, A or B (the classes demos/lu verifies)" ;; esac
case $RUNS in ''|*[!0-9]*|0*) die "RUNS=$RUNS: not a whole number of runs above 0" ;; esac
[ -n "$(printf '%s' "$PROCS" | tr -d ' \t')" ] || die "ANCHOR_PROCS='$PROCS': no process count"
for p in $PROCS; do
    case $p in *[!0-9]*|0*) die "ANCHOR_PROCS='$PROCS': not a list of process counts (whole numbers above 0)" ;; esac
done
# the Fortran wrapper of $MPICC's MPI
if [ -z "${MPIFC:-}" ]; then
    case $MPICC in
        *mpicc.*) MPIFC=mpif90.${MPICC##*mpicc.} ;;
        *) MPIFC=mpif90 ;;
    esac
fi
work=${ANCHOR_BUILD:-$B/anchors}
mkdir -p "$work"

# value LABEL OUTPUT: the number after LABEL on its line of OUTPUT
value() { printf '%s\n' "$2" | sed -n "s|.*$1 *\([0-9.][0-9.eE+-]*\).*|\1|p" | head -n 1; }

# plural N: "es" unless N is 1
plural() { [ "$1" = 1 ] || printf es; }

# run_checked NP WHAT OK_PATTERN PROCS_LABEL RATE_LABEL PROGRAM ARGS...: run
# PROGRAM on NP processes, stop unless its output matches OK_PATTERN and
# says NP after PROCS_LABEL; print the rate after RATE_LABEL.
run_checked() {
    rc_np=$1 rc_what=$2 rc_ok=$3 rc_pl=$4 rc_rl=$5
    shift 5
    rc_out=$($MPIEXEC -n "$rc_np" "$@" 2>"$RESULTS/.stderr") ||
        die "$rc_what failed: $MPIEXEC -n $rc_np $* ($(printf '%s\n' "$rc_out" | tail -n 3; tail -n 3 "$RESULTS/.stderr"))"
    printf '%s\n' "$rc_out" | grep -q "$rc_ok" ||
        die "$rc_what did not verify: $MPIEXEC -n $rc_np $* printed no '$rc_ok'"
    [ "$(value "$rc_pl" "$rc_out")" = "$rc_np" ] ||
        die "$rc_what ran on $(value "$rc_pl" "$rc_out") processes, not $rc_np: is $MPIEXEC the MPI it was built with?"
    rc_rate=$(value "$rc_rl" "$rc_out")
    [ -n "$rc_rate" ] || die "$rc_what: no '$rc_rl' in its output"
    echo "$rc_rate"
}

# build_prk: PRK's MPI1 p2p under $work/prk; prints its path
build_prk() {
    bp=$work/prk
    for f in MPI1/Synch_p2p/p2p.c MPI1/Synch_p2p/Makefile common/MPI.defs include; do
        [ -e "$PRK_DIR/$f" ] ||
            die "PRK_DIR=$PRK_DIR: no $f there (a checkout of https://github.com/ParRes/Kernels)"
    done
    rm -rf "$bp"
    mkdir -p "$bp/MPI1"
    cp -R "$PRK_DIR/common" "$PRK_DIR/include" "$bp/"
    cp -R "$PRK_DIR/MPI1/Synch_p2p" "$bp/MPI1/"
    rm -f "$bp/MPI1/Synch_p2p/p2p" "$bp/MPI1/Synch_p2p/"*.o
    printf 'CC=cc\nMPICC=%s\nDEFAULT_OPT_FLAGS=-O2 -ffp-contract=off\nOPENMPFLAG=-fopenmp\n' \
        "$MPICC" > "$bp/common/make.defs"
    (cd "$bp/MPI1/Synch_p2p" && make p2p) > "$bp/build.log" 2>&1 ||
        die "PRK's p2p did not build (make p2p in $bp/MPI1/Synch_p2p; all it said: $bp/build.log): $(tail -n 3 "$bp/build.log")"
    echo "$bp/MPI1/Synch_p2p/p2p"
}

# build_npb: NPB's LU of class $LU_CLASS under $work/npb; prints its path
build_npb() {
    bn=$work/npb
    for f in LU/Makefile Makefile config; do
        [ -e "$NPB_DIR/$f" ] ||
            die "NPB_DIR=$NPB_DIR: no $f there (NPB 3.4's NPB3.4-MPI, https://www.nas.nasa.gov/software/npb.html)"
    done
    command -v "$MPIFC" > /dev/null 2>&1 ||
        die "no $MPIFC (NPB's LU is Fortran; MPIFC=... names the wrapper; apt-get install gfortran gives MPICH's and Open MPI's theirs)"
    rm -rf "$bn"
    cp -R "$NPB_DIR" "$bn"
    # what a build in NPB_DIR left there may be another MPI's or compiler's
    find "$bn" \( -name '*.o' -o -name '*.mod' \) -exec rm -f {} +
    rm -f "$bn/bin/lu.$LU_CLASS.x" "$bn/sys/setparams"
    mkdir -p "$bn/bin"
    [ -f "$bn/config/make.def" ] || cp "$bn/config/make.def.template" "$bn/config/make.def" 2>/dev/null ||
        die "NPB_DIR=$NPB_DIR: neither config/make.def nor config/make.def.template"
    printf '\n# bench/anchors.sh: the MPI of the run\nMPIFC = %s\nMPICC = %s\n' \
        "$MPIFC" "$MPICC" >> "$bn/config/make.def"
    if ! (cd "$bn" && make LU CLASS="$LU_CLASS") > "$bn/build.log" 2>&1 ||
       [ ! -x "$bn/bin/lu.$LU_CLASS.x" ]; then
        die "NPB's LU did not build (make LU CLASS=$LU_CLASS in $bn; all it said: $bn/build.log): $(tail -n 3 "$bn/build.log")"
    fi
    echo "$bn/bin/lu.$LU_CLASS.x"
}

raw=$RESULTS/anchors-raw.csv
echo "kernel,size,processes,unit,run,anchor,toolkit" > "$raw"
prk="" npb=""
if [ -n "${PRK_DIR:-}" ]; then
    prk=$(build_prk)
    say "[anchors] PRK's p2p built: $prk ($MPICC -O2 -ffp-contract=off)"
else
    say "[anchors] p2p: skipped, no PRK_DIR (git clone https://github.com/ParRes/Kernels; PRK_DIR=that directory)"
fi
if [ -n "${NPB_DIR:-}" ]; then
    npb=$(build_npb)
    say "[anchors] NPB's LU built: $npb ($MPIFC, NPB's flags)"
else
    say "[anchors] LU: skipped, no NPB_DIR (NPB 3.4 from https://www.nas.nasa.gov/software/npb.html; NPB_DIR=its NPB3.4-MPI)"
fi
[ -n "$prk$npb" ] || { rm -f "$raw"; exit 0; }

for r in $(seq "$RUNS"); do
    for p in $PROCS; do
        if [ -n "$prk" ]; then
            a=$(run_checked "$p" "PRK's p2p" "Solution validates" "Number of ranks *=" "Rate (MFlops/s):" \
                "$prk" "$P2P_ITER" "$P2P_M" "$P2P_M")
            t=$(run_checked "$p" "demos/p2p" "Solution validates" "Number of ranks *=" "Rate (MFlops/s):" \
                "$DEMODIR/p2p" --size "$P2P_M,$P2P_M" --iterations "$P2P_ITER")
            say "[anchors] p2p ${P2P_M}x$P2P_M, $P2P_ITER iterations, $p process$(plural "$p"), run $r: PRK $a MFlop/s, toolkit $t"
            echo "p2p,${P2P_M}x$P2P_M,$p,MFlop/s,$r,$a,$t" >> "$raw"
        fi
        if [ -n "$npb" ]; then
            a=$(run_checked "$p" "NPB's LU" "Verification *= *SUCCESSFUL" "Total processes *=" "Mop/s total *=" "$npb")
            t=$(run_checked "$p" "demos/lu" "Verification *= *SUCCESSFUL" "Total processes *=" "Mop/s total *=" \
                "$DEMODIR/lu" --class "$LU_CLASS")
            say "[anchors] LU class $LU_CLASS, $p process$(plural "$p"), run $r: NPB $a Mop/s, toolkit $t"
            echo "lu,class $LU_CLASS,$p,Mop/s,$r,$a,$t" >> "$raw"
        fi
    done
done
[ "$(wc -l < "$raw")" -gt 1 ] || die "no runs ($raw has no rows)"
out=$RESULTS/anchors.csv
echo "kernel,size,processes,unit,anchor,toolkit,toolkit_over_anchor" > "$out"
csv_median "$raw" 4 6 7 | awk -F, '{ printf "%s,%.3f\n", $0, $6 / $5 }' >> "$out"
rm -f "$RESULTS/.stderr"
cat "$out"
