#!/bin/sh
# tests/cli_lu_plain.sh -- $B/tests/lu_plain, NPB LU's plain sequential
# reference (tests/lu_plain.h): classes S and W verify against NPB 3.4's
# reference values (every residual norm, error norm and the surface
# integral within 1e-8, NPB's result block with "SUCCESSFUL", exit 0);
# --iterations K runs K steps, prints the norms without comparing them, and
# prints the same bits every time; a bad class or option is refused with
# one message and exit 2; the program builds as C99 under gcc and clang
# and as C++ with -Wall -Wextra -pedantic -Werror.
set -u
. tests/lib.sh
scratch cli_lu_plain
P=$B/tests/lu_plain

if [ ! -x "$P" ]; then
    notok "$P is built (make check-build builds it)"
    done_testing
fi

# verified CLASS N STEPS SECONDS: the class runs to SUCCESSFUL with its
# grid and steps, all 11 values compared and none a FAILURE
verified() {
    start=$(date +%s)
    run_timeout "$4" "$P" "$1"
    took=$(( $(date +%s) - start ))
    n=$(printf '%s\n' "$out" | grep -c '^  *[0-9]*  *[0-9]\.[0-9]*e[-+][0-9]*  *[0-9]\.[0-9]*e[-+][0-9]*  *[0-9]')
    if [ $rc -eq 0 ] && [ "$n" -eq 11 ] &&
       printf '%s\n' "$out" | grep -q "^ Verification    =               SUCCESSFUL$" &&
       printf '%s\n' "$out" | grep -q "^ Class           =  *$1$" &&
       printf '%s\n' "$out" | grep -q "^ Size            =  *$2x *$2x *$2$" &&
       printf '%s\n' "$out" | grep -q "^ Iterations      =  *$3$" &&
       ! printf '%s\n' "$out" | grep -q 'FAILURE'; then
        ok "lu_plain $1: ${2}^3, $3 steps, SUCCESSFUL, the 11 values within 1e-8 of NPB's ($took s)"
    else
        notok "lu_plain $1: exit $rc, $n values compared (want SUCCESSFUL, 11, exit 0)"
        printf '%s\n%s\n' "$out" "$err" | tail -n 25 | diag
    fi
}
verified S 12 50 120
# W: 300 steps on 33^3, 8-16 s on 2 loaded cores
verified W 33 300 300

# --iterations: K steps, nothing compared (exit 0), the same digits twice
# (all but the time and the Mop/s)
run_timeout 60 "$P" S --iterations 7
rc1=$rc
printf '%s\n' "$out" | grep -v -e '^ Time in' -e '^ Mop/s' > "$T/a"
run_timeout 60 "$P" S --iterations 7
printf '%s\n' "$out" | grep -v -e '^ Time in' -e '^ Mop/s' > "$T/b"
n=$(grep -c '^  *[0-9]*  *[0-9]\.[0-9]*e[-+][0-9]*$' "$T/a")
if [ $rc1 -eq 0 ] && [ $rc -eq 0 ] && [ "$n" -eq 11 ] &&
   grep -q '^ Verification    =  *NOT PERFORMED$' "$T/a" &&
   grep -q '^ No reference values for 7 steps of class S' "$T/a" && cmp -s "$T/a" "$T/b"; then
    ok "lu_plain S --iterations 7: 11 values, NOT PERFORMED, exit 0, the same digits twice"
else
    notok "lu_plain S --iterations 7: exit $rc1 and $rc, $n values (want 0, 0, 11, the same twice)"
    diag < "$T/a"
fi
run_timeout 60 "$P" S --iterations 50
[ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q 'SUCCESSFUL$' &&
    ok "lu_plain S --iterations 50 (the class's): verified" ||
    notok "lu_plain S --iterations 50: exit $rc: $(printf '%s\n' "$out" | grep Verification)"

# refusals: exit 2, one line on stderr naming what was wrong, nothing on stdout
refused() { # PATTERN ARGS...
    pat=$1
    shift
    name=lu_plain
    for a; do name="$name '$a'"; done
    run_timeout 60 "$P" "$@"
    [ $rc -eq 2 ] && [ -z "$out" ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] &&
        printf '%s\n' "$err" | grep -q -e "$pat" &&
        ok "$name: exit 2, $err" ||
        notok "$name: exit $rc (want 2), stdout '$(printf '%s' "$out" | head -c 200)', stderr '$err'"
}
refused "^lu_plain: unknown class 'X': expected S, W, A or B$" X
refused "^lu_plain: unknown class 's': expected S, W, A or B$" s
refused "^lu_plain: unknown class 'SW': expected S, W, A or B$" SW
refused "^lu_plain: unknown class 'C': expected S, W, A or B$" C
refused "^lu_plain: unknown class '': expected S, W, A or B$" ""
refused "^usage: lu_plain S|W|A|B \[--iterations K\] (--help: more)$"
refused "^lu_plain: --iterations '0': expected a whole number from 1 to 1000000$" S --iterations 0
refused "^lu_plain: --iterations '5x': expected a whole number" S --iterations 5x
refused "^lu_plain: --iterations '-3': expected a whole number" S --iterations -3
refused "^lu_plain: unknown option '--steps': expected --iterations K$" S --steps 3
refused "^usage: lu_plain" S --iterations
for h in -h --help; do
    run_timeout 60 "$P" $h
    [ $rc -eq 0 ] && [ -z "$err" ] && printf '%s\n' "$out" | grep -q '^usage: lu_plain' &&
        ok "lu_plain $h: the usage on stdout, exit 0" || notok "lu_plain $h: exit $rc"
done

# the program as C99 under gcc and clang, and as C++ (g++ -x c++)
W="-Wall -Wextra -pedantic -Werror -O2 -ffp-contract=off"
for cc in "gcc -std=c99" "clang -std=c99" "g++ -x c++ -std=c++11"; do
    set -- $cc
    if ! command -v "$1" > /dev/null 2>&1; then
        skip "tests/lu_plain.c builds with $cc $W" "$1 is not installed"
    elif $cc $W -o "$T/lu" tests/lu_plain.c -lm > "$T/cc.err" 2>&1 &&
         "$T/lu" S --iterations 2 > /dev/null; then
        ok "tests/lu_plain.c builds with $cc $W and runs"
    else
        notok "tests/lu_plain.c builds with $cc $W"
        diag < "$T/cc.err"
    fi
done

done_testing
