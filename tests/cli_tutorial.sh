#!/bin/sh
# tests/cli_tutorial.sh -- docs/TUTORIAL.md cannot rot.
#
#   MPICC=mpicc MPIEXEC=mpiexec sh tests/cli_tutorial.sh   (from the top directory)
#
# 1. every step of the lab (docs/tutorial/step*.c) builds with
#    -std=c99 -Wall -Wextra -pedantic -Werror -fopenmp;
# 2. step 0 prints the checksum of the ADI demo; steps 1-6 run at 1-4
#    processes and verify every point bitwise against the sequential loop;
#    so does step 7 (another kernel, with a diagonal read), with the same
#    checksum at every process count, and step 8 (a time loop as maps over
#    fields) at 1-2 threads too;
# 3. the code blocks of the tutorial are the files' own: before a code block,
#      <!-- file: F -->     the block is the whole of docs/tutorial/F;
#      <!-- excerpt: F -->  the block is a run of whole lines of F;
#      <!-- diff: F G -->   the block is `diff -u F G` (labels F and G);
#      <!-- run -->         the lines "$ CMD" are run in one shell in a copy
#                           of docs/tutorial two levels below the top (so
#                           ../../tilectl works), mpicc and mpiexec replaced
#                           by $MPICC and $MPIEXEC; the other lines are the
#                           output they must print (stdout and stderr; lines
#                           "solve_seconds ..." are not compared);
#    and every step file appears in at least one block.
# Prints TAP (tests/lib.sh); exits non-zero if any test failed.
set -u
. tests/lib.sh
unset TILEHYBRID_TCOMP TILEHYBRID_TSTARTUP TILEHYBRID_BANDWIDTH TILEHYBRID_ELEM_BYTES
DOC=docs/TUTORIAL.md
SRC=docs/tutorial
B=build/tutorial                  # two levels below the top, like docs/tutorial
# the page's commands name ../../demos/adi and ../../tilectl (the default
# build); a run with another MPI (make check MPI=openmpi) uses its own
DEMO_ABS=$(cd "$DEMODIR" && pwd)
CTL_ABS=$(cd "$(dirname "$TILECTL")" && pwd)/$(basename "$TILECTL")
FLAGS="-std=c99 -Wall -Wextra -pedantic -Werror -O2 -fopenmp"

rm -rf "$B"
mkdir -p "$B/doc"
cp "$SRC"/*.c "$B"/

# 1. build ------------------------------------------------------------------
# (the compilers run at once, each leaving its status in $B/$s.rc)
for f in "$SRC"/step*.c; do
    s=$(basename "$f" .c)
    ( $MPICC $FLAGS -o "$B/$s" "$B/$s.c" > "$B/$s.err" 2>&1; echo $? > "$B/$s.rc" ) &
done
wait
steps=""
for f in "$SRC"/step*.c; do
    s=$(basename "$f" .c)
    if [ "$(cat "$B/$s.rc" 2>/dev/null)" = 0 ]; then
        steps="$steps $s"
    else
        notok "$s.c builds with $MPICC $FLAGS"; head -20 "$B/$s.err" | diag
    fi
done
[ -n "$steps" ] && ok "steps build with $MPICC $FLAGS:$steps"

# rebuild_only BLOCK: every command of the page's BLOCK builds a step file
# into the binary of its own name with step 1's flags ($FLAGS, -fopenmp or
# not): step 1 built the same binary in the same place
rebuild_only() {
    grep '^\$ ' "$1" | awk '
        { n++ }
        !/^\$ mpicc -std=c99 -Wall -Wextra -pedantic -Werror -O2( -fopenmp)? -o step[a-z0-9_]+ step[a-z0-9_]+\.c$/ { other = 1 }
        $NF != $(NF - 1) ".c" { other = 1 }
        END { exit other || n == 0 }'
}

# 2. run ---------------------------------------------------------------------
checksum() { sed -n 's/.*checksum \([0-9a-f]\{16\}\).*/\1/p' "$1" | head -n 1; }
ref=$(cd "$B" && timeout 60 ./step0_seq 11 37 45 > seq.out 2>&1; checksum seq.out)
demo=$(timeout 60 $MPIEXEC -n 1 "$DEMODIR/adi" --space 11x37x45 --json 2>&1 |
       sed -n 's/.*"checksum": "\([0-9a-f]*\)".*/\1/p')
if [ -n "$ref" ] && [ "$ref" = "$demo" ]; then
    ok "step0_seq 11 37 45 prints the checksum of demos/adi ($ref)"
else notok "step0_seq checksum '$ref', demos/adi '$demo'"; fi

# ARGS for each step after "11 37 45 7" (X Y Z tile height); the grid word
# and the thread count change with the process count.
for s in step1_mpi step2_grid step3_fine step4_funneled step5_multiple step6_balance; do
    bad="" runs=0
    [ -x "$B/$s" ] || { notok "$s: not built"; continue; }
    for np in 1 2 3 4; do
        pick 2 || continue      # the quick tier: a sample (tests/lib.sh)
        grid="comm"; [ $((np % 2)) -eq 0 ] && grid="latency"
        th=$((np % 3 + 1))
        case $s in
            step1_mpi) more="" ;;
            step2_grid) more="$grid" ;;
            step6_balance) more="$grid $th adaptive" ;;
            *) more="$grid $th" ;;
        esac
        out=$(cd "$B" && timeout 120 $MPIEXEC -n $np ./$s 11 37 45 7 $more 2>&1)
        rc=$?
        runs=$((runs + 1))
        if [ $rc -ne 0 ] || ! echo "$out" | grep -q "^checksum $ref\$" ||
           ! echo "$out" | grep -q "^verify: ok, 18315 of 18315 points compared bitwise, 0 differ\$"; then
            bad="$bad [np=$np $more: exit $rc: $(echo "$out" | tr '\n' ' ' | cut -c1-200)]"
        fi
    done
    if [ -z "$bad" ] && [ $runs -gt 0 ]; then ok "$s: $runs runs at 1-4 processes verify all 18315 points, checksum $ref"
    else notok "$s:$bad"; fi
done

# step 7 computes another kernel: its checksum is its own, the same in
# every run (1x1, 2x1, 1x3 and 2x2 grids: the corner crosses processes)
s=step7_diagonal bad="" runs=0 ref7=""
if [ -x "$B/$s" ]; then
    for np in 1 2 3 4; do
        grid="comm"; [ $((np % 2)) -eq 0 ] && grid="latency"
        out=$(cd "$B" && timeout 120 $MPIEXEC -n $np ./$s 11 37 45 7 $grid 2>&1)
        rc=$?
        runs=$((runs + 1))
        sum=$(echo "$out" | sed -n 's/^checksum \([0-9a-f]\{16\}\)$/\1/p')
        [ -z "$ref7" ] && ref7=$sum
        if [ $rc -ne 0 ] || [ -z "$sum" ] || [ "$sum" != "$ref7" ] ||
           ! echo "$out" | grep -q "^verify: ok, 18315 of 18315 points compared bitwise, 0 differ\$"; then
            bad="$bad [np=$np $grid: exit $rc: $(echo "$out" | tr '\n' ' ' | cut -c1-200)]"
        fi
    done
    if [ -z "$bad" ]; then ok "$s: $runs runs at 1-4 processes verify all 18315 points, checksum $ref7"
    else notok "$s:$bad"; fi
else notok "$s: not built"; fi

# step 8 (maps over fields): the same checksum at 1-4 processes and 1-2
# threads, every point verified, blocks of an odd size
s=step8_maps bad="" runs=0 ref8=""
if [ -x "$B/$s" ]; then
    for np in 1 2 3 4; do
        for th in 1 2; do
            pick 2 || continue
            out=$(cd "$B" && OMP_WAIT_POLICY=passive timeout 120 $MPIEXEC -n $np ./$s 11 37 9 $th 2>&1)
            rc=$?
            runs=$((runs + 1))
            sum=$(echo "$out" | sed -n 's/^checksum \([0-9a-f]\{16\}\)$/\1/p')
            [ -z "$ref8" ] && ref8=$sum
            if [ $rc -ne 0 ] || [ -z "$sum" ] || [ "$sum" != "$ref8" ] ||
               ! echo "$out" | grep -q "^verify: ok, 407 of 407 points compared bitwise, 0 differ\$"; then
                bad="$bad [np=$np threads=$th: exit $rc: $(echo "$out" | tr '\n' ' ' | cut -c1-200)]"
            fi
        done
    done
    if [ -z "$bad" ] && [ $runs -gt 0 ]; then ok "$s: $runs runs at 1-4 processes and 1-2 threads verify all 407 points, checksum $ref8"
    else notok "$s:$bad"; fi
else notok "$s: not built"; fi

# a step that computes something else must say so and fail
sed 's|^\( *\)((TILE_AT(double, it, -1, 0, 0) + TILE_AT(double, it, 0, -1, 0))$|\1((TILE_AT(double, it, -1, 0, 0) + TILE_AT(double, it, 0, -1, 0)) * 1.0000001|' \
    "$B/step1_mpi.c" > "$B/broken.c"
if cmp -s "$B/step1_mpi.c" "$B/broken.c"; then
    notok "negative control: the body of step1_mpi.c was not found to break"
elif $MPICC $FLAGS -o "$B/broken" "$B/broken.c" > "$B/broken.err" 2>&1; then
    out=$(cd "$B" && timeout 60 $MPIEXEC -n 2 ./broken 11 37 45 7 2>&1); rc=$?
    if [ $rc -ne 0 ] && echo "$out" | grep -q "^verify: MISMATCH, 18315 of 18315 points compared bitwise, [1-9][0-9]* differ\$"; then
        ok "negative control: a wrong body is reported as MISMATCH with a non-zero exit"
    else notok "negative control: a wrong body gave exit $rc: $out"; fi
else notok "negative control: broken.c does not build"; head "$B/broken.err" | diag; fi

# 3. the tutorial's code blocks ---------------------------------------------
if [ ! -f "$DOC" ]; then
    notok "$DOC exists"
    done_testing
fi
awk -v dir="$B/doc" '
    /^<!-- (file|excerpt|diff): [^>]* -->$/ || /^<!-- run -->$/ {
        if (pending) print "marker at line " mline " has no code block" > (dir "/errors")
        n++; pending = 1; mline = NR
        m = $0; sub(/^<!-- /, "", m); sub(/ -->$/, "", m); sub(/:/, "", m)
        print n, mline, m > (dir "/index")
        next
    }
    pending && /^```/ { pending = 0; inblock = 1; out = dir "/" n; printf "" > out; next }
    pending && !/^[ \t]*$/ { print "marker at line " mline " has no code block" > (dir "/errors"); pending = 0 }
    inblock && /^```[ \t]*$/ { inblock = 0; close(out); next }
    inblock { print > out }
' "$DOC"
if [ -s "$B/doc/errors" ]; then notok "$DOC: $(cat "$B/doc/errors" | tr '\n' ' ')"; fi
[ -f "$B/doc/index" ] || { notok "$DOC has no marked code blocks"; done_testing; }

nfile=0 nexc=0 ndiff=0 nrun=0 bad=""
while read -r n line kind a b <&3; do
    blk="$B/doc/$n"
    case $kind in
        file)
            nfile=$((nfile + 1))
            cmp -s "$SRC/$a" "$blk" || bad="$bad [line $line: not the whole of $a]" ;;
        excerpt)
            nexc=$((nexc + 1))
            [ -s "$blk" ] && [ -f "$SRC/$a" ] &&
                awk 'FNR == NR { f = f "\n" $0; next } { e = e "\n" $0 }
                     END { exit index(f "\n", e "\n") ? 0 : 1 }' "$SRC/$a" "$blk" ||
                bad="$bad [line $line: not an excerpt of $a]" ;;
        diff)
            ndiff=$((ndiff + 1))
            diff -u --label "$a" --label "$b" "$SRC/$a" "$SRC/$b" > "$B/doc/$n.want"
            cmp -s "$B/doc/$n.want" "$blk" || bad="$bad [line $line: not diff -u $a $b]" ;;
        run)
            # the quick tier: no block that only builds again what step 1
            # built (the same file and flags, the same binary), and a
            # sample of the others that build nothing
            if [ "${CHECK_TIER:-}" = quick ]; then
                if rebuild_only "$blk"; then continue; fi
                grep -q '^\$ mpicc' "$blk" || pick 2 || continue
            fi
            nrun=$((nrun + 1))
            sed -n 's/^\$ //p' "$blk" |
                sed -e 's/^mpiexec /$MPIEXEC /' -e 's/^mpicc /$MPICC /' \
                    -e "s|\.\./\.\./demos/|$DEMO_ABS/|g" -e "s|\.\./\.\./tilectl|$CTL_ABS|g" > "$B/doc/$n.sh"
            grep -v -e '^\$ ' -e '^solve_seconds ' "$blk" > "$B/doc/$n.want"
            (cd "$B" && MPICC="$MPICC" MPIEXEC="$MPIEXEC" timeout 300 sh "doc/$n.sh" < /dev/null 2>&1) |
                grep -v '^solve_seconds ' | strip_launcher > "$B/doc/$n.got"
            if ! cmp -s "$B/doc/$n.want" "$B/doc/$n.got"; then
                bad="$bad [line $line: the output differs]"
                diff -u "$B/doc/$n.want" "$B/doc/$n.got" | head -n 30 | diag
            fi ;;
    esac
done 3< "$B/doc/index"
if [ -z "$bad" ]; then
    ok "$DOC: $nfile listings and $nexc excerpts are the files' own, $ndiff diffs are diff -u, $nrun command blocks print what they show"
else notok "$DOC:$bad"; fi

missing=""
for f in "$SRC"/step*.c; do
    f=$(basename "$f")
    awk -v f="$f" '$3 != "run" && ($4 == f || $5 == f) { found = 1 } END { exit !found }' \
        "$B/doc/index" || missing="$missing $f"
done
[ -z "$missing" ] && ok "$DOC shows every step file" || notok "$DOC does not show:$missing"

done_testing
