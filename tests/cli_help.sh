#!/bin/sh
# tests/cli_help.sh -- every command-line program: -h and --help print the
# usage to stdout and exit 0 (under mpiexec: once, from rank 0), or exit 1
# with a message when stdout cannot take it (tilectl and the demos); bad
# arguments print one line to stderr naming the option and exit non-zero on
# every rank, without a hang or MPI_Abort noise.
#   sh tests/cli_help.sh ./tilectl
set -u
. tests/lib.sh
D=$DEMODIR
CTL=${1:-$TILECTL}
scratch cli_help

# 1. help ------------------------------------------------------------------
# help PROGRAM...: -h and --help, usage once on stdout, nothing on stderr
help() {
    bad=""
    for h in -h --help; do
        timeout 60 "$@" $h > "$T/out" 2> "$T/err"
        rc=$?
        n=$(grep -c '^usage:' "$T/out")
        [ $rc -eq 0 ] && [ "$n" -eq 1 ] && [ ! -s "$T/err" ] ||
            bad="$bad [$h: exit $rc, $n usage lines, stderr '$(head -c 100 "$T/err")']"
    done
    [ -z "$bad" ] && ok "$*: -h and --help print the usage once on stdout, exit 0" ||
        notok "$*:$bad"
}
help $D/adi
help $D/de
help $MPIEXEC -n 3 $D/adi
help $MPIEXEC -n 2 $D/de
help $MPIEXEC -n 2 $D/scatter
help $MPIEXEC -n 2 $D/heat
help $MPIEXEC -n 3 $D/p2p
help $MPIEXEC -n 2 $D/lu
help "$CTL"
help "$CTL" topo
help "$CTL" balance
help "$CTL" scatter
help "$CTL" plan
help $B/bench/seq_kernels
help $B/bench/inner_order
help $B/bench/limit
for b in bench_topology bench_scatterlb; do
    if [ -x $B/bench/$b ]; then help $B/bench/$b; fi
done
help sh demos/run-demo.sh
for b in run topology models height balance scatter overhead speed memory plot; do
    help sh bench/$b.sh
done
help sh demos/topo-table.sh
# help_full PROGRAM...: --help into a full disk (/dev/full) exits 1 with one
# line on stderr naming the write (it exited 0: the help was lost unseen)
help_full() {
    if [ ! -w /dev/full ]; then skip "$*: --help > /dev/full" "no /dev/full"; return; fi
    timeout 60 "$@" --help > /dev/full 2> "$T/err"
    rc=$?
    [ $rc -eq 1 ] && [ "$(wc -l < "$T/err")" -eq 1 ] && grep -q 'writing the .*: No space left on device$' "$T/err" &&
        ok "$* --help > /dev/full: exit 1, $(cat "$T/err")" ||
        notok "$* --help > /dev/full: exit $rc, stderr '$(head -c 200 "$T/err")'"
}
for prog in adi de scatter seidel sw p2p ssor heat lu; do help_full $D/$prog; done
help_full "$CTL"
for c in topo balance scatter plan; do help_full "$CTL" $c; done
# the version, the one TILEHYBRID_VERSION
want=$(sed -n 's/^#define TILEHYBRID_VERSION "\(.*\)"$/\1/p' tilehybrid.h)
[ -n "$want" ] && [ "$("$CTL" --version)" = "tilectl $want" ] &&
    ok "tilectl --version: tilectl $want" || notok "tilectl --version: '$("$CTL" --version 2>&1)', want $want"
# the help lists what it should
$D/adi --help > "$T/out"
missing=""
for o in --space --tile-height --model --threads --grid --bal --balance --tcomp --tstartup \
         --bandwidth --adapt-period --order --verify --json --progress --no-progress --help; do
    grep -q -e "$o" "$T/out" || missing="$missing $o"
done
[ -z "$missing" ] && ok "adi --help lists every option" || notok "adi --help misses:$missing"
# what --tstartup takes: > 0 (a plan reads 0 as "not given"), in the demos
# and in tilectl plan alike; --elem-bytes's bound
grep -q -- "--tstartup S .*seconds per message (> 0; none:" "$T/out" && grep -q "TILEHYBRID_TSTARTUP=0)" "$T/out" &&
    ok "adi --help: --tstartup > 0, TILEHYBRID_TSTARTUP=0 for none" ||
    notok "adi --help: --tstartup's range: $(grep -A1 -- --tstartup "$T/out")"
"$CTL" plan --help > "$T/out"
grep -q "(each > 0; a plan reads a cost of 0 as not given:" "$T/out" &&
    grep -q "TILEHYBRID_TSTARTUP=0 models no start-up; E <= 2^30)" "$T/out" &&
    ok "tilectl plan --help: costs > 0, TILEHYBRID_TSTARTUP=0, --elem-bytes <= 2^30" ||
    notok "tilectl plan --help: the costs' ranges missing"

# 2. bad arguments -----------------------------------------------------------
# bad WORD PROGRAM ARGS...: non-zero exit (not a timeout), stdout empty,
# exactly one line on stderr, containing WORD
# Open MPI's launcher adds its own report, framed by lines of dashes, when a
# process exits non-zero, and kills the other ranks once one has exited with
# an error: drop the report, and accept ranks that did not get to exit.
strip_err() { # FILE: strip_launcher in place
    strip_launcher < "$1" > "$1.tmp" && mv "$1.tmp" "$1"
}
bad() {
    word=$1
    shift
    timeout 60 "$@" > "$T/out" 2> "$T/err"
    rc=$?
    strip_err "$T/err"
    if [ $rc -ne 0 ] && [ $rc -ne 124 ] && [ ! -s "$T/out" ] && [ "$(wc -l < "$T/err")" -eq 1 ] &&
       grep -q -e "$word" "$T/err"; then
        ok "rejected: $* -> exit $rc, $(cat "$T/err")"
    else
        notok "rejected: $* -> exit $rc, want one line naming '$word'; stdout '$(head -c 100 "$T/out")', stderr '$(head -c 300 "$T/err")'"
    fi
}
bad --space $D/adi --space 0x5x5
bad --space $D/adi --space 16x16x16x
bad --space $D/adi --space=16x16
bad --space $D/adi --space 16x+16x16
bad --threads $D/adi --model fine --threads -1
bad --threads $D/adi --model fine --threads 2x
bad --threads $D/adi --model fine --threads 2000
bad --tile-height $D/adi --tile-height abc
bad --tile-height $D/adi --tile-height 5x
bad --tile-height $D/adi --tile-height 99999999999999999999
bad --bal $D/adi --model funneled --bal=
bad --bal $D/adi --model funneled --bal 0.5x
bad --tcomp $D/adi --model funneled --balance constant --tcomp 1ns
bad --model $D/adi --model
bad --frobnicate $D/adi --frobnicate
bad --frobnicate $D/adi --frobnicate=3
bad stray $D/adi stray
bad --order $D/de --order sideways
bad --grid $D/de --grid 2x
bad --items $MPIEXEC -n 2 $D/scatter --items -1
bad --items $MPIEXEC -n 2 $D/scatter --items 5x
bad --items $MPIEXEC -n 2 $D/scatter --items
bad --slowdown $MPIEXEC -n 2 $D/scatter --slowdown 1,,2
bad --slowdown $MPIEXEC -n 2 $D/scatter --slowdown=
bad --method $MPIEXEC -n 2 $D/scatter --method fast
bad --bogus $MPIEXEC -n 2 $D/scatter --bogus 1
# one option loop per kind of program: a flag given a value, a valued
# option at the end, a value after '=' in every demo and tilectl subcommand
for prog in adi de seidel sw p2p; do bad "--json takes no value" $D/$prog --json=1; done
bad "--verify takes no value" $D/ssor --verify=yes
bad "--json takes no value" $MPIEXEC -n 2 $D/scatter --json=1
for c in topo balance scatter plan; do bad "--json takes no value" "$CTL" $c --json=1; done
bad "--all takes no value" "$CTL" balance --all=1
bad "--steps needs a value" $D/seidel --steps
bad "--tol needs a value" $D/ssor --tol
bad "exclude each other" $D/adi --progress --no-progress
bad "unknown option '-x'" "$CTL" topo -x
for c in "seidel --n=48 --steps=2" "sw --random=60,80" "p2p --size=30,40 --iterations=2" "ssor --space=8x8x8 --tol=1e-6"; do
    timeout 60 $D/$c > "$T/out" 2> "$T/err" && [ ! -s "$T/err" ] && [ -s "$T/out" ] &&
        ok "$c: values after '=' read" || notok "$c: exit $?, $(head -c 200 "$T/err")"
done
bad command "$CTL"
bad bogus "$CTL" bogus
bad --threads "$CTL" topo --procs 16 --space 16x256x16 --deps 1,1 --threads -1
bad --procs-grid "$CTL" balance --procs-grid 2x
bad --items "$CTL" scatter --costs demos/data/seismic-1999.csv --items 5x
bad stray "$CTL" scatter --costs=demos/data/seismic-1999.csv --items=5 stray
bad X1 $B/bench/seq_kernels adi 2x 3 4
bad Z $B/bench/seq_kernels adi 2 3 +4
bad fft $B/bench/seq_kernels fft 2 3 4
bad arguments $B/bench/seq_kernels adi 2 3
bad order $B/bench/inner_order adi 2 3 4 sideways 0 1
bad HEIGHT $B/bench/inner_order de 2 3 4 auto -1 1
bad THREADS $B/bench/inner_order adi 2 3 4 auto 0 1 funneled 0
bad arguments $B/bench/inner_order adi 2 3 4 auto 0
bad POINTS $B/bench/limit adi 5x 1
bad ROUNDS $B/bench/limit de 100 64
bad arguments sh bench/speed.sh extra
if [ -x $B/bench/bench_topology ]; then bad --fast $B/bench/bench_topology --fast; fi
bad --fast sh bench/run.sh --fast
bad arguments sh bench/models.sh extra
bad --bogus sh bench/plot.sh --bogus
if [ -x $B/bench/bench_scatterlb ]; then bad slow $B/bench/bench_scatterlb slow; fi
bad --bogus sh demos/run-demo.sh --bogus
bad extra sh demos/topo-table.sh extra

# the hint after an option error is one wording in every program: "(see
# --help)" (tilectl said "(try --help)" and "(see tilectl balance --help)")
hint() { # PROGRAM ARGS...: one line on stderr ending in " (see --help)"
    timeout 60 "$@" > "$T/out" 2> "$T/err"
    rc=$?
    strip_err "$T/err"
    [ $rc -eq 2 ] && [ "$(wc -l < "$T/err")" -eq 1 ] && grep -q ' (see --help)$' "$T/err" &&
        ok "hint: $* -> $(cat "$T/err")" ||
        notok "hint: $* -> exit $rc, want one line ending in '(see --help)': '$(head -c 300 "$T/err")'"
}
for prog in adi de scatter seidel sw p2p ssor lu; do hint $D/$prog --bogus 1; done
hint "$CTL"
hint "$CTL" bogus
for c in topo balance scatter plan; do hint "$CTL" $c --bogus 1; done
hint "$CTL" balance stray
hint "$CTL" scatter stray
hint "$CTL" scatter --items 5
hint "$CTL" scatter --costs demos/data/seismic-1999.csv
hint "$CTL" scatter --costs demos/data/seismic-1999.csv --items

# 3. under mpiexec: one message (rank 0), a non-zero exit on every rank ------
# every rank writes its exit status to $T/rc.<rank> (tests/lib.sh)
rank_script
every_rank() { # NP WANT_STATUS WORD PROGRAM ARGS...
    np=$1 want=$2 word=$3
    shift 3
    rm -f "$T"/rc.*
    RCDIR=$T timeout 60 $MPIEXEC -n $np sh "$T/rank.sh" "$@" > "$T/out" 2> "$T/err"
    rc=$?
    strip_err "$T/err"
    got=$(cat "$T"/rc.* 2> /dev/null | sort | uniq -c | awk '{ printf "%s x %s; ", $1, $2 }')
    # Open MPI: the ranks that exited all exited with the wanted status
    if [ "$TILEHYBRID_OPENMPI" -eq 1 ] && [ "$want" -ne 0 ] && [ -n "$got" ] &&
       [ "$(cat "$T"/rc.* | sort -u)" = "$want" ]; then
        got="$np x $want; "
    fi
    # the one message: on stderr for an error, the usage on stdout for help
    if [ "$want" -eq 0 ]; then msg=$T/out; quiet=$T/err; else msg=$T/err; quiet=$T/out; fi
    if [ -e "$T/rc.x" ]; then
        skip "$* (np=$np): every rank exits $want" "the launcher sets neither PMI_RANK nor OMPI_COMM_WORLD_RANK"
    elif [ "$got" = "$np x $want; " ] && [ "$(grep -c -e "$word" "$msg")" -eq 1 ] &&
         { [ "$want" -eq 0 ] || [ "$(wc -l < "$msg")" -eq 1 ]; } && [ ! -s "$quiet" ] &&
         ! grep -qi -e abort -e 'BAD TERMINATION' "$T/err" "$T/out"; then
        ok "$* (np=$np): every rank exits $want, one message: $(head -n 1 "$msg")"
    else
        notok "$* (np=$np): ranks exited [$got] (want $np x $want), mpiexec $rc: $(head -c 300 "$T/err")"
    fi
}
every_rank 3 2 --space $D/adi --space 0x5x5
every_rank 2 2 unknown $D/de --nope
every_rank 4 2 grid $D/adi --grid 3x3
every_rank 2 2 processes $D/adi --space 1x1x50
every_rank 3 2 --items $D/scatter --items 5x
every_rank 2 0 '^usage:' $D/adi --help
every_rank 3 0 '^usage:' $D/scatter -h

done_testing
