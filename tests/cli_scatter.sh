#!/bin/sh
# tests/cli_scatter.sh -- `tilectl scatter` end to end.
#   sh tests/cli_scatter.sh ./tilectl
# Prints TAP (tests/lib.sh); exits non-zero if any test failed.
set -u
. tests/lib.sh
CTL=${1:-$TILECTL}
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
run() {
    name=$1 want=$2
    shift 2
    "$CTL" scatter "$@" > "$T/$name.out" 2> "$T/$name.err"
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

# --- Algorithm 2 ----------------------------------------------------------------
run dpbig 2 --costs $DATA --items $N --method dp && grep -q -- '--force' "$T/dpbig.err" && [ ! -s "$T/dpbig.out" ]
check $? "--method dp refused politely for n = $N (exit 2, suggests exact or --force)"
run dp 0 --costs $DATA --items 3000 --method dp --json && run ex3 0 --costs $DATA --items 3000 --json
[ "$(json "$T/dp.out" makespan)" = "$(json "$T/ex3.out" makespan)" ]
check $? "--method dp (Algorithm 2) and exact agree bitwise at n = 3000"
printf 'name,count,mu,lambda\nroot,1,1,0\nw,1,1,0.5\n' > "$T/two.csv"
run dpforce 0 --costs "$T/two.csv" --items 100001 --method dp --force --json
[ "$(jarr "$T/dpforce.out" counts | sum)" = "100001" ]
check $? "--force runs dp beyond the limit"

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

done_testing
