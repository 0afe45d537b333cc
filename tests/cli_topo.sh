#!/bin/sh
# tests/cli_topo.sh -- tilectl topo end to end.   sh tests/cli_topo.sh ./tilectl
set -u
. tests/lib.sh
CTL=${1:-$TILECTL}
scratch cli_topo
tmp=$T/t
check() { # check COND-STATUS NAME
    if [ "$1" -eq 0 ]; then ok "$2"; else notok "$2"; fi
}

# value KEY: the second field of the line "KEY ..." in $tmp.out
value() { awk -v k="$1" '$1 == k { print $2; exit }' "$tmp.out"; }

# 1. the 16-process table of the topology paper (Sec. 6.1)
for row in 16:1x16 32:1x16 64:2x8 128:2x8 256:4x4; do
    x=${row%%:*} want=${row#*:}
    "$CTL" topo --procs 16 --space "${x}x256x16384" --deps 1,1 > "$tmp.out" 2>&1
    rc=$?
    got=$(value grid) lat=$(value latency_grid)
    [ "$rc" -eq 0 ] && [ "$got" = "$want" ] && [ "$lat" = 4x4 ]
    check $? "16 procs, ${x}x256x16384: grid $want (got '$got'), latency 4x4"
done

# 2. volumes of 16x256x16384 on 1x16 against 4x4, by hand:
#    1x16: blocks 16x16, V = 16384*(16+16);  4x4: blocks 4x64, V = 16384*(64+4)
"$CTL" topo --procs 16 --space 16x256x16384 --deps 1,1 > "$tmp.out" 2>&1
[ "$(value volume)" = 524288 ] && [ "$(value latency_volume)" = 1114112 ] &&
    [ "$(value saving)" = 52.9% ] && [ "$(value fill_steps)" = 15 ] &&
    [ "$(value messages)" = 1 ] && [ "$(value total_volume)" = 3932160 ]
check $? "16x256x16384: volume 524288, latency 1114112, saving 52.9%, 15 fill steps"

# 3. 65536 processes, X1 = 4*X2: 512x128 (topology paper Sec. 4)
"$CTL" topo --procs 65536 --space 4096x1024x100 --deps 1,1 > "$tmp.out" 2>&1
check $? "65536 procs on 4096x1024: exit 0"
[ "$(value grid)" = 512x128 ]
check $? "65536 procs on 4096x1024: grid 512x128 (got '$(value grid)')"

# 4. JSON
"$CTL" topo --procs 16 --space 64x256x16384 --deps 1,1 --threads 2 --json \
    > "$tmp.out" 2>&1
rc=$?
missing=
for key in grid volume latency_grid latency_volume fill_steps solve_seconds \
    thread_grid messages total_volume volume_sent; do
    grep -q "\"$key\":" "$tmp.out" || missing="$missing $key"
done
[ "$rc" -eq 0 ] && [ -z "$missing" ]
check $? "--json has every key (missing:${missing:- none})"
grep -q '"grid":\[2,8\]' "$tmp.out" && grep -q '"latency_grid":\[4,4\]' "$tmp.out"
check $? "--json: grid [2,8], latency_grid [4,4]"
[ "$(grep -c . "$tmp.out")" -eq 1 ] && grep -q '^{.*}$' "$tmp.out"
check $? "--json prints one object on one line"
if command -v python3 > /dev/null 2>&1; then
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["volume"] == 1048576 and d["solve_seconds"] >= 0' "$tmp.out" 2>/dev/null
    check $? "--json parses as JSON (python3), volume 1048576"
fi

# 5. options that change the answer
"$CTL" topo --procs 16 --space 16x256x16384 --deps 1,1 --fixed 4,0 > "$tmp.out" 2>&1
[ "$(value grid)" = 4x4 ]
check $? "--fixed 4,0 keeps P1 = 4: grid 4x4"
"$CTL" topo --procs 16 --space 16x256x16384 --deps 1,1 --policy latency > "$tmp.out" 2>&1
[ "$(value grid)" = 4x4 ] && [ "$(value saving)" = 0.0% ]
check $? "--policy latency: grid 4x4, saving 0.0%"
"$CTL" topo --procs=8 --space=16x256x16384 --deps=1,1 --threads=2 > "$tmp.out" 2>&1
[ "$(value grid)" = 1x8 ] && [ "$(value thread_grid)" = 1x2 ]
check $? "--threads 2 with 8 procs: grid 1x8, thread grid 1x2 (--opt=value form)"
"$CTL" topo --procs 16 --space 2x1000x10 --deps 1,1 > "$tmp.out" 2>&1
rc=$?
[ "$rc" -eq 0 ] && grep -q '^latency_grid 4x4 .*infeasible' "$tmp.out" &&
    [ "$(value grid)" = 1x16 ]
check $? "latency grid 4x4 does not fit 2x1000: reported as infeasible, exit 0"

# 6. bad arguments: exit 2 (1 for "no grid") and a message naming the option
bad() { # bad WANT_STATUS WORD NAME ARGS...
    want=$1 word=$2 name=$3
    shift 3
    "$CTL" topo "$@" > "$tmp.out" 2> "$tmp.err"
    rc=$?
    [ "$rc" -eq "$want" ] && grep -q -e "$word" "$tmp.err" && [ ! -s "$tmp.out" ]
    check $? "$name: exit $want, message names '$word' (got $rc: $(head -c 120 "$tmp.err"))"
}
bad 2 --procs "missing --procs" --space 16x256x16 --deps 1,1
bad 2 --space "missing --space" --procs 16 --deps 1,1
bad 2 --deps "missing --deps" --procs 16 --space 16x256x16
bad 2 --deps "--deps with 1 entry for a 3-D space" --procs 16 --space 16x256x16 --deps 1
bad 2 --deps "--deps with 3 entries for a 3-D space" --procs 16 --space 16x256x16 --deps 1,1,1
bad 2 --space "--space with one entry" --procs 16 --space 16 --deps 1
bad 2 --space "--space with a zero extent" --procs 16 --space 16x0x16 --deps 1,1
bad 2 --procs "--procs 0" --procs 0 --space 16x256x16 --deps 1,1
bad 2 --procs "--procs not a number" --procs 1e3 --space 16x256x16 --deps 1,1
bad 2 --deps "--deps negative" --procs 16 --space 16x256x16 --deps 1,-1
bad 2 --threads "--threads 0" --procs 16 --space 16x256x16 --deps 1,1 --threads 0
bad 2 --policy "--policy bogus" --procs 16 --space 16x256x16 --deps 1,1 --policy fast
bad 2 --fixed "--fixed with 3 entries" --procs 16 --space 16x256x16 --deps 1,1 --fixed 1,2,3
bad 2 --fixed "--fixed 3 does not divide 16" --procs 16 --space 16x256x16 --deps 1,1 --fixed 3,0
bad 2 --bogus "unknown option" --procs 16 --space 16x256x16 --deps 1,1 --bogus
bad 2 --procs "--procs without value" --space 16x256x16 --deps 1,1 --procs
bad 1 --procs "7 procs cannot fit 2x3" --procs 7 --space 2x3x4 --deps 1,1
bad 1 --threads "64 threads cannot fit a 2x2 block" --procs 4 --space 4x4x4 --deps 1,1 --threads 64

# 6b. no grid: the rule a block would break, the dimension and the numbers
#     (issue 34: 194 processes on 571 points with d_1 = 3 said "it needs
#     P_i <= X_i in every dimension", though 194 <= 571)
WIDTH="P_1 would be 194, but a block along dimension 1 must hold the d_1 = 3 points its neighbour reads, so P_1 <= floor(X_1/d_1) = floor(571/3) = 190\$"
bad 1 "^tilectl topo: --procs: no grid of 194 processes fits the space 571x16384 with widths 3: $WIDTH" \
    "194 procs on 571 with d_1 = 3: the width rule, dimension 1, 571/3 = 190" \
    --procs 194 --space 571x16384 --deps 3
! grep -q "P_i <= X_i" "$tmp.err"
check $? "194 procs on 571 with d_1 = 3: no word of the rule P_i <= X_i, which 194 keeps"
bad 1 "^tilectl topo: --procs: no grid of 194 processes .*: $WIDTH" "the same under --policy time" \
    --procs 194 --space 571x16384 --deps 3 --policy time
bad 1 "with the stencil's widths 3: $WIDTH" "the same with --stencil -3,0" \
    --procs 194 --space 571x16384 --stencil "-3,0"
bad 1 "^tilectl topo: --policy latency: the balanced grid of 194 processes does not fit the space 571x16384 with widths 3: the balanced grid 194 has P_1 = 194, but a block along dimension 1 must hold the d_1 = 3 points" \
    "--policy latency: the balanced grid named, and the width rule" \
    --procs 194 --space 571x16384 --deps 3 --policy latency
bad 2 "^tilectl topo: --fixed: .*: P_1 = 194 is fixed, but a block along dimension 1 must hold the d_1 = 3 points its neighbour reads, so P_1 <= floor(X_1/d_1) = floor(571/3) = 190\$" \
    "--fixed 194 on 571 with d_1 = 3: the width rule (it said 'larger than its extent')" \
    --procs 194 --space 571x16384 --deps 3 --fixed 194
bad 1 "^tilectl topo: --procs: no grid of 600 processes fits the space 571x16384 with widths 1: P_1 would be 600, but a block along dimension 1 must hold at least one point, so P_1 <= X_1 = 571\$" \
    "600 procs on 571: P_1 <= X_1 still named where it fails" --procs 600 --space 571x16384 --deps 1
bad 1 "P_1 would be 600, but a block along dimension 1 must hold at least one point, so P_1 <= X_1 = 571 (and the d_1 = 3 points its neighbour reads: P_1 <= 190)\$" \
    "600 procs on 571 with d_1 = 3: P_1 <= X_1 first, the width rule beside it" \
    --procs 600 --space 571x16384 --deps 3
bad 1 "^tilectl topo: --procs: no grid of 194 processes fits the space 150x150x100 with widths 3,3: no factorisation of 194 = 2 x 97 fits the limits P_1 <= floor(150/3) = 50, P_2 <= floor(150/3) = 50 (" \
    "194 procs on 150x150 with widths 3,3: no factorisation fits the limits of both dimensions" \
    --procs 194 --space 150x150x100 --deps 3,3
bad 1 "^tilectl topo: --procs: no grid of 5000 processes fits the space 50x50x100 with widths 1,1: the limits allow at most 2500 processes, not 5000: P_1 <= X_1 = 50, P_2 <= X_2 = 50 (a block holds at least one point)\$" \
    "5000 procs on 50x50: the limits' product 2500" --procs 5000 --space 50x50x100 --deps 1,1
bad 1 "P_1 would be 97 (194 over the fixed entries' product 2), but a block along dimension 1 must hold the d_1 = 3 points" \
    "--fixed 0,2: the processes left to dimension 1" --procs 194 --space 150x150x100 --deps 3,3 --fixed 0,2

# 7. causes named: overflows name the option and the numbers, numbers
#    follow the one rule (no spaces, '+'), and the comparison grid's
#    overflow is not an error
bad 1 --space "V*Z past 64 bits" --procs 2 --space 9223372036854775807x5x5 --deps 1,1
grep -q "grid 2x1, 4611686018427387909 \* 5 elements" "$tmp.err"
check $? "V*Z past 64 bits: the message shows the grid and V * Z"
bad 1 "--space, --deps" "no grid's V fits in 64 bits" \
    --procs 1 --space 9223372036854775807x9223372036854775807x5 --deps 1,1
bad 2 --procs "--procs '<tab>16'" --procs "$(printf '\t16')" --space 16x256x16 --deps 1,1
bad 2 --deps "--deps 1,+1" --procs 16 --space 16x256x16 --deps 1,+1
bad 2 "entry 3 is out of range" "--space entry past 64 bits" \
    --procs 16 --space 16x256x99999999999999999999 --deps 1,1
"$CTL" topo --procs 4 --space 4x4611686018427387904x3 --deps 1,0 --json > "$tmp.out" 2> "$tmp.err"
rc=$?
[ "$rc" -eq 0 ] && grep -q '"grid":\[1,4\]' "$tmp.out" &&
    grep -q '"latency_feasible":true,"latency_volume":null,"latency_fill_steps":2,"saving":null' "$tmp.out"
check $? "the latency grid's volume past 64 bits: null, not an error (got $rc: $(head -c 120 "$tmp.err"))"

# 8. diagonal stencils: extended faces in the volume (as tiling.h sends them)
"$CTL" topo --procs 4 --space 64x64x1000 --stencil "-1,-1,0 -1,0,0 0,-1,0" > "$tmp.out" 2>&1
rc=$?
# 2x2, blocks 32x32: the face along 2 carries 32 + 1 values per plane
[ "$rc" -eq 0 ] && [ "$(value grid)" = 2x2 ] && [ "$(value volume)" = 65000 ] &&
    grep -q '^stencil .*widths 1,1, extended faces: ext\[2\]\[1\]=1$' "$tmp.out"
check $? "--stencil '-1,-1,0 -1,0,0 0,-1,0': widths 1,1, ext[2][1] = 1, volume 1000 * (32 + 33) = 65000"
"$CTL" topo --procs 4 --space 64x64x1000 --deps 1,1 > "$tmp.out" 2>&1
[ "$(value volume)" = 64000 ]
check $? "the same with --deps 1,1: volume 64000 (no corner travels)"
"$CTL" topo --procs 4 --space 7x4x4x10 --stencil "-1,-1,-1,0 -1,0,0,0 0,-1,0,0 0,0,-1,-1" > "$tmp.out" 2>&1
g1=$(value grid) v1=$(value volume)
"$CTL" topo --procs 4 --space 7x4x4x10 --deps 1,1,1 > "$tmp.out" 2>&1
[ "$g1" = 2x1x2 ] && [ "$v1" = 430 ] && [ "$(value grid)" = 1x2x2 ]
check $? "7x4x4, every face extended: grid 2x1x2 (volume 430; got $g1, $v1), where --deps 1,1,1 gives 1x2x2"
"$CTL" topo --procs 4 --space 64x64x100 --stencil "1,-1,0 0,-1,-1" --dir -1,1,1 --json > "$tmp.out" 2>&1
grep -q '"deps":\[1,1\],"stencil":\[\[1,-1,0\],\[0,-1,-1\]\],"ext":\[\[0,0\],\[1,0\]\]' "$tmp.out"
check $? "--dir -1,1,1: \"1,-1,0\" reads the previous point of a downward loop; --json shows deps, stencil, ext"
"$CTL" topo --procs 4 --space 64x64x100 --stencil "-1,-1,0" --json > "$tmp.out" 2>&1
grep -q '"ext":\[\[0,0\],\[1,0\]\]' "$tmp.out" && "$CTL" topo --procs 4 --space 64x64x100 --deps 1,1 --json |
    grep -q '"stencil":null,"ext":\[\[0,0\],\[0,0\]\]'
check $? "--json: ext [[0,0],[1,0]] for a diagonal, stencil null and ext 0 with --deps"

# 9. the time policy: the pipeline model's least predicted time
MODERN="--tile-height 64 --tcomp 6.4e-9 --tstartup 1e-6 --bandwidth 12.5e9"
# shellcheck disable=SC2086
"$CTL" topo --procs 1024 --space 64x1024x2048 --deps 1,1 --policy time $MODERN > "$tmp.out" 2>&1
rc=$?
[ "$rc" -eq 0 ] && [ "$(value grid)" = 32x32 ] && [ "$(value comm_grid)" = 8x128 ] &&
    [ "$(value steps)" = 94 ] && [ "$(value predicted_seconds)" = 0.00278306 ]
check $? "--policy time, 64x1024x2048 on 1024 ranks of a modern cluster: 32x32 (94 steps, 2.78 ms), volume-optimal 8x128 beside it"
# shellcheck disable=SC2086
"$CTL" topo --procs 1024 --space 64x1024x2048 --deps 3,3 --policy time $MODERN > "$tmp.out" 2>&1
[ "$(value grid)" = 16x64 ] && grep -q '^latency_grid 32x32 .*infeasible.*narrower' "$tmp.out"
check $? "--deps 3,3: 16x64; the balanced 32x32 (blocks 2 wide) is infeasible for tiling.h"
for row in 16:1x16 32:1x16 64:2x8 128:4x4 256:4x4; do
    x=${row%%:*} want=${row#*:}
    "$CTL" topo --procs 16 --space "${x}x256x16384" --deps 1,1 --policy time > "$tmp.out" 2>&1
    [ "$(value grid)" = "$want" ] || break
done
check $? "--policy time on the papers' cluster (the defaults, tile height 100): 1x16 1x16 2x8 4x4 4x4"
"$CTL" topo --procs 16 --space 64x256x16384 --deps 1,1 --policy time --json > "$tmp.out" 2>&1
missing=
for key in policy predicted_seconds steps comm_grid comm_volume comm_predicted_seconds \
    latency_predicted_seconds tile_height tcomp tstartup bandwidth elem_bytes; do
    grep -q "\"$key\":" "$tmp.out" || missing="$missing $key"
done
[ -z "$missing" ] && grep -q '"policy":"time"' "$tmp.out" &&
    grep -q '"tcomp":2.88e-07,"tstartup":0.000107,"bandwidth":10000000,"elem_bytes":8' "$tmp.out"
check $? "--policy time --json: the model's keys (missing:${missing:- none}) and the papers' defaults"
"$CTL" topo --procs 16 --space 64x256x16384 --deps 1,1 --policy time --tile-height 25 > "$tmp.out" 2>&1
[ "$(value grid)" = 1x16 ]
check $? "--tile-height 25 changes the time policy's answer on 64x256: 1x16 (one message a tile fewer)"

# 10. their refusals
bad 2 "not both" "--deps with --stencil" --procs 4 --space 8x8x8 --deps 1,1 --stencil "-1,0,0"
bad 2 --dir "--dir without --stencil" --procs 4 --space 8x8x8 --deps 1,1 --dir 1,1,1
bad 2 "later point along dimension 1" "--stencil reading ahead" --procs 4 --space 8x8x8 --stencil "1,0,0"
bad 2 "point itself" "--stencil with the point itself" --procs 4 --space 8x8x8 --stencil "-1,0,0 0,0,0"
bad 2 "vector 1 (-1,1,0) reads a later point along dimension 2" "--stencil reading ahead in --loop-order" \
    --procs 4 --space 8x8x8 --stencil "-1,1,0" --loop-order 2,1,3
bad 2 "the skewed space 7x36x61 with the stencil's widths 1,1: P_1 = 8 is fixed, but a block along dimension 1 must hold at least one point, so P_1 <= X_1 = 7" \
    "--fixed on a skewed space names the skewed space, its dimension and extent" --procs 8 \
    --space 30x20x7 --fixed 8,0 --stencil "-1,-1,0 -1,0,0 -1,1,0 0,-1,0 0,0,-1 0,1,-1 1,-1,-1 1,0,-1 1,1,-1"
bad 2 "--loop-order needs --stencil" "--loop-order without --stencil" --procs 4 --space 8x8x8 --deps 1,1 --loop-order 3,1,2
bad 2 "--loop-order: entry 2 is 4" "--loop-order out of range" --procs 4 --space 8x8x8 --stencil "-1,0,0" --loop-order 3,4,1
bad 2 "has 2 components" "--stencil vector of the wrong length" --procs 4 --space 8x8x8 --stencil "-1,0"
bad 2 "--dir: entry 2 is 0" "--dir 0" --procs 4 --space 8x8x8 --stencil "-1,0,0" --dir 1,0,1
bad 2 --tcomp "--tcomp 0" --procs 4 --space 8x8x8 --deps 1,1 --policy time --tcomp 0
bad 2 --bandwidth "--bandwidth not a number" --procs 4 --space 8x8x8 --deps 1,1 --bandwidth 10MB
bad 2 --tile-height "--tile-height 0" --procs 4 --space 8x8x8 --deps 1,1 --tile-height 0
bad 2 --policy "--policy fastest" --procs 4 --space 8x8x8 --deps 1,1 --policy fastest
# a cost in range whose model overflows a double names the option and the
# overflow (it said "no grid of 4 processes fits the space", exit 1)
bad 2 "^tilectl topo: --tcomp: the predicted time of every grid of 4 processes overflows" \
    "--tcomp 1e308: the model overflows" --procs 4 --space 100x100x100 --deps 1,1 --policy time --tcomp 1e308
bad 2 "^tilectl topo: --tstartup: the predicted time of every grid of 4 processes overflows" \
    "--tstartup 1e308: the model overflows" --procs 4 --space 100x100x100 --deps 1,1 --policy time --tstartup 1e308
bad 2 "^tilectl topo: --bandwidth: the predicted time of every grid of 4 processes overflows.*raise it" \
    "--bandwidth 1e-300 with 10 kB elements: the model overflows" --procs 4 --space 100x100x100 \
    --deps 1,1 --policy time --bandwidth 1e-300 --elem-bytes 10000

"$CTL" topo --help > "$tmp.out" 2>&1
check $? "--help: exit 0"
grep -q -e "--procs" "$tmp.out" && grep -q -e "--space" "$tmp.out"
check $? "--help lists the options"

done_testing
