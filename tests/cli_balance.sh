#!/bin/sh
# tests/cli_balance.sh -- tilectl balance end to end.
#   sh tests/cli_balance.sh ./tilectl
# Prints TAP (tests/lib.sh); exits non-zero if any test failed.
set -u
. tests/lib.sh
CTL=${1:-$TILECTL}
expect() { if eval "$2"; then ok "$1"; else notok "$1"; fi; }
scratch cli_balance

unset TILEHYBRID_TCOMP TILEHYBRID_TSTARTUP TILEHYBRID_BANDWIDTH TILEHYBRID_ELEM_BYTES

# The example of the issue with the paper's machine, space 256x64x16384
# (X1 = 4 X2, the pattern of fig. 2) and z = 100.  Hand values (see
# tests/unit_balance.c, test_fig2): (0,0) 0.892205, (0,1) 0.963464,
# (3,0) 0.928741, (3,1) 1.
ARGS="--procs-grid 4x2 --threads 2 --space 256x64x16384 --deps 1,1 --tile-height 100"
MODEL="--tcomp 288e-9 --tstartup 107e-6 --bandwidth 12.5e6 --elem-bytes 8"

# run NAME ARGS...: stdout to $T/out, stderr to $T/err, status to $rc
run() { "$CTL" balance "$@" > "$T/out" 2> "$T/err"; rc=$?; }

run $ARGS $MODEL
expect "example: exit 0" '[ $rc -eq 0 ]'
expect "example: constant factor 0.892205" 'grep -q "^constant factor: 0.892205 " "$T/out"'
expect "example: rank 0 (0,0) sends along 1,2, factor 0.892205" \
    'grep -Eq "^ +0 +\(0,0\) +1,2 +0.892205 " "$T/out"'
expect "example: rank 1 (0,1) sends along 1, factor 0.963464 (larger than (0,0))" \
    'grep -Eq "^ +1 +\(0,1\) +1 +0.963464 " "$T/out"'
expect "example: rank 6 (3,0) sends along 2, factor 0.928741" \
    'grep -Eq "^ +6 +\(3,0\) +2 +0.928741 " "$T/out"'
expect "example: rank 7 (3,1) sends nothing, factor exactly 1" \
    'grep -Eq "^ +7 +\(3,1\) +- +1.000000 " "$T/out"'
expect "example: 8 rank lines, no clamping" \
    '[ $(grep -Ec "^ +[0-9]+ +\(" "$T/out") -eq 8 ] && ! grep -q clamped "$T/out"'
expect "example: nothing on stderr" '[ ! -s "$T/err" ]'

run $ARGS $MODEL --json
cp "$T/out" "$T/json"
expect "--json: exit 0, one line" '[ $rc -eq 0 ] && [ $(wc -l < "$T/json") -eq 1 ]'
for key in constant variable clamped procs_grid threads space deps tile_height model; do
    expect "--json: key \"$key\"" 'grep -q "\"$key\":" "$T/json"'
done
expect "--json: \"constant\" is 0.8922051323784722" \
    'grep -q "\"constant\":0.8922051323784722," "$T/json"'
expect "--json: \"variable\" has 8 entries in rank order, the last exactly 1" \
    'grep -q "\"variable\":\[0.8922051323784722,0.963463677300347[0-9]*,0.8922051323784722,[^]]*,1\]" "$T/json" &&
     [ $(sed "s/.*\"variable\":\[\([^]]*\)\].*/\1/" "$T/json" | tr "," "\n" | wc -l) -eq 8 ]'
expect "--json: \"clamped\" info, all false here" \
    'grep -q "\"clamped\":{\"constant\":false,\"variable\":\[false,false,false,false,false,false,false,false\]}" "$T/json"'
if command -v python3 > /dev/null 2>&1; then
    expect "--json: valid JSON with the right types (python3)" \
        'python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert isinstance(d[\"constant\"], float); assert len(d[\"variable\"]) == 8; assert d[\"variable\"][7] == 1; assert d[\"clamped\"][\"variable\"] == [False]*8" "$T/json"'
elif command -v jq > /dev/null 2>&1; then
    expect "--json: valid JSON with the right types (jq)" \
        '[ "$(jq -c "[.variable|length, .variable[7], .clamped.constant]" "$T/json")" = "[8,1,false]" ]'
else
    skip "--json: valid JSON with the right types" "neither python3 nor jq is installed (tools/ensure-deps.sh installs jq)"
fi

# clamping: a tiny tile, 4 threads: the communication exceeds everything
run --procs-grid 4x2 --threads 4 --space 16x8x100 --deps 1,1 --tile-height 1 $MODEL --json
expect "clamped: factor 0 and the flag, the corner process 1 and not flagged" \
    'grep -q "\"constant\":0," "$T/out" &&
     grep -q "\"clamped\":{\"constant\":true,\"variable\":\[true,true,true,true,true,true,true,false\]}" "$T/out"'
run --procs-grid 4x2 --threads 4 --space 16x8x100 --deps 1,1 --tile-height 1 $MODEL
expect "clamped: the text output says so" \
    '[ $rc -eq 0 ] && grep -q "0.000000 clamped" "$T/out" && grep -Eq "^ +0 .*clamped$" "$T/out"'

# the environment supplies the model; options override it
TILEHYBRID_TCOMP=288e-9 TILEHYBRID_TSTARTUP=107e-6 TILEHYBRID_BANDWIDTH=12.5e6 \
    "$CTL" balance $ARGS --json > "$T/out" 2> "$T/err"
expect "environment: TILEHYBRID_* give the same factors" \
    'grep -q "\"constant\":0.8922051323784722," "$T/out"'
TILEHYBRID_TCOMP=1 TILEHYBRID_TSTARTUP=107e-6 TILEHYBRID_BANDWIDTH=12.5e6 \
    "$CTL" balance $ARGS --tcomp 288e-9 --json > "$T/out" 2> "$T/err"
expect "environment: --tcomp overrides TILEHYBRID_TCOMP" \
    'grep -q "\"constant\":0.8922051323784722," "$T/out"'
TILEHYBRID_TCOMP=288ns "$CTL" balance $ARGS $MODEL > "$T/out" 2> "$T/err"
rc=$?
expect "environment: TILEHYBRID_TCOMP=288ns rejected, exit 2, message names it" \
    '[ $rc -eq 2 ] && grep -q "TILEHYBRID_TCOMP" "$T/err"'

run --help
expect "--help: exit 0, mentions every option" \
    '[ $rc -eq 0 ] && grep -q -- "--procs-grid" "$T/out" && grep -q -- "--elem-bytes" "$T/out" &&
     grep -q "TILEHYBRID_BANDWIDTH" "$T/out"'

# bad arguments: exit 2 and a message naming the option
bad() { # NAME WORD ARGS...
    name=$1; word=$2; shift 2
    run "$@"
    if [ $rc -eq 2 ] && grep -q -- "$word" "$T/err" && [ ! -s "$T/out" ]; then
        ok "bad args: $name -> exit 2, names $word"
    else
        notok "bad args: $name -> exit 2, names $word (rc $rc: $(cat "$T/err"))"
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

done_testing
