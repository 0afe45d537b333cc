#!/bin/sh
# tests/cli_balance.sh -- tilectl balance end to end.
#   sh tests/cli_balance.sh ./tilectl
# Prints TAP (tests/lib.sh); exits non-zero if any failed.
set -u
. tests/lib.sh
scratch cli_balance
tmp=$T
trap 'rm -rf "$tmp"' EXIT
T=${1:-$TILECTL}     # from here on, T is the tilectl binary (the trap removes $tmp)
expect() { if eval "$2"; then ok "$1"; else notok "$1"; fi; }

unset TILEHYBRID_TCOMP TILEHYBRID_TSTARTUP TILEHYBRID_BANDWIDTH TILEHYBRID_ELEM_BYTES

# The example of the issue with the paper's machine, space 256x64x16384
# (X1 = 4 X2, the pattern of fig. 2) and z = 100.  Hand values (see
# tests/unit_balance.c, test_fig2): (0,0) 0.892205, (0,1) 0.963464,
# (3,0) 0.928741, (3,1) 1.
ARGS="--procs-grid 4x2 --threads 2 --space 256x64x16384 --deps 1,1 --tile-height 100"
MODEL="--tcomp 288e-9 --tstartup 107e-6 --bandwidth 12.5e6 --elem-bytes 8"

# run NAME ARGS...: stdout to $tmp/out, stderr to $tmp/err, status to $rc
run() { "$T" balance "$@" > "$tmp/out" 2> "$tmp/err"; rc=$?; }

run $ARGS $MODEL
expect "example: exit 0" '[ $rc -eq 0 ]'
expect "example: constant factor 0.892205" 'grep -q "^constant factor: 0.892205 " "$tmp/out"'
expect "example: rank 0 (0,0) sends along 1,2, factor 0.892205" \
    'grep -Eq "^ +0 +\(0,0\) +1,2 +0.892205 " "$tmp/out"'
expect "example: rank 1 (0,1) sends along 1, factor 0.963464 (larger than (0,0))" \
    'grep -Eq "^ +1 +\(0,1\) +1 +0.963464 " "$tmp/out"'
expect "example: rank 6 (3,0) sends along 2, factor 0.928741" \
    'grep -Eq "^ +6 +\(3,0\) +2 +0.928741 " "$tmp/out"'
expect "example: rank 7 (3,1) sends nothing, factor exactly 1" \
    'grep -Eq "^ +7 +\(3,1\) +- +1.000000 " "$tmp/out"'
expect "example: 8 rank lines, no clamping" \
    '[ $(grep -Ec "^ +[0-9]+ +\(" "$tmp/out") -eq 8 ] && ! grep -q clamped "$tmp/out"'
expect "example: nothing on stderr" '[ ! -s "$tmp/err" ]'

run $ARGS $MODEL --json
cp "$tmp/out" "$tmp/json"
expect "--json: exit 0, one line" '[ $rc -eq 0 ] && [ $(wc -l < "$tmp/json") -eq 1 ]'
for key in constant variable clamped procs_grid threads space deps tile_height model; do
    expect "--json: key \"$key\"" 'grep -q "\"$key\":" "$tmp/json"'
done
expect "--json: \"constant\" is 0.8922051323784722" \
    'grep -q "\"constant\":0.8922051323784722," "$tmp/json"'
expect "--json: \"variable\" has 8 entries in rank order, the last exactly 1" \
    'grep -q "\"variable\":\[0.8922051323784722,0.963463677300347[0-9]*,0.8922051323784722,[^]]*,1\]" "$tmp/json" &&
     [ $(sed "s/.*\"variable\":\[\([^]]*\)\].*/\1/" "$tmp/json" | tr "," "\n" | wc -l) -eq 8 ]'
expect "--json: \"clamped\" info, all false here" \
    'grep -q "\"clamped\":{\"constant\":false,\"variable\":\[false,false,false,false,false,false,false,false\]}" "$tmp/json"'
if command -v python3 > /dev/null 2>&1; then
    expect "--json: valid JSON with the right types (python3)" \
        'python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert isinstance(d[\"constant\"], float); assert len(d[\"variable\"]) == 8; assert d[\"variable\"][7] == 1; assert d[\"clamped\"][\"variable\"] == [False]*8" "$tmp/json"'
elif command -v jq > /dev/null 2>&1; then
    expect "--json: valid JSON with the right types (jq)" \
        '[ "$(jq -c "[.variable|length, .variable[7], .clamped.constant]" "$tmp/json")" = "[8,1,false]" ]'
fi

# clamping: a tiny tile, 4 threads: the communication exceeds everything
run --procs-grid 4x2 --threads 4 --space 16x8x100 --deps 1,1 --tile-height 1 $MODEL --json
expect "clamped: factor 0 and the flag, the corner process 1 and not flagged" \
    'grep -q "\"constant\":0," "$tmp/out" &&
     grep -q "\"clamped\":{\"constant\":true,\"variable\":\[true,true,true,true,true,true,true,false\]}" "$tmp/out"'
run --procs-grid 4x2 --threads 4 --space 16x8x100 --deps 1,1 --tile-height 1 $MODEL
expect "clamped: the text output says so" \
    '[ $rc -eq 0 ] && grep -q "0.000000 clamped" "$tmp/out" && grep -Eq "^ +0 .*clamped$" "$tmp/out"'

# the environment supplies the model; options override it
TILEHYBRID_TCOMP=288e-9 TILEHYBRID_TSTARTUP=107e-6 TILEHYBRID_BANDWIDTH=12.5e6 \
    "$T" balance $ARGS --json > "$tmp/out" 2> "$tmp/err"
expect "environment: TILEHYBRID_* give the same factors" \
    'grep -q "\"constant\":0.8922051323784722," "$tmp/out"'
TILEHYBRID_TCOMP=1 TILEHYBRID_TSTARTUP=107e-6 TILEHYBRID_BANDWIDTH=12.5e6 \
    "$T" balance $ARGS --tcomp 288e-9 --json > "$tmp/out" 2> "$tmp/err"
expect "environment: --tcomp overrides TILEHYBRID_TCOMP" \
    'grep -q "\"constant\":0.8922051323784722," "$tmp/out"'
TILEHYBRID_TCOMP=288ns "$T" balance $ARGS $MODEL > "$tmp/out" 2> "$tmp/err"
rc=$?
expect "environment: TILEHYBRID_TCOMP=288ns rejected, exit 2, message names it" \
    '[ $rc -eq 2 ] && grep -q "TILEHYBRID_TCOMP" "$tmp/err"'

run --help
expect "--help: exit 0, mentions every option" \
    '[ $rc -eq 0 ] && grep -q -- "--procs-grid" "$tmp/out" && grep -q -- "--elem-bytes" "$tmp/out" &&
     grep -q "TILEHYBRID_BANDWIDTH" "$tmp/out"'

# bad arguments: exit 2 and a message naming the option
bad() { # NAME WORD ARGS...
    name=$1; word=$2; shift 2
    run "$@"
    if [ $rc -eq 2 ] && grep -q -- "$word" "$tmp/err" && [ ! -s "$tmp/out" ]; then
        ok "bad args: $name -> exit 2, names $word"
    else
        notok "bad args: $name -> exit 2, names $word (rc $rc: $(cat "$tmp/err"))"
    fi
}
bad "missing --tcomp" "--tcomp" $ARGS --tstartup 107e-6 --bandwidth 12.5e6
bad "missing --threads" "--threads" --procs-grid 4x2 --space 256x64x16384 --deps 1,1 --tile-height 100 $MODEL
bad "--threads 0" "--threads" $ARGS $MODEL --threads 0
bad "--bandwidth 0" "--bandwidth" $ARGS $MODEL --bandwidth 0
bad "--tcomp -1" "--tcomp" $ARGS $MODEL --tcomp -1
bad "--tstartup abc" "--tstartup" $ARGS $MODEL --tstartup abc
bad "--elem-bytes 0" "--elem-bytes" $ARGS $MODEL --elem-bytes 0
bad "--tile-height 0" "--tile-height" $ARGS $MODEL --tile-height 0
bad "--tile-height > Z" "--tile-height" $ARGS $MODEL --tile-height 20000
bad "--space without Z" "--space" $ARGS $MODEL --space 256x64
bad "--space 256x0x16" "--space" $ARGS $MODEL --space 256x0x16
bad "--deps -1,1" "--deps" $ARGS $MODEL --deps -1,1
bad "--deps with 3 entries" "--deps" $ARGS $MODEL --deps 1,1,1
bad "--procs-grid 4x0" "--procs-grid" $ARGS $MODEL --procs-grid 4x0
bad "more processes than points" "--procs-grid" $ARGS $MODEL --procs-grid 512x2
bad "--threads without value" "--threads" $ARGS $MODEL --threads
bad "unknown option" "--frobnicate" $ARGS $MODEL --frobnicate

# numbers follow the one rule of every program (tilehybrid_parse_double /
# tilehybrid_parse_i64): no spaces, '+', hex; subnormals are numbers and a
# literal beyond a double's range is refused, not rounded
bad "--tcomp ' 288e-9' (leading space)" "--tcomp" $ARGS $MODEL --tcomp " 288e-9"
bad "--tcomp 0x1p-22 (hex float)" "--tcomp" $ARGS $MODEL --tcomp 0x1p-22
bad "--tcomp +288e-9" "--tcomp" $ARGS $MODEL --tcomp +288e-9
bad "--threads '<tab>2'" "--threads" $ARGS $MODEL --threads "$(printf '\t2')"
bad "--tstartup 1e-400 (below the smallest double)" "--tstartup" $ARGS $MODEL --tstartup 1e-400
expect "--tstartup 1e-400: the message says the magnitude is beyond a double's" \
    'grep -q "beyond what a double holds" "$tmp/err"'
run $ARGS $MODEL --tstartup 1e-310
expect "--tstartup 1e-310 (a subnormal) is a number: exit 0" \
    '[ $rc -eq 0 ] && grep -q "tstartup 1e-310 s/message" "$tmp/out"'

# an overflow is found before anything is printed, and named: no half JSON
bad "--deps 9223372036854775807,1 --json: a message past 64 bits" "--deps" \
    $ARGS $MODEL --deps 9223372036854775807,1 --json
expect "--deps 9223372036854775807,1: the message names rank 0 and the product" \
    'grep -q "rank 0 along dimension 1" "$tmp/err" && grep -q "9223372036854775807 \* 100 \* 32" "$tmp/err"'
bad "--space 9223372036854775807x64x16384 --json: X1*X2*z past 64 bits" "--space" \
    $ARGS $MODEL --space 9223372036854775807x64x16384 --json
expect "--space past 64 bits: the message shows the product" \
    'grep -q "9223372036854775807 \* 64 \* 100" "$tmp/err"'

# bounded work: a grid of 2^31-1 processes is summarised, not listed
BIG="--procs-grid 2147483647x1 --threads 2 --space 2147483647x1x10 --deps 1,1 --tile-height 1"
# capped: under a 30 s timeout, at most 100 kB of stdout kept (a list of
# 2^31 lines would fill the disk)
capped() {
    { timeout 30 "$T" balance "$@" 2> "$tmp/err"; echo $? > "$tmp/rc"; } | head -c 100000 > "$tmp/out"
    rc=$(cat "$tmp/rc")
}
capped $BIG $MODEL
expect "2147483647 processes: a summary in under 30 s, exit 0, a few lines" \
    '[ $rc -eq 0 ] && [ $(wc -l < "$tmp/out") -le 12 ] && grep -q -- "--all" "$tmp/out"'
expect "2147483647 processes: smallest at rank 0, largest (1) at the last rank, all but one clamped" \
    'grep -Eq "^smallest +0 +\(0,0\) +1 +0.000000" "$tmp/out" &&
     grep -Eq "^largest +2147483646 +\(2147483646,0\) +- +1.000000" "$tmp/out" &&
     grep -q "^clamped processes: 2147483646 of 2147483647$" "$tmp/out"'
capped $BIG $MODEL --json
expect "2147483647 processes with --json and no --all: exit 2, nothing on stdout, names --all" \
    '[ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && grep -q -- "--all" "$tmp/err"'

# the summary agrees with the full list (--all) on a 64x33 grid
MID="--procs-grid 64x33 --threads 2 --space 20000x7000x1000 --deps 1,1 --tile-height 100"
run $MID $MODEL
sum_lo=$(awk '$1 == "smallest" { print $2, $5 }' "$tmp/out")
sum_hi=$(awk '$1 == "largest" { print $2, $5 }' "$tmp/out")
run $MID $MODEL --all
list=$(awk '$2 ~ /^\(/ { n++; if (lo == "" || $4 < lo) { lo = $4; lr = $1 }
                         if (hi == "" || $4 > hi) { hi = $4; hr = $1 } }
            END { print n; print lr, lo; print hr, hi }' "$tmp/out")
expect "64x33: --all lists 2112 processes; the summary's smallest and largest are the list's ($sum_lo; $sum_hi)" \
    '[ "$list" = "$(printf "2112\n%s\n%s" "$sum_lo" "$sum_hi")" ] && [ "$sum_lo" = "1060 0.982283" ]'
run $MID $MODEL --all --json
expect "64x33 --all --json: 2112 factors" \
    '[ $rc -eq 0 ] && [ $(sed "s/.*\"variable\":\[\([^]]*\)\].*/\1/" "$tmp/out" | tr "," "\n" | wc -l) -eq 2112 ]'

done_testing
