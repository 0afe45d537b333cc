#!/bin/sh
# tests/cli_scatter.sh -- `tilectl scatter` end to end, and what
# demos/scatter does with bad or differing arguments, slow ranks and the
# ordered scatter.
#   sh tests/cli_scatter.sh ./tilectl
# Prints TAP (tests/lib.sh); exits non-zero if any failed.
set -u
. tests/lib.sh          # TAP, MPIEXEC, DEMODIR, TILECTL; Open MPI settings
CTL=${1:-$TILECTL}
D=$DEMODIR
DATA=demos/data/seismic-1999.csv
scratch cli_scatter

check() { if [ "$1" -eq 0 ]; then ok "$2"; else notok "$2"; fi; }

# json FILE FIELD: a scalar field of a one-line JSON object
json() { sed -n "s/.*\"$2\":\([^,}]*\).*/\1/p" "$1" | tr -d '"'; }
# jarr FILE FIELD: the elements of an array field, one per line
jarr() { sed -n "s/.*\"$2\":\[\([^]]*\)\].*/\1/p" "$1" | tr ',' '\n' | tr -d '"'; }
sum()  { awk '{ s += $1 } END { printf "%d", s }'; }
# le A B: A <= B as numbers
le()   { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 <= b + 0) }'; }

# run NAME EXPECTED_STATUS ARGS...: stdout in $T/NAME.out, stderr in $T/NAME.err
# (under `timeout $TMO` when TMO is set)
TMO=
run() {
    name=$1 want=$2
    shift 2
    ${TMO:+timeout $TMO} "$CTL" scatter "$@" > "$T/$name.out" 2> "$T/$name.err"
    got=$?
    [ "$got" -eq "$want" ]
}

# --- help -------------------------------------------------------------------
run help 0 --help && grep -q -- '--costs FILE' "$T/help.out" && grep -q -- '--method' "$T/help.out"
check $? "--help prints the usage and exits 0"

# --- the paper's instance -----------------------------------------------------
N=817101
run exact 0 --costs $DATA --items $N --json
check $? "seismic, exact, JSON: exit 0"
[ "$(jarr "$T/exact.out" counts | sum)" = "$N" ] && [ "$(jarr "$T/exact.out" counts | wc -l)" -eq 16 ]
check $? "seismic, exact: 16 counts adding up to $N"
[ "$(jarr "$T/exact.out" order | head -n 1)" = "caseb" ] && [ "$(jarr "$T/exact.out" order | tail -n 1)" = "dinadan" ] \
    && jarr "$T/exact.out" order | grep -q '^leda#8$' && jarr "$T/exact.out" order | grep -q '^merlin#2$'
check $? "seismic: bandwidth order from caseb to the root dinadan, count expanded to leda#1..leda#8"
missing=""
for f in method order_policy items root order counts finish makespan seconds; do
    grep -q "\"$f\":" "$T/exact.out" || missing="$missing $f"
done
[ -z "$missing" ]
check $? "JSON has method, order_policy, items, root, order, counts, finish, makespan, seconds${missing:+ (missing:$missing)}"
MK=$(json "$T/exact.out" makespan)
MAXF=$(jarr "$T/exact.out" finish | sort -g | tail -n 1)
[ "$MK" = "$MAXF" ]
check $? "makespan ($MK) is the largest finish time, bitwise"

run uniform 0 --costs $DATA --items $N --method uniform --json
MU=$(json "$T/uniform.out" makespan)
le "$(awk -v m="$MK" 'BEGIN { print 1.9 * m }')" "$MU"
check $? "uniform distribution ($MU s) takes about twice the exact one ($MK s)"

run heur 0 --costs $DATA --items $N --method heuristic --json
MH=$(json "$T/heur.out" makespan)
B=$(json "$T/heur.out" bound)
R=$(json "$T/heur.out" rational)
le "$MK" "$MH" && le "$MH" "$(awk -v m="$MK" -v b="$B" 'BEGIN { printf "%.17g", m + b }')" && le "$R" "$MK"
check $? "heuristic: rational $R <= exact $MK <= heuristic $MH <= exact + eq. 4 bound (bound $B)"

run given 0 --costs $DATA --items $N --order given --json
le "$MK" "$(json "$T/given.out" makespan)" && [ "$(jarr "$T/given.out" order | head -n 1)" = "pellinore" ]
check $? "--order given: the file's order (pellinore first), no better than bandwidth order"

run text 0 --costs $DATA --items $N
grep -q '^makespan ' "$T/text.out" && grep -q 'leda#3' "$T/text.out" && [ "$(wc -l < "$T/text.out")" -eq 19 ]
check $? "text output: header, one line per processor, makespan"

# --- Algorithm 2 is no longer a method (0.2.0: a test reference, tests/slb_reference.h;
# unit_scatterlb checks it against exact on the seismic costs) ----------------------
run dpgone 2 --costs $DATA --items 3000 --method dp && grep -q -- "--method: 'dp' is not one of exact, heuristic, uniform" "$T/dpgone.err" && [ ! -s "$T/dpgone.out" ]
check $? "--method dp: exit 2, the methods listed"

# --- root, columns, counts -------------------------------------------------------
run root 0 --costs $DATA --items 1000 --root 'leda#3' --json
[ "$(jarr "$T/root.out" order | tail -n 1)" = "leda#3" ] && [ "$(json "$T/root.out" root)" = "leda#3" ]
check $? "--root leda#3 receives last"
printf '# any column order, optional constants\ncomm0,lambda,name,comp0,mu,count\n0.5,0.01,a,2,1,1\n0.5,0.02,b,2,1,3\n' > "$T/cols.csv"
run cols 0 --costs "$T/cols.csv" --items 100 --json
[ "$(jarr "$T/cols.out" counts | sum)" = "100" ] \
    && [ "$(jarr "$T/cols.out" order | tr '\n' ' ')" = "b#1 b#2 b#3 a " ]
check $? "columns in any order with comp0/comm0, a comment line, count 3 named b#1..b#3"
run zero 0 --costs $DATA --items 0 --json
[ "$(json "$T/zero.out" makespan)" = "0" ]
check $? "--items 0: nothing to send, makespan 0"

# --- bad input: exit 2, a message naming the culprit ------------------------------
# bad NAME PATTERN ARGS...: exit status 2 and stderr matching PATTERN
bad() {
    name=$1 pat=$2
    shift 2
    if run "$name" 2 "$@" && grep -q -- "$pat" "$T/$name.err" && [ ! -s "$T/$name.out" ]; then
        ok "rejected ($name): $(head -n 1 "$T/$name.err")"
    else
        notok "rejected ($name) with exit 2 and a message matching '$pat'"
    fi
}
printf 'name,count,mu\nx,1,2\n' > "$T/nolambda.csv"
printf 'name,count,mu,lambda,lamda\nx,1,2,3,4\n' > "$T/typo.csv"
printf 'name,count,mu,lambda\nx,1,2,3\ny,1,abc,3\n' > "$T/nan.csv"
printf 'name,count,mu,lambda\nx,1,2,3\ny,1,-1e-3,3\n' > "$T/neg.csv"
printf 'name,count,mu,lambda\nx,1,2,3\ny,0,1,3\n' > "$T/count0.csv"
printf 'name,count,mu,lambda\nx,1,2,3\ny,1,1\n' > "$T/short.csv"
printf 'name,count,mu,lambda\n' > "$T/empty.csv"
printf 'name,count,mu,lambda\nx,1,2,3\nx,1,1,1\n' > "$T/dup.csv"
printf 'name,mu,count,mu,lambda\nx,1,1,2,3\n' > "$T/dupcol.csv"
printf 'name,count,mu,lambda\nx,1,inf,3\n' > "$T/inf.csv"
bad nofile "cannot read" --costs "$T/none.csv" --items 5
bad nolambda "missing column 'lambda'" --costs "$T/nolambda.csv" --items 5
bad typo "unknown column 'lamda'" --costs "$T/typo.csv" --items 5
bad nan "line 3, column 'mu': 'abc'" --costs "$T/nan.csv" --items 5
bad neg "line 3, column 'mu'" --costs "$T/neg.csv" --items 5
bad inf "line 2, column 'mu'" --costs "$T/inf.csv" --items 5
bad count0 "line 3, column 'count'" --costs "$T/count0.csv" --items 5
bad short "line 3: 3 fields" --costs "$T/short.csv" --items 5
bad empty "no processors" --costs "$T/empty.csv" --items 5
bad dup "'x' already used on line 2" --costs "$T/dup.csv" --items 5
bad dupcol "column 'mu' appears twice" --costs "$T/dupcol.csv" --items 5
bad negitems "--items" --costs $DATA --items -1
bad bigitems "--items" --costs $DATA --items 99999999999999999999
bad noitems "--items N is required" --costs $DATA
bad nocosts "--costs FILE is required" --items 5
bad method "--method: 'fast'" --costs $DATA --items 5 --method fast
bad order "--order: 'random'" --costs $DATA --items 5 --order random
bad rootmany "'leda' names 8 processors" --costs $DATA --items 5 --root leda
bad rootnone "no processor named 'nobody'" --costs $DATA --items 5 --root nobody
bad option "unknown option '--bogus'" --costs $DATA --items 5 --bogus
bad novalue "--root needs a value" --costs $DATA --items 5 --root
bad force "unknown option '--force'" --costs $DATA --items 5 --force
printf 'name,count,mu,lambda\na,2,1,1\nb,1,1,1\na#2,1,1,1\nb,1,1,1\n' > "$T/dupcount.csv"
bad dupcount "line 4: processor name 'a#2' already used on line 2" --costs "$T/dupcount.csv" --items 5
printf 'name,count,mu,lambda\nx,1,1e-400,0\n' > "$T/under.csv"
bad under "line 2, column 'mu': '1e-400' is out of range" --costs "$T/under.csv" --items 5
printf 'name,count,mu,lambda\nx,1,1e400,0\n' > "$T/over.csv"
bad over "line 2, column 'mu': '1e400' is out of range" --costs "$T/over.csv" --items 5
printf 'name,count,mu,lambda\nx,1,0x1p3,0\n' > "$T/hex.csv"
bad hex "column 'mu': '0x1p3' is not a plain decimal number" --costs "$T/hex.csv" --items 5
printf 'name,count,mu,lambda\nx,1,+1,0\n' > "$T/plus.csv"
bad plus "column 'mu': '+1' is not a plain decimal number" --costs "$T/plus.csv" --items 5
bad itemsplus "--items: '+5'" --costs $DATA --items +5

# --- names are UTF-8 (they go into JSON as they are); every message about the file
# names it the same way, "--costs FILE" --------------------------------------------
printf 'name,count,mu,lambda\nx,1,2,3\np\377,1,1,1\n' > "$T/utf8.csv"
bad utf8 "^tilectl scatter: --costs .*utf8.csv line 3: not UTF-8 text (byte 0xff at column 2)" \
    --costs "$T/utf8.csv" --items 5 --json
printf 'name,count,mu,lambda\nx,1,2,3\np\355\240\200,1,1,1\n' > "$T/surrogate.csv"
bad surrogate "line 3: not UTF-8 text (byte 0xed at column 2)" --costs "$T/surrogate.csv" --items 5
printf 'name,count,mu,lambda\n\303\251t\303\251,1,2,3\n\342\202\254\001,1,1,1\n' > "$T/accents.csv"
run accents 0 --costs "$T/accents.csv" --items 5 --json &&
    grep -q '\\u0001"' "$T/accents.out" &&
    grep -q "$(printf '\303\251t\303\251')" "$T/accents.out"
check $? "UTF-8 names pass into the JSON as they are, a control character as \\u0001"
bad dupform "^tilectl scatter: --costs .*dup.csv line 3: processor name 'x' already used on line 2" \
    --costs "$T/dup.csv" --items 5
bad emptyform "^tilectl scatter: --costs .*empty.csv: no processors" --costs "$T/empty.csv" --items 5

# --- numbers: subnormals are numbers; a time beyond a double names its processor -----
printf 'name,count,mu,lambda\nx,1,2,1e-310\ny,1,1,1e-5\n' > "$T/sub.csv"
run sub 0 --costs "$T/sub.csv" --items 10 --json && [ "$(jarr "$T/sub.out" counts | sum)" = "10" ]
check $? "lambda = 1e-310 (a subnormal) is a number: accepted, solved"
printf 'name,count,mu,lambda\nx,1,1e307,0\ny,3,1e307,1e-5\n' > "$T/ovf.csv"
bad ovf "overflows.*processor 'x', .*ovf.csv line 2" --costs "$T/ovf.csv" --items 1000000000000000
# finite finish times, but the heuristic's eq. 4 bound (sum lambda + max mu)
# overflows: JSON has no infinity, so the bound is null (docs/JSON.md), never "inf"
printf 'name,count,mu,lambda\nx,3,1e-3,1e308\n' > "$T/bnd.csv"
run bnd 0 --costs "$T/bnd.csv" --items 1 --method heuristic --json &&
    [ "$(json "$T/bnd.out" bound)" = null ] && ! grep -qi 'inf\|nan' "$T/bnd.out" &&
    json_types "$T/bnd.out" > "$T/bnd.types" && grep -q '^bound.null$' "$T/bnd.types"
check $? "heuristic, bound overflows a double (3 x lambda 1e308): JSON valid, \"bound\":null"
run bndt 0 --costs "$T/bnd.csv" --items 1 --method heuristic &&
    grep -q 'no finite guarantee' "$T/bndt.out" && ! grep -q 'within inf' "$T/bndt.out"
check $? "heuristic, bound overflows: the text says there is no finite guarantee"

# --- files beyond the limits: refused at the limit, in bounded time and memory ------
# (timeouts are generous guards against a hang or a quadratic blow-up, not timings)
awk 'BEGIN { print "name,count,mu,lambda"
             for (i = 0; i < 100000; i++) printf "p%d,1,%g,%g\n", i, 1e-3 * (1 + i % 7), 1e-5 * (1 + i % 5) }' > "$T/p1e5.csv"
TMO=10
run p1e5 0 --costs "$T/p1e5.csv" --items 1000000000 --json && [ "$(jarr "$T/p1e5.out" counts | sum)" = "1000000000" ]
check $? "100000 processors (the limit): read and solved, duplicate names checked by sorting (no quadratic scan)"
awk 'BEGIN { print "name,count,mu,lambda"; for (i = 0; i < 1000000; i++) printf "p%d,1,1,1\n", i }' > "$T/p1e6.csv"
TMO=10
bad p1e6 "p1e6.csv line 100002: more than 100000 processors" --costs "$T/p1e6.csv" --items 5
bad devzero "/dev/zero line 1: a NUL byte" --costs /dev/zero --items 5
head -c 5000 /dev/zero | tr '\0' a > "$T/longline.csv"
bad longline "longline.csv line 1: longer than 1024 characters" --costs "$T/longline.csv" --items 5
# stream NAME WANT GEN...: GEN's output as the --costs file (a pipe, so no
# size is known in advance); ok when tilectl exits WANT within 60 s
stream() {
    s_name=$1 s_want=$2
    shift 2
    "$@" | timeout 60 "$CTL" scatter --costs /dev/stdin --items 5 > "$T/$s_name.out" 2> "$T/$s_name.err"
    [ $? -eq "$s_want" ]
}
# endless streams of lines the reader skips (every byte counts, newlines too)
blank() { yes ''; }
spaces() { yes '   '; }
crlf() { yes "$(printf '\r')"; }
mixed() { yes "$(printf '#\n\n \t\n')"; }
hdrblank() { printf 'name,count,mu,lambda\n'; yes ''; }
for shape in "comment yes #" "blank blank" "spaces spaces" "crlf crlf" "mixed mixed" \
             "hdrblank hdrblank"; do
    name=${shape%% *}
    # shellcheck disable=SC2086
    stream "endless_$name" 2 ${shape#* } && grep -q "larger than 64 MiB" "$T/endless_$name.err" &&
        [ ! -s "$T/endless_$name.out" ]
    check $? "an endless stream ($name lines): refused at 64 MiB ($(head -n 1 "$T/endless_$name.err"))"
done
# the cap is exactly 64 MiB, newlines counted: a file of 64 MiB is read, one byte more is not
pad() { printf 'name,count,mu,lambda\np,1,1,1\n'; head -c $(($1 - 29)) /dev/zero | tr '\0' '\n'; }
stream cap_at 0 pad $((64 << 20)) && [ -s "$T/cap_at.out" ]
check $? "a file of exactly 64 MiB (a row, then newlines) is read ($(head -n 1 "$T/cap_at.err"))"
stream cap_over 2 pad $(((64 << 20) + 1)) && grep -q "larger than 64 MiB" "$T/cap_over.err"
check $? "64 MiB and one newline more: refused ($(head -n 1 "$T/cap_over.err"))"
TMO=

# --- demos/scatter: every rank agrees on the arguments before anything runs -------
# mpmd NAME ARGS1 -- ARGS2: rank 0 runs demos/scatter ARGS1, rank 1 ARGS2
# (timeout 60: a guard against the hang this prevents); exit status in $T/NAME.rc
mpmd() {
    name=$1
    shift
    a1=""
    while [ "$1" != "--" ]; do a1="$a1 $1"; shift; done
    shift
    # shellcheck disable=SC2086
    timeout 60 $MPIEXEC -n 1 "$D/scatter" $a1 : -n 1 "$D/scatter" "$@" \
        > "$T/$name.out" 2> "$T/$name.err"
    echo $? > "$T/$name.rc"
    strip_launcher < "$T/$name.err" > "$T/$name.e2" && mv "$T/$name.e2" "$T/$name.err"
}
# one_error NAME PATTERN: exit 2 (no timeout, no abort), one line on stderr
# matching PATTERN, nothing on stdout
one_error() {
    [ "$(cat "$T/$1.rc")" -eq 2 ] && [ "$(wc -l < "$T/$1.err")" -eq 1 ] &&
        grep -q -e "$2" "$T/$1.err" && [ ! -s "$T/$1.out" ]
}
if [ -x "$D/scatter" ]; then
    mpmd onebad --items 8 -- --items -1
    one_error onebad "rank 1: --items '-1': expected a whole number"
    check $? "demos/scatter, --items -1 on rank 1 only: every rank exits 2, one message naming rank 1 ($(head -n 1 "$T/onebad.err"))"
    mpmd oneslow --items 8 -- --items 8 --slowdown 0
    one_error oneslow "rank 1: --slowdown '0'"
    check $? "demos/scatter, a bad --slowdown on rank 1 only: every rank exits 2, one message"
    mpmd differ --items 8 -- --items 9
    one_error differ "items differs between ranks (8 on one, 9 on another)"
    check $? "demos/scatter, --items 8 and 9 on different ranks: exit 2, the values as written ($(head -n 1 "$T/differ.err"))"
    mpmd differm --items 8 -- --items 8 --method heuristic
    one_error differm "method differs between ranks (exact on one, heuristic on another)"
    check $? "demos/scatter, different --method on different ranks: exit 2, the names"
    # a rank 1000 times slower: the calibration keeps to its budget (HEAD took
    # 37 s here); the guard is generous, not a timing
    timeout 25 $MPIEXEC -n 2 "$D/scatter" --slowdown 1000,1 --items 20 --json > "$T/slow.out" 2> "$T/slow.err"
    [ $? -eq 0 ] && grep -q '"checksum_ok":true},"calibration"' "$T/slow.out"
    check $? "demos/scatter --slowdown 1000,1: calibrated within its time budget, results intact"
    timeout 60 $MPIEXEC -n 3 "$D/scatter" --items 3000 --send ordered --order given --json > "$T/ord.out" 2> "$T/ord.err"
    [ $? -eq 0 ] && grep -q '"send":"ordered"' "$T/ord.out" && grep -q '"checksum_ok":true},"calibration"' "$T/ord.out"
    check $? "demos/scatter --send ordered: slb_plan_scatter_ordered, results gathered back bitwise"
else
    notok "demos/scatter not built ($D/scatter)"
fi

# output to a full disk: an error naming the cause, exit 1 (it exited 0
# silently; the other subcommands call cli_finish_output)
if [ -w /dev/full ]; then
    for fmt in "" --json; do
        timeout 60 "$CTL" scatter --costs $DATA --items 1000 $fmt > /dev/full 2> "$T/full.err"
        rc=$?
        [ $rc -eq 1 ] && grep -q "^tilectl scatter: writing the output: No space left on device$" "$T/full.err" &&
            ok "scatter ${fmt:-(text)} > /dev/full: exit 1, 'writing the output: No space left on device'" ||
            notok "scatter ${fmt:-(text)} > /dev/full: exit $rc: $(cat "$T/full.err")"
    done
else
    skip "scatter > /dev/full" "no writable /dev/full here"
fi

done_testing
