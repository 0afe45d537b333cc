#!/bin/sh
# tests/cli_json.sh -- the JSON of every program against docs/JSON.md.
#   sh tests/cli_json.sh ./tilectl
#
# For each program that prints JSON: the output is one line of valid JSON
# (json_types of tests/lib.sh: python3's json, else jq), and the keys it prints (top
# level and inside objects, "outer.key") are exactly the keys of its table
# in docs/JSON.md, section "JSON output", each with the documented type.  The
# keys are read from docs/JSON.md here, so the doc and the programs cannot
# drift apart.  Rows whose meaning starts with "Only with" must appear with
# that option and not without it.
set -u
. tests/lib.sh
D=$DEMODIR
CTL=${1:-$TILECTL}
scratch cli_json

# 0. the parser rejects what it must and reads a valid text: each parser
# that is installed (json_types uses python3 when present, else jq).  jq
# takes some invalid numbers (NaN, -inf, 01, .5, 1.; jq 1.7 also nan) and
# duplicate keys, so it is held to the seven malformed texts only.
printf '%s\n' '{"a":-1.5e-3,"b":[true,false,null],"c":{"d":"x\"\\\u00e9"},"e":[],"f":[{"g":1},{"g":2.5}]}' > "$T/valid"
want="a:number b:array c.d:string c:object e:array f[].g:integer f[].g:number f:array "
for parser in python3 jq; do
    command -v $parser > /dev/null 2>&1 || continue
    set -- '{"a":1,}' '{"a":1}{}' '{"a":[1,2}' '{"a":"x' "{'a':1}" '{"a":tru}' ''
    [ $parser = python3 ] &&
        set -- "$@" '{"a":nan}' '{"a":-inf}' '{"a":1,"a":2}' '{"a":01}' '{"a":.5}' '{"a":1.}'
    bad=""
    for j in "$@"; do
        printf '%s\n' "$j" > "$T/j"
        JSON_PARSER=$parser json_types "$T/j" > /dev/null 2>&1 && bad="$bad $j"
    done
    got=$(JSON_PARSER=$parser json_types "$T/valid" | tr '\t\n' ': ')
    if [ -z "$bad" ] && [ "$got" = "$want" ]; then
        ok "json_types ($parser) rejects $# invalid texts and reads a valid one"
    else notok "json_types ($parser):${bad:+ accepted$bad;} read '$got', want '$want'"; fi
done

# doc HEADING: "key<TAB>type<TAB>only" for each row of the table under the
# "### " heading that contains HEADING, in the section "## JSON output"
doc() {
    awk -v h="$1" '
        /^## / { sec = $0 == "## JSON output"; cur = 0; next }
        sec && /^### / { cur = index($0, h) > 0; next }
        sec && cur && /^\| `/ {
            split($0, c, "|")
            key = c[2]; gsub(/[ `]/, "", key)
            type = c[3]; gsub(/^ +| +$/, "", type)
            print key "\t" type "\t" (c[5] ~ /^ *Only with/ ? 1 : 0)
        }' docs/JSON.md
}

# check NAME HEADING MODE CMD...: run CMD, compare with the docs/JSON.md table.
# MODE full: every documented key; MODE base: every key not marked "Only with".
check() {
    name=$1 heading=$2 mode=$3
    shift 3
    doc "$heading" > "$T/doc"
    if [ ! -s "$T/doc" ]; then
        notok "$name: docs/JSON.md has no table under \"### ...$heading...\" in \"## JSON output\""
        return
    fi
    timeout 120 "$@" > "$T/out" 2> "$T/err"
    rc=$?
    if [ $rc -ne 0 ]; then
        notok "$name: exit $rc: $(head -c 200 "$T/err")"
        return
    fi
    if [ "$(wc -l < "$T/out")" -ne 1 ] || [ "$(head -c 1 "$T/out")" != "{" ]; then
        notok "$name: stdout is not one line holding one object: $(head -c 200 "$T/out")"
        return
    fi
    if ! json_types "$T/out" > "$T/got" 2> "$T/why"; then
        notok "$name: not valid JSON: $(cat "$T/why")"
        return
    fi
    if [ "$mode" = full ]; then
        cut -f 1 "$T/doc" | sort > "$T/want.k"
    else
        awk -F '\t' '$3 == 0 { print $1 }' "$T/doc" | sort > "$T/want.k"
    fi
    cut -f 1 "$T/got" | sort > "$T/got.k"
    if ! cmp -s "$T/want.k" "$T/got.k"; then
        notok "$name: keys differ from docs/JSON.md (< documented only, > printed only): $(
            diff "$T/want.k" "$T/got.k" | grep '^[<>]' | tr '\n' ' ')"
        return
    fi
    # types: the first word of the documented type; an integer is a number;
    # "... or null" allows null
    wrong=$(awk -F '\t' 'NR == FNR { split($2, w, " "); t[$1] = w[1]; n[$1] = $2 ~ / or null$/; next }
        { ok = $2 == t[$1] || ($2 == "integer" && t[$1] == "number") || ($2 == "null" && n[$1])
          if (!ok) printf "%s is %s, documented %s; ", $1, $2, t[$1] }' "$T/doc" "$T/got")
    if [ -n "$wrong" ]; then
        notok "$name: $wrong"
        return
    fi
    ok "$name: one line of valid JSON, its $(wc -l < "$T/got.k") keys and their types as in docs/JSON.md"
}

S=demos/data/seismic-1999.csv
check "adi --json --verify, 2 processes x 2 threads" "demos/adi --json" full \
    $MPIEXEC -n 2 $D/adi --space 8x16x20 --model funneled --threads 2 --verify --json
check "adi --json" "demos/adi --json" base \
    $MPIEXEC -n 1 $D/adi --space 8x16x20 --json
check "de --json --verify, 3 processes" "demos/de --json" full \
    $MPIEXEC -n 3 $D/de --space 12x16x20 --tile-height 4 --verify --json
check "de --json, multiple model" "demos/de --json" base \
    $MPIEXEC -n 1 $D/de --space 8x16x20 --model multiple --threads 2 --json
check "sw --json --verify, 2 processes x 2 threads" "demos/sw --json" full \
    $MPIEXEC -n 2 $D/sw --random 30,50 --seed 2 --model funneled --threads 2 --verify --json
check "sw --json" "demos/sw --json" base \
    $MPIEXEC -n 1 $D/sw --random 20,30 --json
check "p2p --json --verify, 3 processes x 2 threads" "demos/p2p --json" full \
    $MPIEXEC -n 3 $D/p2p --size 31,17 --iterations 2 --model multiple --threads 2 --verify --json
check "p2p --json" "demos/p2p --json" base \
    $MPIEXEC -n 1 $D/p2p --size 20,30 --iterations 2 --json
check "lu --json --verify, 2 processes x 2 threads" "demos/lu --json" full \
    $MPIEXEC -n 2 $D/lu --class S --iterations 5 --model funneled --threads 2 --verify --json
check "lu --json" "demos/lu --json" base \
    $MPIEXEC -n 1 $D/lu --class S --json
check "demos/scatter --json, 3 processes" "demos/scatter --json" full \
    $MPIEXEC -n 3 $D/scatter --items 600 --json
check "tilectl topo --json --threads" "tilectl topo --json" full \
    "$CTL" topo --procs 8 --space 128x256x16384 --deps 1,1 --threads 2 --json
check "tilectl topo --json" "tilectl topo --json" base \
    "$CTL" topo --procs 16 --space 64x256x16384 --deps 1,1 --json
check "tilectl topo --json, latency grid infeasible (nulls)" "tilectl topo --json" base \
    "$CTL" topo --procs 16 --space 2x1000x10 --deps 1,1 --json
check "tilectl balance --json" "tilectl balance --json" full \
    "$CTL" balance --procs-grid 4x2 --threads 2 --space 256x64x16384 --deps 1,1 \
    --tile-height 100 --tcomp 288e-9 --tstartup 107e-6 --bandwidth 12.5e6 --json
check "tilectl plan --json" "tilectl plan --json" full \
    "$CTL" plan --procs 4 --threads 2 --space 64x256x16384 --deps 1,1 --json
check "tilectl scatter --json --method heuristic" "tilectl scatter --json" full \
    "$CTL" scatter --costs $S --items 817101 --method heuristic --json
check "tilectl scatter --json" "tilectl scatter --json" base \
    "$CTL" scatter --costs $S --items 1000 --root 'leda#3' --json
check "seq_kernels" "build/bench/seq_kernels" full \
    $B/bench/seq_kernels de 4 5 6

# the check can fail: a key docs/JSON.md does not list is caught
doc "tilectl topo --json" | grep -v '^solve_seconds' > "$T/fake.doc"
awk -F '\t' '$3 == 0 { print $1 }' "$T/fake.doc" | sort > "$T/want.k"
"$CTL" topo --procs 16 --space 64x256x16384 --deps 1,1 --json > "$T/out"
json_types "$T/out" | cut -f 1 | sort > "$T/got.k"
if ! cmp -s "$T/want.k" "$T/got.k" && diff "$T/want.k" "$T/got.k" | grep -q '^> solve_seconds$'; then
    ok "a docs/JSON.md table without solve_seconds would fail the comparison"
else notok "the key comparison does not notice a missing row"; fi

done_testing
