#!/bin/sh
# tests/cli_hygiene.sh -- the headers as users compile them.
#
#   1. every public header alone (twice, for its include guard), in C99 with
#      -Wall -Wextra -pedantic -Werror under gcc and clang, with and without
#      OpenMP, and as C++11 and C++17 (g++ -x c++);
#   2. the complete program in each header's top comment (tests/examples.awk
#      finds it) and the complete programs of README.md and docs/REFERENCE.md
#      (their C blocks with a main) under gcc and clang at -O0 and -O2 (-O2
#      finds what -O0 cannot: maybe-uninitialized, format-truncation); an
#      example that says what it prints ("// prints: ...") and needs no
#      mpiexec prints exactly that;
#   3. the macros in C++ user code: demos/adi.c built as C++11 runs at 2
#      processes and verifies every point;
#   4. lib.sh's own TAP: '#' and newlines in a name and a reason escaped;
#   5. tiling.h, topology.h, scatterlb.h and balance.h are the joins of their parts
#      (src/NAME/*.h, tools/join.sh), in the working tree and as committed
#      (a part committed without the joined header fails here, in CI);
#      tiling.h's API at a glance (its top comment) names every public
#      function and macro of its parts, and no other.
# The quick tier (CHECK_TIER=quick, make check) builds each example with one
# of the two compilers at one of -O0 and -O2, drawn from CHECK_SEED
# (lib.sh's pick), and a sixth of the separate-mode compiles.
set -u
. tests/lib.sh
scratch cli_hygiene

# the wrapper's flags: MPICH says `mpicc -show`, Open MPI `mpicc -showme`
MPI_SHOW=$($MPICC -show 2>/dev/null || $MPICC -showme 2>/dev/null)
MPI_INC=$(echo "$MPI_SHOW" | tr ' ' '\n' | grep '^-I' | tr '\n' ' ')
MPI_LIBS=$(echo "$MPI_SHOW" | tr ' ' '\n' | grep -e '^-L' -e '^-l' -e '^-Wl' | tr '\n' ' ')
W="-Wall -Wextra -pedantic -Werror"
HEADERS="tilehybrid.h tiling.h hybrid.h topology.h balance.h scatterlb.h"

# has_omp CC: CC builds an OpenMP program
has_omp() {
    printf '#include <omp.h>\nint main(void){return 0;}\n' | $1 -fopenmp -x c - -o /dev/null 2>/dev/null
}

# 5. the joined headers ------------------------------------------------------
JOINED="tiling topology scatterlb balance"
for j in $JOINED; do
    if sh tools/join.sh src/$j | cmp -s - $j.h; then
        ok "joined: $j.h is the join of src/$j/*.h"
    else
        notok "joined: $j.h is not the join of src/$j/*.h: run make (it joins them)"
    fi
done
if ! command -v git > /dev/null 2>&1 || ! git rev-parse --verify -q HEAD > /dev/null 2>&1; then
    skip "joined: the committed headers are the join of the committed parts" "not a git work tree"
else
    rm -rf $T/head && mkdir -p $T/head
    if git archive HEAD src tools/join.sh | tar -x -C $T/head 2>$T/join.err; then
        for j in $JOINED; do
            if [ ! -d $T/head/src/$j ]; then
                skip "joined: the committed $j.h is the join of the committed parts" "src/$j/ is not committed yet"
            elif (cd $T/head && sh tools/join.sh src/$j) > $T/head.h 2>>$T/join.err &&
                 git show HEAD:$j.h | cmp -s - $T/head.h; then
                ok "joined: the committed $j.h is the join of the committed parts"
            else
                notok "joined: the committed $j.h is not the join of the committed parts (src/$j/*.h): run make and commit $j.h"
                head -5 $T/join.err | diag
            fi
        done
    else
        notok "joined: git archive of the committed parts"; head -5 $T/join.err | diag
    fi
fi

# the API at a glance (tiling.h's top comment) names every public function
# and macro of the parts, and nothing else
sed -n '/^ \* The API at a glance/,/^ \* The body$/p' src/tiling/00-about.h |
    grep -o '\b\(tile\|TILE\)_[A-Za-z0-9_]*' | grep -v '__' | sort -u > $T/glance.names
{
    grep -h '^\(static inline\|TILEHYBRID__COLD\|TILEHYBRID__WARM\|TILE__ALWAYS_INLINE\) ' src/tiling/[0-9]*.h |
        sed -n 's/^[^(]*\b\(tile_[a-z0-9][a-z0-9_]*\)(.*/\1/p'
    grep -h '^#define \(tile\|TILE\)_[A-Za-z0-9_]*' src/tiling/[0-9]*.h |
        sed 's/^#define \([A-Za-z0-9_]*\).*/\1/'
} | grep -v '__' | sort -u > $T/defined.names
missing=$(comm -13 $T/glance.names $T/defined.names | tr '\n' ' ')
extra=$(comm -23 $T/glance.names $T/defined.names | tr '\n' ' ')
if [ -z "$missing$extra" ]; then
    ok "tiling.h's API at a glance names its $(wc -l < $T/defined.names) public functions and macros"
else
    notok "tiling.h's API at a glance: not named: ${missing:-none}; named but not defined: ${extra:-none}"
fi

# the exact sum's part is a header on its own (C99, no MPI): its example
printf '#include <stdio.h>
#include "src/tiling/02-xsum.h"
int main(void)
{
    tile_xsum x;
    int i;
    tile_xsum_init(&x);
    for (i = 0; i < 10; i++)
        tile_xsum_add(&x, 0.1);
    printf("%%.17g\\n", tile_xsum_round(&x));
    return 0;
}
' > $T/xsum_alone.c
for cc in "gcc -std=c99" "clang -std=c99" "g++ -x c++ -std=c++11"; do
    command -v ${cc%% *} > /dev/null 2>&1 || { skip "the exact sum alone, ${cc%% *}" "${cc%% *} not installed"; continue; }
    if $cc $W -I. -o $T/xsum_alone $T/xsum_alone.c 2>$T/hyg.err && [ "$($T/xsum_alone)" = 1 ]; then
        ok "src/tiling/02-xsum.h alone, $cc: ten 0.1 sum to 1 exactly"
    else notok "src/tiling/02-xsum.h alone, $cc"; head -5 $T/hyg.err | diag; fi
done

# 1. each header alone -------------------------------------------------------
# Open MPI's mpi.h, read as C++, brings in its deprecated C++ bindings, whose
# own inline code fails -Wextra (-Wcast-function-type); OMPI_SKIP_MPICXX is
# Open MPI's switch to leave them out (our headers use the C API only).
CXX_MPI="-DOMPI_SKIP_MPICXX"
for h in $HEADERS; do
    tu=$T/hygiene_${h%.h}.c
    printf '#include "%s"\n#include "%s"\nint main(void) { return 0; }\n' "$h" "$h" > "$tu"
    for cc in gcc clang; do
        if ! command -v $cc >/dev/null 2>&1; then skip "hygiene: $h alone, $cc" "$cc not installed"; continue; fi
        for omp in "" "-fopenmp"; do
            if [ -n "$omp" ] && ! has_omp $cc; then
                skip "hygiene: $h alone, $cc -fopenmp" "$cc has no OpenMP"; continue
            fi
            if $cc -std=c99 $W $omp $MPI_INC -I. -c "$tu" -o /dev/null 2>$T/hyg.err; then
                ok "hygiene: $h alone, $cc -std=c99 $W${omp:+ $omp}"
            else notok "hygiene: $h alone, $cc -std=c99 $W${omp:+ $omp}"; head -20 $T/hyg.err | diag; fi
        done
    done
    for std in c++11 c++17; do
        if g++ -x c++ -std=$std $W -fopenmp $CXX_MPI $MPI_INC -I. -c "$tu" -o /dev/null 2>$T/hyg.err; then
            ok "hygiene: $h alone, g++ -x c++ -std=$std $W"
        else notok "hygiene: $h alone, g++ -x c++ -std=$std"; head -20 $T/hyg.err | diag; fi
    done
    # the cold code compiled once (tilehybrid.h, "COMPILING THE COLD CODE
    # ONCE"): declarations only, and the one implementation file
    for mode in "-DTILEHYBRID_SEPARATE" "-DTILEHYBRID_SEPARATE -DTILEHYBRID_IMPLEMENTATION"; do
        for cc in "gcc -std=c99" "clang -std=c99" "g++ -x c++ -std=c++11"; do
            pick 6 || continue      # the quick tier: a sample (tests/lib.sh)
            command -v ${cc%% *} > /dev/null 2>&1 || { skip "hygiene: $h alone, $cc $mode" "${cc%% *} not installed"; continue; }
            if $cc $W $mode $CXX_MPI $MPI_INC -I. -c "$tu" -o /dev/null 2>$T/hyg.err; then
                ok "hygiene: $h alone, $cc $W $mode"
            else notok "hygiene: $h alone, $cc $W $mode"; head -20 $T/hyg.err | diag; fi
        done
    done
done
# an inconsistent switch is an #error: TILEHYBRID_IMPLEMENTATION alone
printf '#define TILEHYBRID_IMPLEMENTATION
#include "hybrid.h"
int main(void) { return 0; }
' > $T/impl_alone.c
if gcc -std=c99 $MPI_INC -I. -c $T/impl_alone.c -o /dev/null 2>$T/hyg.err; then
    notok "hygiene: TILEHYBRID_IMPLEMENTATION without TILEHYBRID_SEPARATE is refused"
else
    grep -q '#error' $T/hyg.err && ok "hygiene: TILEHYBRID_IMPLEMENTATION without TILEHYBRID_SEPARATE is an #error" ||
        { notok "hygiene: TILEHYBRID_IMPLEMENTATION alone: no #error"; head -5 $T/hyg.err | diag; }
fi

# files built with other options than the implementation file's do not
# link: the symbol that names the options (tiling.h, TILE__ABI) is missing
SEP="-std=c99 -Wall -Wextra -pedantic -Werror -O1 -fopenmp -I. -Itests -DTILEHYBRID_SEPARATE"
if $MPICC $SEP -c tests/separate_impl.c -o $T/impl.o 2>$T/hyg.err &&
   $MPICC $SEP -c tests/separate_main.c -o $T/main.o 2>>$T/hyg.err &&
   $MPICC $SEP -DTILE_CHECK_ACCESS -c tests/separate_main.c -o $T/main_checked.o 2>>$T/hyg.err; then
    if $MPICC -fopenmp -o $T/same $T/main.o $T/impl.o -lm 2>$T/hyg.err; then
        ok "hygiene: TILEHYBRID_SEPARATE, the same options in both files: they link"
    else notok "hygiene: TILEHYBRID_SEPARATE, the same options: link"; head -5 $T/hyg.err | diag; fi
    if $MPICC -fopenmp -o $T/mixed $T/main_checked.o $T/impl.o -lm 2>$T/hyg.err; then
        notok "hygiene: TILEHYBRID_SEPARATE, TILE_CHECK_ACCESS in one file only: links (it must not)"
    elif grep -q "tilehybrid__abi_checked_" $T/hyg.err; then
        ok "hygiene: TILEHYBRID_SEPARATE, TILE_CHECK_ACCESS in one file only: no link, naming $(grep -o 'tilehybrid__abi_[a-z_]*' $T/hyg.err | head -1)"
    else notok "hygiene: TILEHYBRID_SEPARATE, TILE_CHECK_ACCESS in one file only: the link error names the options"; head -5 $T/hyg.err | diag; fi
    # the refusals a point loop makes stay in the loop's own file: compiled
    # in the other one, the walk's and the view's addresses would escape
    # and the loops reload them after every store (docs/RESULTS.md,
    # "Compile time")
    if command -v nm > /dev/null 2>&1; then
        esc=$(nm -u $T/main.o | grep -o 'tile__\(walk_break\|walk_where\|at_refuse\|trap\|cur_[a-z_]*\|view_[a-z_]*\)$' | tr '\n' ' ')
        if [ -z "$esc" ]; then ok "hygiene: TILEHYBRID_SEPARATE: the point loops call nothing of the other file with their walk or view"
        else notok "hygiene: TILEHYBRID_SEPARATE: the point loops pass their walk or view to the other file: $esc"; fi
    else skip "hygiene: TILEHYBRID_SEPARATE: what the point loops call" "nm not installed"; fi
    # a file with step macros and no tile_plan_create(): the walk and the
    # messages it calls are compiled in the implementation file, so its
    # options are checked too (TILE_FOREACH_GROUP)
    printf '#include "hybrid.h"
void steps_only(tile_plan *p);
void steps_only(tile_plan *p) { HYBRID_RUN(p, it, { TILE_AT(double, it, 0, 0) = 1.0; }); }
int main(void) { steps_only(NULL); return 0; }
' > $T/steps_only.c
    for opt in "" "-DTILE_CHECK_ACCESS"; do
        if ! $MPICC $SEP $opt -c $T/steps_only.c -o $T/steps_only.o 2>$T/hyg.err; then
            notok "hygiene: a file of step macros only compiles ($opt)"; head -5 $T/hyg.err | diag
        elif $MPICC -fopenmp -o $T/steps_only $T/steps_only.o $T/impl.o -lm 2>$T/hyg.err; then
            if [ -z "$opt" ]; then ok "hygiene: TILEHYBRID_SEPARATE, step macros only, the same options: they link"
            else notok "hygiene: TILEHYBRID_SEPARATE, step macros only, TILE_CHECK_ACCESS in that file only: links (it must not)"; fi
        elif [ -n "$opt" ] && grep -q "tilehybrid__abi_checked_" $T/hyg.err; then
            ok "hygiene: TILEHYBRID_SEPARATE, step macros only, TILE_CHECK_ACCESS in that file only: no link"
        else notok "hygiene: TILEHYBRID_SEPARATE, step macros only ($opt): link"; head -5 $T/hyg.err | diag; fi
    done
else
    notok "hygiene: tests/separate_impl.c and separate_main.c compile"; head -10 $T/hyg.err | diag
fi

# 2. the examples ---------------------------------------------------------------
mkdir -p $T/examples
for h in $HEADERS; do
    awk -v prefix=$T/examples/${h%.h} -f tests/examples.awk $h
    [ -f $T/examples/${h%.h}_1.c ] || notok "example: $h has a complete program in its top comment"
done
# the pages' C blocks, block N of PAGE.md as PAGE_N.c; those with a main() stay
for page in README.md docs/REFERENCE.md; do
    p=$(basename $page .md)
    awk -v dir=$T/examples -v p=$p '/^```c$/ { f = 1; n++; next } /^```$/ { f = 0 }
        f { print > (dir "/" p "_" n ".c") }' $page
    for ex in $T/examples/${p}_*.c; do grep -q '^int main(' "$ex" || rm -f "$ex"; done
done
for ex in $T/examples/*.c; do
    name="example: $(basename "$ex" .c | sed -e 's/^README_\([0-9]*\)$/README.md (block \1)/' \
        -e 's|^REFERENCE_\([0-9]*\)$|docs/REFERENCE.md (block \1)|' \
        -e 's/_\([0-9]*\)$/.h (\1)/')"
    ccs="gcc clang"
    if [ "${CHECK_TIER:-}" = quick ]; then
        if pick 2; then ccs=gcc; else ccs=clang; fi
    fi
    for cc in $ccs; do
        if ! command -v $cc >/dev/null 2>&1; then skip "$name, $cc" "$cc not installed"; continue; fi
        omp=-fopenmp
        has_omp $cc || omp=
        levels="-O0 -O2"
        if [ "${CHECK_TIER:-}" = quick ]; then
            if pick 2; then levels=-O0; else levels=-O2; fi
        fi
        : > $T/hyg.err
        bad=
        for o in $levels; do
            $cc -std=c99 $W $o $omp $MPI_INC -I. -c "$ex" -o /dev/null 2>>$T/hyg.err || bad=1
        done
        if [ -z "$bad" ]; then ok "$name compiles, $cc -std=c99 $W $levels${omp:+ $omp}"
        else notok "$name compiles, $cc -std=c99 $W $levels${omp:+ $omp}"; head -20 $T/hyg.err | diag; fi
    done
    said=$(sed -n 's|.*// prints: ||p' "$ex") got=
    [ -n "$said" ] && ! grep -q 'MPI_Init' "$ex" || continue
    if $MPICC -std=c99 -O2 -I. -o "${ex%.c}" "$ex" -lm 2>$T/hyg.err &&
       got=$(timeout 60 "${ex%.c}" < /dev/null) && [ "$got" = "$said" ]; then
        ok "$name prints what it says: $said"
    else notok "$name prints what it says: $said"; { cat $T/hyg.err; echo "got: ${got:-}"; } | diag; fi
done

# 3. the macros in C++ user code ------------------------------------------------
if g++ -x c++ -std=c++11 $W -fopenmp $CXX_MPI $MPI_INC -I. -o $T/adi_cxx demos/adi.c $MPI_LIBS -lm 2>$T/hyg.err; then
    expect_output "C++: demos/adi.c built as C++11 ($W) runs and verifies every point" 120 'verify: ok' \
        $MPIEXEC -n 2 $T/adi_cxx --space 9x31x40 --tile-height 7 --model funneled --threads 2 --verify
else notok "C++: demos/adi.c built as C++11"; head -20 $T/hyg.err | diag; fi

# 4. lib.sh escapes what TAP would misread --------------------------------------
line=$( (tap_n=0; skip "a#b
c" "d#e") )
[ "$line" = 'ok 1 - a\#b c # SKIP d\#e' ] && ok "lib.sh writes '#' as \\# and a newline as a space in a name and a reason" ||
    notok "lib.sh escapes a name and a reason: printed '$line'"

done_testing
