#!/bin/sh
# tests/cli_plan.sh -- tilectl plan: the grid, the tile height of tiling.h's
# pipeline model, the predicted time and efficiency, the memory of a
# process; its answers against the model's formula and a sweep of
# tilectl plan --tile-height, and its refusals.
set -u
. tests/lib.sh
CTL=${1:-$TILECTL}
scratch cli_plan
COSTS="--tcomp 2e-9 --tstartup 5e-6 --bandwidth 5e9 --cache-bytes 33554432"

# a top-level number or string of tilectl plan's one-line JSON (no nesting but arrays)
val() { sed -n 's/.*"'"$2"'":"\{0,1\}\([^",]*\).*/\1/p' "$1"; }

# the text of docs/REFERENCE.md's example
"$CTL" plan --procs 2 --space 64x256x16384 --deps 1,1 $COSTS > "$T/out" 2> "$T/err"
rc=$?
if [ $rc -eq 0 ] && grep -q '^grid 1x2 (2 processes x 1 thread, thread grid 1x1)$' "$T/out" &&
   grep -q '^tile height 71 (the model.s minimum; cache bound 99)$' "$T/out" &&
   grep -q '^predicted time 0.272444 s (232 tile steps), parallel efficiency 98.5%$' "$T/out" &&
   grep -q '^memory per process 23903744 bytes' "$T/out" && [ ! -s "$T/err" ]; then
    ok "plan: grid, tile height, predicted time, efficiency, memory (docs/REFERENCE.md's example)"
else notok "plan: exit $rc: $(cat "$T/out" "$T/err" | head -c 400)"; fi

# where the cache bound chooses the height, the text says so and gives the
# model's own minimum (its height with --cache-bytes large enough); the
# bound may choose below itself (the fewest tiles' smallest height: 10 under
# a bound of 11); the costs left at the papers' cluster's are named
"$CTL" plan --procs 2 --space 64x256x16384 --deps 1,1 $COSTS --cache-bytes 1048576 > "$T/cb" 2>&1
zf=$("$CTL" plan --procs 2 --space 64x256x16384 --deps 1,1 $COSTS --cache-bytes 1000000000000 \
     --json 2>&1 | sed -n 's/.*"tile_height":\([0-9]*\).*/\1/p')
zb=$(sed -n 's/^tile height \([0-9]*\) (the cache bound; the model.s minimum without it: \([0-9]*\))$/\1 \2/p' "$T/cb")
"$CTL" plan --procs 2 --space 64x256x100 --deps 1,1 --tcomp 2e-9 --tstartup 1e-2 --bandwidth 5e9 \
    --cache-bytes 4000000 > "$T/cb2" 2>&1
[ -n "$zb" ] && [ "${zb#* }" = "$zf" ] && [ "${zb% *}" -lt "$zf" ] &&
    ! grep -q "papers' cluster" "$T/cb" &&
    grep -q '^tile height 10 (the cache bound; the model.s minimum without it: 100)$' "$T/cb2" &&
    "$CTL" plan --procs 2 --space 64x256x16384 --deps 1,1 |
        grep -q "^(tcomp, tstartup and bandwidth: the papers' cluster, the defaults;" &&
    "$CTL" plan --procs 2 --space 64x256x16384 --deps 1,1 --tcomp 1e-9 --tstartup 1e-6 |
        grep -q "^(bandwidth: the papers' cluster, the default;" &&
    ok "plan: a height the cache bound chose says so, with the model's minimum ($zb; 10 under 11); the default costs named" ||
    notok "plan: the cache bound's height: '$zb', the model's minimum '$zf': $(head -c 300 "$T/cb") $(sed -n 2p "$T/cb2")"

# the chosen height is the least predicted time of a sweep of given heights
"$CTL" plan --procs 2 --space 64x256x4000 --deps 1,1 $COSTS --json > "$T/best" 2>&1
zb=$(val "$T/best" tile_height) tb=$(val "$T/best" predicted_seconds)
worse=""
for z in 1 2 5 10 20 30 40 50 60 63 65 70 80 100 150 200 400 1000 4000; do
    "$CTL" plan --procs 2 --space 64x256x4000 --deps 1,1 $COSTS --tile-height $z --json \
        > "$T/z" 2>&1 || { worse="$worse z=$z:failed"; continue; }
    [ "$(val "$T/z" tile_height_origin)" = given ] || worse="$worse z=$z:origin"
    awk -v a="$(val "$T/z" predicted_seconds)" -v b="$tb" 'BEGIN { exit !(a < b * (1 - 1e-12)) }' &&
        worse="$worse z=$z:faster"
done
[ -n "$zb" ] && [ -z "$worse" ] &&
    ok "plan --json: height $zb; no --tile-height of a sweep predicts less time" ||
    notok "plan: height '$zb' ($tb s) beaten or broken:$worse"

# the formula itself: T(z) = (ceil(Z/z) + F) (z tcomp X1 X2 / P + m tstartup + z 8 S / B)
"$CTL" plan --procs 2 --space 64x256x4000 --deps 1,1 $COSTS --tile-height 50 --json > "$T/z"
want=$(awk 'BEGIN { printf "%.6g", (80 + 1) * (50 * 2e-9 * 64 * 128 + 5e-6 + 50 * 8 * 64 / 5e9) }')
got=$(awk -v t="$(val "$T/z" predicted_seconds)" 'BEGIN { printf "%.6g", t }')
[ "$want" = "$got" ] && [ "$(val "$T/z" steps)" = 81 ] &&
    ok "plan --tile-height 50: T = 81 steps x (z t_plane + t_msg) = $got s" ||
    notok "plan --tile-height 50: $got s, want $want s"

# one process: no pipeline, every height of the fewest tiles under the cache
# bound ties (the last tile at its own height): the most even, ceil(Z/1171)
"$CTL" plan --procs 1 --space 64x256x16384 --deps 1,1 --cache-bytes 8388608 --json > "$T/one"
[ "$(val "$T/one" tile_height)" = 14 ] && [ "$(val "$T/one" cache_bound)" = 14 ] &&
    [ "$(val "$T/one" steps)" = 1171 ] && [ "$(val "$T/one" efficiency)" = 1.000000 ] &&
    ok "plan, one process: the cache bound, 14 (1171 tiles), efficiency 1" ||
    notok "plan, one process: $(cat "$T/one")"

# the height and the cache bound a plan chooses (demos/adi, the same costs
# and cache): the plane as the plan stores it (diagonal-major in the
# hyperplane order; tilectl once sized it row-major: 166 for a plan's 99),
# the largest block's when blocks differ (257 = 129 + 128)
for c in "1 64x256x16384" "2 64x256x16384" "2 64x257x4096" "2 16x256x16384" "3 40x100x2000"; do
    np=${c%% *} sp=${c#* }
    "$CTL" plan --procs "$np" --space "$sp" --deps 1,1 $COSTS --json > "$T/cmp" 2>&1
    run_job "$np" env TILEHYBRID_CACHE_BYTES=33554432 TILEHYBRID_TCOMP=2e-9 \
        TILEHYBRID_TSTARTUP=5e-6 TILEHYBRID_BANDWIDTH=5e9 "$DEMODIR/adi" --space "$sp" --json
    z=$(sed -n 's/.*"tile_height": \([0-9]*\).*/\1/p' "$T/out")
    b=$(sed -n 's/.*"tile_height_cache_bound": \([0-9]*\).*/\1/p' "$T/out")
    [ -n "$z" ] && [ "$z" = "$(val "$T/cmp" tile_height)" ] && [ "$b" = "$(val "$T/cmp" cache_bound)" ] &&
        ok "plan --procs $np --space $sp: height $z, cache bound $b, as a plan chooses" ||
        notok "plan --procs $np --space $sp: tilectl $(val "$T/cmp" tile_height) (bound $(val "$T/cmp" cache_bound)), a plan '$z' (bound '$b'): $(head -c 300 "$T/out" "$T/err.raw" 2>/dev/null)"
done

# the caches of two machines, as Linux's sysfs shows cpu0's, for
# TILEHYBRID_CACHE_DIR (tilectl and a plan then read nothing of this
# machine's): an AMD Zen 4 VM (level 2 1 MiB, level 3 32 MiB of CPUs 0-1)
# and an Intel Xeon VM whose level 3 is its host's (2 MiB, 480 MiB of CPUs
# 0-127); every comparison below that no --cache-bytes fixes runs on both
# fake_cache DIR INDEX LEVEL TYPE SIZE CPUS: one cache of such a tree
fake_cache() {
    mkdir -p "$1/index$2" && echo "$3" > "$1/index$2/level" && echo "$4" > "$1/index$2/type" &&
        echo "$5" > "$1/index$2/size" && echo "$6" > "$1/index$2/shared_cpu_list"
}
fake_cache "$T/zen4" 0 1 Data 32K 0
fake_cache "$T/zen4" 1 2 Unified 1024K 0
fake_cache "$T/zen4" 2 3 Unified 32768K 0-1
fake_cache "$T/xeon" 0 1 Data 48K 0
fake_cache "$T/xeon" 1 2 Unified 2048K 0
fake_cache "$T/xeon" 2 3 Unified 491520K 0-127

# a window beyond the given cache even at z = 1 (a plane of 64x256 is 137 KB):
# one process takes 1, the smallest window (2 in the hyperplane order, whose
# planes go in pairs: tile_plane_pairs); two take the last-level bound
# (tile_height_zmax), at most Z (the Xeon's 480 MiB hold windows of more than
# 1000 planes), as a plan does
for c in "zen4 1 4096" "zen4 2 4096" "xeon 1 4096" "xeon 2 4096" "xeon 2 1000"; do
    set -- $c
    h=$1 np=$2 Z=$3
    env TILEHYBRID_CACHE_DIR="$T/$h" "$CTL" plan --procs "$np" --space 64x256x$Z --deps 1,1 \
        --tcomp 2e-9 --tstartup 5e-6 --bandwidth 5e9 --cache-bytes 100000 --json > "$T/cmp" 2>&1
    run_job "$np" env TILEHYBRID_CACHE_DIR="$T/$h" TILEHYBRID_CACHE_BYTES=100000 \
        TILEHYBRID_TCOMP=2e-9 TILEHYBRID_TSTARTUP=5e-6 TILEHYBRID_BANDWIDTH=5e9 "$DEMODIR/adi" \
        --space 64x256x$Z --json
    z=$(sed -n 's/.*"tile_height": \([0-9]*\).*/\1/p' "$T/out")
    b=$(sed -n 's/.*"tile_height_cache_bound": \([0-9]*\).*/\1/p' "$T/out")
    want=1
    [ "$(val "$T/cmp" order)" = hyper ] && want=2
    [ "$np" = 1 ] || want=$(val "$T/cmp" cache_bound)
    [ -n "$z" ] && [ "$z" = "$(val "$T/cmp" tile_height)" ] && [ "$b" = "$(val "$T/cmp" cache_bound)" ] &&
        [ "$b" = "$want" ] && { [ "$np" = 1 ] || [ "$b" -gt 1 ]; } && [ "$b" -le "$Z" ] &&
        { [ "$Z" != 1000 ] || [ "$b" = 1000 ]; } &&
        ok "plan --procs $np --space 64x256x$Z on the $h's caches, a plane beyond --cache-bytes: height $z, cache bound $b, as a plan chooses" ||
        notok "plan --procs $np --space 64x256x$Z on the $h's caches, a plane beyond --cache-bytes: tilectl $(val "$T/cmp" tile_height) (bound $(val "$T/cmp" cache_bound)), a plan '$z' (bound '$b'): $(head -c 300 "$T/out" "$T/err.raw" 2>/dev/null)"
done

# --order forces the in-tile order as the demos' --order does: the plane as
# that order stores it, and a forced z's bound from the last-level cache
# when no cache size is given (then the environment's costs only, on each
# fake machine's caches)
for c in "planes 2 --cache-bytes" "z 2 --cache-bytes" "hyper 1 --cache-bytes" "z 2 zen4" \
         "z 2 xeon" "planes 1 zen4" "planes 1 xeon"; do
    set -- $c
    o=$1 np=$2
    if [ "$3" != --cache-bytes ]; then
        env -u TILEHYBRID_CACHE_BYTES TILEHYBRID_CACHE_DIR="$T/$3" "$CTL" plan --procs "$np" \
            --space 64x256x16384 --deps 1,1 --tcomp 2e-9 --tstartup 5e-6 \
            --bandwidth 5e9 --order $o --json > "$T/cmp" 2>&1
        run_job "$np" env -u TILEHYBRID_CACHE_BYTES TILEHYBRID_CACHE_DIR="$T/$3" TILEHYBRID_TCOMP=2e-9 \
            TILEHYBRID_TSTARTUP=5e-6 TILEHYBRID_BANDWIDTH=5e9 "$DEMODIR/adi" --space 64x256x16384 \
            --order $o --json
    else
        "$CTL" plan --procs "$np" --space 64x256x16384 --deps 1,1 $COSTS --order $o --json > "$T/cmp" 2>&1
        run_job "$np" env TILEHYBRID_CACHE_BYTES=33554432 TILEHYBRID_TCOMP=2e-9 \
            TILEHYBRID_TSTARTUP=5e-6 TILEHYBRID_BANDWIDTH=5e9 "$DEMODIR/adi" --space 64x256x16384 \
            --order $o --json
    fi
    z=$(sed -n 's/.*"tile_height": \([0-9]*\).*/\1/p' "$T/out")
    b=$(sed -n 's/.*"tile_height_cache_bound": \([0-9]*\).*/\1/p' "$T/out")
    [ -n "$z" ] && [ "$z" = "$(val "$T/cmp" tile_height)" ] && [ "$b" = "$(val "$T/cmp" cache_bound)" ] &&
        [ "$(val "$T/cmp" order)" = $o ] &&
        ok "plan --order $o --procs $np ($3): height $z, cache bound $b, as a plan in that order" ||
        notok "plan --order $o --procs $np ($3): tilectl $(head -c 300 "$T/cmp"); a plan '$z' (bound '$b'): $(head -c 300 "$T/out" "$T/err.raw" 2>/dev/null)"
done
# threads without a given cache: the window may fill a quarter of the
# threads' share of the level-3 cache (tile_height_window_bytes), as a
# threaded plan's; at least the level-2 bound of one thread (the Zen 4's
# share is the larger, 8 MiB; the Xeon's 2 x 2 MiB of level 2)
for c in "funneled zen4" "multiple zen4" "funneled xeon" "multiple xeon"; do
    set -- $c
    m=$1 h=$2
    env -u TILEHYBRID_CACHE_BYTES TILEHYBRID_CACHE_DIR="$T/$h" "$CTL" plan --procs 1 --threads 2 \
        --space 64x256x16384 --deps 1,1 --tcomp 2e-9 --tstartup 5e-6 --bandwidth 5e9 --json > "$T/cmp" 2>&1
    env -u TILEHYBRID_CACHE_BYTES TILEHYBRID_CACHE_DIR="$T/$h" "$CTL" plan --procs 1 --threads 1 \
        --space 64x256x16384 --deps 1,1 --tcomp 2e-9 --tstartup 5e-6 --bandwidth 5e9 --json > "$T/one" 2>&1
    run_job 1 env -u TILEHYBRID_CACHE_BYTES TILEHYBRID_CACHE_DIR="$T/$h" TILEHYBRID_TCOMP=2e-9 \
        TILEHYBRID_TSTARTUP=5e-6 TILEHYBRID_BANDWIDTH=5e9 "$DEMODIR/adi" --space 64x256x16384 \
        --model $m --threads 2 --json
    b=$(sed -n 's/.*"tile_height_cache_bound": \([0-9]*\).*/\1/p' "$T/out")
    [ -n "$b" ] && [ "$b" = "$(val "$T/cmp" cache_bound)" ] && [ "$b" -ge "$(val "$T/one" cache_bound)" ] &&
        ok "plan --threads 2 ($m) on the $h's caches: cache bound $b as the plan's (one thread: $(val "$T/one" cache_bound))" ||
        notok "plan --threads 2 ($m) on the $h's caches: tilectl $(val "$T/cmp" cache_bound), a plan '$b': $(head -c 300 "$T/out" "$T/err.raw" 2>/dev/null)"
done
"$CTL" plan --procs 2 --space 64x256x16384 --deps 1,1 $COSTS > "$T/out" 2>&1
grep -q "^in-tile order hyper (the plan's choice)$" "$T/out" &&
    ok "plan: the in-tile order the plan chooses (hyper)" || notok "plan: the order line: $(cat "$T/out")"

# threads and a stencil
"$CTL" plan --procs 4 --threads 2 --space 64x64x1000 --stencil "-1,-1,0 -1,0,0 0,-1,0 0,0,-1" \
    $COSTS --json > "$T/th" 2>&1 &&
    grep -q '"thread_grid":\[1,2\]\|"thread_grid":\[2,1\]' "$T/th" &&
    ok "plan --threads 2 --stencil: $(head -c 160 "$T/th")" ||
    notok "plan --threads --stencil: $(cat "$T/th")"

# a stencil that reads ahead (seidel-2d and its 3-D variant in time): tilectl
# plan and topo take the space a plan skews to and choose the grid the
# demo's plan runs; --loop-order as cfg.loop_order (the demo's t, i, j[, k]
# is the default, given here as 3,1,2 / 4,1,2,3 once each)
arr() { sed -n 's/.*"'"$2"'": *\[\([0-9, ]*\)\].*/\1/p' "$1" | tr -d ' '; }
S2="-1,-1,0 -1,0,0 -1,1,0 0,-1,0 0,0,-1 0,1,-1 1,-1,-1 1,0,-1 1,1,-1"
S3="-1,0,0,0 0,-1,0,0 0,0,-1,0 0,0,0,-1 0,0,1,-1 0,1,0,-1 1,0,0,-1"
for c in "2 2 62x62x10 64 - 10,71,141" "3 2 62x62x10 64 3,1,2 10,71,141" "4 2 62x62x10 64 - 10,71,141" \
         "4 3 10x10x10x4 12 4,1,2,3 4,13,13,13"; do
    set -- $c
    np=$1 d=$2 sp=$3 nn=$4 lo=$5 want=$6
    S=$S2; [ "$d" = 3 ] && S=$S3
    order=""; [ "$lo" != - ] && order="--loop-order $lo"
    # shellcheck disable=SC2086
    "$CTL" plan --procs "$np" --space "$sp" --stencil "$S" $order $COSTS --json > "$T/cmp" 2>&1
    # shellcheck disable=SC2086
    "$CTL" topo --procs "$np" --space "$sp" --stencil "$S" $order --json > "$T/topo" 2>&1
    run_job "$np" "$DEMODIR/seidel" --dims "$d" --n "$nn" --steps "${sp##*x}" --json
    g=$(arr "$T/out" grid)
    [ -n "$g" ] && [ "$g" = "$(arr "$T/cmp" grid)" ] && [ "$g" = "$(arr "$T/topo" grid)" ] &&
        [ "$(arr "$T/cmp" skewed_space)" = "$want" ] && [ "$(arr "$T/topo" skewed_space)" = "$want" ] &&
        grep -q '"skewed": true' "$T/out" &&
        ok "plan and topo --stencil (seidel ${d}-D in time, --procs $np${lo#-}): skewed space $want, grid $g as the demo's plan" ||
        notok "seidel ${d}-D --procs $np: demo grid '$g' ($(head -c 200 "$T/out" "$T/err")); plan $(head -c 300 "$T/cmp"); topo $(head -c 300 "$T/topo")"
done
"$CTL" plan --procs 2 --space 8x8x8 --stencil "1,-1,0" --dir -1,1,1 --json > "$T/cmp" 2>&1 &&
    grep -q '"skewed_space":null' "$T/cmp" &&
    ok "plan --dir -1,1,1: (1,-1,0) is earlier along every dimension, nothing to skew" ||
    notok "plan --dir: $(cat "$T/cmp")"

# plan_fails STATUS LABEL WHAT WANT ARGS...: tilectl plan ARGS exits with
# STATUS, nothing on stdout, one line on stderr matching WANT
plan_fails() {
    status=$1 label=$2 what=$3 want=$4
    shift 4
    "$CTL" plan "$@" > "$T/out" 2> "$T/err"
    rc=$?
    [ $rc -eq "$status" ] && [ ! -s "$T/out" ] && [ "$(wc -l < "$T/err")" -eq 1 ] &&
        grep -q -- "$want" "$T/err" && ok "$label $what: $(cat "$T/err")" ||
        notok "plan $what: exit $rc, stdout '$(head -c 80 "$T/out")', stderr '$(cat "$T/err")'"
}
# refusals: one line on stderr naming the option, exit 2, nothing on stdout
bad() { plan_fails 2 "plan refuses" "$@"; }
bad "--order" "not planes, z, hyper or auto" --procs 2 --space 8x8x8 --deps 1,1 --order diagonal
bad "no --procs" "--procs" --space 8x8x8 --deps 1,1
bad "--procs 0" "--procs" --procs 0 --space 8x8x8 --deps 1,1
bad "--deps and --stencil" "--deps or --stencil" --procs 2 --space 8x8x8 --deps 1,1 --stencil "-1,0,0"
bad "--deps of the wrong length" "--deps has 1 entries" --procs 2 --space 8x8x8 --deps 1
bad "--tile-height 0" "--tile-height" --procs 2 --space 8x8x8 --deps 1,1 --tile-height 0
bad "--tcomp -1" "--tcomp" --procs 2 --space 8x8x8 --deps 1,1 --tcomp -1
bad "a read of a later point (in the loop order)" \
    "^tilectl plan: --stencil: stencil vector 1 (1,-1,0) reads a later point along dimension 1" \
    --procs 2 --space 8x8x8 --stencil "1,-1,0"
bad "the same in another loop order" "vector 1 (-1,1,0) reads a later point along dimension 2" \
    --procs 2 --space 8x8x8 --stencil "-1,1,0" --loop-order 2,1,3
bad "--loop-order of the wrong length" "--loop-order has 2 entries, --space needs 3" \
    --procs 2 --space 8x8x8 --stencil "-1,0,0" --loop-order 2,1
bad "--loop-order naming a dimension twice" "--loop-order: entry 3 is 1: list each dimension 1..3 once" \
    --procs 2 --space 8x8x8 --stencil "-1,0,0" --loop-order 2,1,1
bad "--loop-order without --stencil" "--loop-order needs --stencil" \
    --procs 2 --space 8x8x8 --deps 1,1 --loop-order 3,1,2
bad "33 stencil vectors" "more than 32 vectors" --procs 2 --space 8x8x8 \
    --stencil "$(i=0; while [ $i -lt 33 ]; do printf '%s ' "-1,0,-$((i + 1))"; i=$((i + 1)); done)"
bad "--dir 0" "--dir: entry 2 is 0" --procs 2 --space 8x8x8 --stencil "-1,0,0" --dir 1,0,1
bad "an unknown option" "--bogus" --procs 2 --space 8x8x8 --deps 1,1 --bogus 1
# costs in range whose model overflows: refused naming the option (the JSON
# said "predicted_seconds":inf, which is not JSON), nothing on stdout
bad "--tstartup 1e308 --bandwidth 1e-300 --json (the model overflows)" \
    "^tilectl plan: --tstartup: the model's predicted time overflows (more than 1.79769e+308 s): lower it$" \
    --procs 4 --space 100x100x100 --deps 1,1 --tstartup 1e308 --bandwidth 1e-300 --json
bad "--tcomp 1e308 --json (the model overflows)" "^tilectl plan: --tcomp: the model's predicted time overflows" \
    --procs 4 --space 100x100x100 --deps 1,1 --tcomp 1e308 --json
bad "--bandwidth 1e-300 --elem-bytes 100000 (the model overflows)" "^tilectl plan: --bandwidth: .*: raise it$" \
    --procs 4 --space 100x100x100 --deps 1,1 --bandwidth 1e-300 --elem-bytes 100000 --tile-height 10

# --tstartup 0 would be "not given" to a plan (the demos refuse it too;
# TILEHYBRID_TSTARTUP=0 models no start-up): refused, not used as 0
bad "--tstartup 0" "^tilectl plan: --tstartup: '0' must be > 0 (a plan reads 0 as \"not given\"; TILEHYBRID_TSTARTUP=0 models no start-up)$" \
    --procs 2 --space 8x8x8 --deps 1,1 --tstartup 0
"$CTL" plan --procs 2 --space 8x8x8 --deps 1,1 --json > "$T/z0" 2>&1 &&
    TILEHYBRID_TSTARTUP=0 "$CTL" plan --procs 2 --space 8x8x8 --deps 1,1 --json > "$T/z1" 2>&1 &&
    [ "$(val "$T/z1" tstartup)" = 0 ] && [ "$(val "$T/z0" tstartup)" = 0.000107 ] &&
    ok "TILEHYBRID_TSTARTUP=0: tstartup 0 (else the default 0.000107)" ||
    notok "TILEHYBRID_TSTARTUP=0: $(cat "$T/z1")"
# --elem-bytes past tiling.h's limit (2^30): its conversion to a whole
# number of bytes was undefined, and the message blamed --space
bad "--elem-bytes 1e308" "^tilectl plan: --elem-bytes: '1e308' must be at most 2^30 = 1073741824 bytes" \
    --procs 2 --space 8x8x8 --deps 1,1 --elem-bytes 1e308
bad "--elem-bytes 9223372036854775807" "^tilectl plan: --elem-bytes: '9223372036854775807' must be at most 2^30" \
    --procs 2 --space 8x8x8 --deps 1,1 --elem-bytes 9223372036854775807
# no plan (exit 1): one line naming the options at fault, nothing on stdout
noplan() { plan_fails 1 "plan: no plan for" "$@"; }
M=9223372036854775807
noplan "2^63 - 1 points a side (no signed overflow on the way)" \
    "^tilectl plan: --space ${M}x${M}x${M}, --elem-bytes 8: a plane of a block (with its ghost layers) has more than 2^63 bytes$" \
    --procs 2147483647 --space ${M}x${M}x${M} --deps 0,0
noplan "a grid whose volume passes 2^63" \
    "^tilectl plan: --space ${M}x${M}x5, --deps: the communication volume of every process grid for --procs 3 passes 2^63 elements: use smaller extents or dependence widths$" \
    --procs 3 --space ${M}x${M}x5 --deps 1,1
noplan "a grid whose volume passes 2^63 by --deps (it named --space alone)" \
    "^tilectl plan: --space 100x100x100, --deps: the communication volume .* passes 2^63 elements: use smaller extents or dependence widths$" \
    --procs 4 --space 100x100x100 --deps $M,1
noplan "the same by --stencil" \
    "^tilectl plan: --space ${M}x${M}x5, --stencil: the communication volume .* passes 2^63 elements" \
    --procs 3 --space ${M}x${M}x5 --stencil "-1,0,0 0,-1,0 0,0,-1"
bad "--stencil with a number out of range (it said 'not 3 whole numbers')" \
    "^tilectl plan: --stencil: '-99999999999,0,0': vector 1 is not 3 whole numbers in -2^30..2^30 separated by ','" \
    --procs 4 --space 100x100x100 --stencil "-99999999999,0,0"
bad "an empty --stencil" "^tilectl plan: --stencil: ' ': no offset vector$" \
    --procs 4 --space 100x100x100 --stencil " "
noplan "no grid at all" \
    "^tilectl plan: --procs 3, --space 1x1x5: no process grid: the limits allow at most 1 process, not 3: P_1 <= X_1 = 1, P_2 <= X_2 = 1 (a block holds at least one point)\$" \
    --procs 3 --space 1x1x5 --deps 1,1
noplan "no grid whose blocks hold the widths (it said 'no factorisation with P_i <= X_i', though 194 <= 571)" \
    "^tilectl plan: --procs 194, --space 571x16384: no process grid: P_1 would be 194, but a block along dimension 1 must hold the d_1 = 3 points its neighbour reads, so P_1 <= floor(X_1/d_1) = floor(571/3) = 190\$" \
    --procs 194 --space 571x16384 --deps 3
noplan "a volume over Z past 2^63 (it said 'the model: size overflow ... (volume)')" \
    "^tilectl plan: --space 8x8x$M: the number of elements a process sends over all of Z passes 2^63 (the model's volume): use smaller extents$" \
    --procs 2 --space 8x8x$M --deps 1,1
noplan "a Z window past 2^63 bytes" \
    "^tilectl plan: --space 3000000000x100000000x10: the memory of a process (a Z window of .*) passes 2^63 bytes: use smaller extents$" \
    --procs 1 --space 3000000000x100000000x10 --deps 0,0

# the per-step barrier cost: in the prediction with threads, ignored with one,
# refused below 0; a plane beyond the cache: the level-3 fallback, not all of Z
"$CTL" plan --procs 1 --threads 2 --space 64x256x4096 --deps 1,1 $COSTS --tile-height 4 --json > "$T/s0"
"$CTL" plan --procs 1 --threads 2 --space 64x256x4096 --deps 1,1 $COSTS --tile-height 4 --tsync 1e-5 --json > "$T/s1"
"$CTL" plan --procs 1 --threads 1 --space 64x256x4096 --deps 1,1 $COSTS --tile-height 4 --json > "$T/s2"
"$CTL" plan --procs 1 --threads 1 --space 64x256x4096 --deps 1,1 $COSTS --tile-height 4 --tsync 1 --json > "$T/s3"
awk -v a="$(val "$T/s0" predicted_seconds)" -v b="$(val "$T/s1" predicted_seconds)" \
    -v n="$(val "$T/s1" steps)" 'BEGIN { d = b - a - n * 1e-5; exit !(d < 1e-9 && d > -1e-9) }' &&
    [ "$(val "$T/s1" tsync | tr -d '}')" = 1e-05 ] && [ "$(val "$T/s3" tsync | tr -d '}')" = 0 ] &&
    [ "$(val "$T/s2" predicted_seconds)" = "$(val "$T/s3" predicted_seconds)" ] &&
    ok "plan --tsync: each of the $(val "$T/s1" steps) steps costs 1e-5 s more with 2 threads, nothing with 1" ||
    notok "plan --tsync: $(cat "$T/s0" "$T/s1" "$T/s2" "$T/s3")"
bad "--tsync below 0" "^tilectl plan: --tsync: '-1' must be 0 to 1e6 seconds$" \
    --procs 2 --space 64x256x4096 --deps 1,1 --tsync -1
# TILEHYBRID_TSYNC is tilectl's default as it is a plan's (the plan times the
# barrier only without it): the same height and bound as a threaded plan
for c in "funneled zen4" "multiple xeon"; do
    set -- $c
    m=$1 h=$2
    env -u TILEHYBRID_CACHE_BYTES TILEHYBRID_CACHE_DIR="$T/$h" TILEHYBRID_TSYNC=2e-6 "$CTL" plan \
        --procs 1 --threads 2 --space 64x256x16384 --deps 1,1 \
        --tcomp 2e-9 --tstartup 5e-6 --bandwidth 5e9 --json > "$T/cmp" 2>&1
    run_job 1 env -u TILEHYBRID_CACHE_BYTES TILEHYBRID_CACHE_DIR="$T/$h" TILEHYBRID_TSYNC=2e-6 \
        TILEHYBRID_TCOMP=2e-9 TILEHYBRID_TSTARTUP=5e-6 \
        TILEHYBRID_BANDWIDTH=5e9 "$DEMODIR/adi" --space 64x256x16384 --model $m --threads 2 --json
    z=$(sed -n 's/.*"tile_height": \([0-9]*\).*/\1/p' "$T/out")
    [ "$(val "$T/cmp" tsync | tr -d '}')" = 2e-06 ] && [ -n "$z" ] && [ "$z" = "$(val "$T/cmp" tile_height)" ] &&
        ok "plan --threads 2, TILEHYBRID_TSYNC=2e-6 ($m, the $h's caches): height $z as the plan's" ||
        notok "plan TILEHYBRID_TSYNC ($m, the $h's caches): tilectl $(head -c 300 "$T/cmp"), a plan '$z': $(head -c 300 "$T/out" "$T/err.raw" 2>/dev/null)"
done
TILEHYBRID_TSYNC=abc "$CTL" plan --procs 2 --space 64x256x4096 --deps 1,1 > "$T/out" 2> "$T/err"
[ $? = 2 ] && grep -q "^tilectl plan: the environment: TILEHYBRID_TSYNC = 'abc': not a number of seconds in \[0, 1e6\]$" "$T/err" &&
    ok "plan: a bad TILEHYBRID_TSYNC is refused, named" || notok "plan TILEHYBRID_TSYNC=abc: $(cat "$T/out" "$T/err")"
"$CTL" plan --procs 1 --space 128x256x16384 --deps 1,1 $COSTS --cache-bytes 100000 --order planes \
    --json > "$T/big"
[ "$(val "$T/big" tile_height)" = 1 ] && [ "$(val "$T/big" cache_bound)" = 1 ] &&
    ok "plan: a plane beyond --cache-bytes on one process takes the smallest window (z 1, bound 1), not all of Z" ||
    notok "plan, a plane beyond --cache-bytes: $(cat "$T/big")"
"$CTL" plan --procs 1 --space 128x256x16384 --deps 1,1 $COSTS --cache-bytes 100000 --json > "$T/big"
[ "$(val "$T/big" order)" = hyper ] && [ "$(val "$T/big" tile_height)" = 2 ] &&
    [ "$(val "$T/big" cache_bound)" = 2 ] &&
    ok "plan: the same in the hyperplane order takes a pair of planes (z 2, bound 2)" ||
    notok "plan, a plane beyond --cache-bytes, hyperplane order: $(cat "$T/big")"
"$CTL" plan --procs 1 --space 128x256x16383 --deps 1,1 $COSTS --cache-bytes 100000 --json > "$T/big"
[ "$(val "$T/big" tile_height)" = 2 ] && [ "$(val "$T/big" steps)" = 8192 ] &&
    ok "plan: with Z odd too (z 2, 8192 tiles, the last of one plane)" ||
    notok "plan, a plane beyond --cache-bytes, hyperplane order, Z odd: $(cat "$T/big")"

# a TILEHYBRID_CACHE_DIR that describes no cache is said (it was silent:
# the defaults), once, by tilectl and by a plan
env TILEHYBRID_CACHE_DIR="$T/nowhere" "$CTL" plan --procs 1 --space 64x256x64 --deps 1,1 \
    --tcomp 2e-9 --tstartup 5e-6 --bandwidth 5e9 > "$T/out" 2> "$T/err"
[ "$(grep -c "TILEHYBRID_CACHE_DIR=$T/nowhere describes no cache" "$T/err")" = 1 ] &&
    ok "tilectl plan with a TILEHYBRID_CACHE_DIR that holds no cache: one warning naming it" ||
    notok "tilectl plan, TILEHYBRID_CACHE_DIR=nowhere: $(head -c 300 "$T/err")"
run_job 1 env TILEHYBRID_CACHE_DIR="$T/nowhere" TILEHYBRID_TCOMP=2e-9 "$DEMODIR/adi" --space 16x64x64
grep -q "TILEHYBRID_CACHE_DIR=$T/nowhere describes no cache" "$T/err" && [ $rc -eq 0 ] &&
    ok "a plan with that TILEHYBRID_CACHE_DIR: the same warning, and the run" ||
    notok "adi, TILEHYBRID_CACHE_DIR=nowhere: exit $rc: $(head -c 300 "$T/err")"
grep -q "TILEHYBRID_CACHE_DIR" <<EOH
$("$CTL" plan --help 2>&1)
EOH
[ $? -eq 0 ] && ok "tilectl plan --help names TILEHYBRID_CACHE_DIR" || notok "tilectl plan --help: no TILEHYBRID_CACHE_DIR"
done_testing
