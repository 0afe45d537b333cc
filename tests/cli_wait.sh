#!/bin/sh
# tests/cli_wait.sh -- TILEHYBRID_WAIT (src/tiling/12-wait.h): the waits of
# a run spin in MPI or yield the processor, and the results do not change.
#
# 1. demos/heat's adi (a map and four plans over fields: the faces'
#    waits, the map's, the agreements) and heat-3d (maps), --verify, at 1-4
#    processes under TILEHYBRID_WAIT=spin, yield and auto, adi in every
#    model (multiple: the partitioned messages' waits): every run bitwise
#    PolyBench's plain loops, one checksum per kernel over every setting;
# 2. the MPI tests of routes and maps (tests/mpi_route.c, tests/mpi_map.c)
#    and the random plans of tests/mpi_tiling.c under TILEHYBRID_WAIT=yield
#    at 2-3 processes: every check passes (each compares bitwise with its
#    plain loop);
# 3. which wait runs, through tests/pmpi_failure.c's MPI_Testall that
#    fails: with yield a run fails in its MPI_Testall (named); with spin it
#    never calls it; with auto at 1 process neither (nothing to yield
#    to), and at more processes than online processors it does;
# 4. a malformed TILEHYBRID_WAIT is refused (a non-zero status, no hang)
#    with a message that names the variable and its value, by a plan and
#    by a map.
set -u
. tests/lib.sh
D=$DEMODIR
scratch cli_wait

# 1. bitwise under every setting
bad=""
runs=0
sums=""
for np in 1 2 3 4; do
    for w in spin yield auto; do
        pick 3 || continue      # the quick tier: a sample (tests/lib.sh)
        for k in adi:mpi:1 adi:funneled:2 adi:multiple:2 heat-3d:mpi:1; do
            kern=${k%%:*} rest=${k#*:}
            model=${rest%%:*} th=${rest#*:}
            set -- --n 37 --steps 7
            [ $kern = heat-3d ] && set -- --n 13 --steps 6
            [ $kern = adi ] && set -- "$@" --model $model
            out=$(TILEHYBRID_WAIT=$w OMP_WAIT_POLICY=passive timeout 180 $MPIEXEC -n $np \
                  $D/heat --kernel $kern "$@" --threads $th --init mixed --verify 2>&1)
            runs=$((runs + 1))
            echo "$out" | grep -q '^verify: bitwise equal to the plain loops (0 of' ||
                bad="$bad [np=$np TILEHYBRID_WAIT=$w $k: $(echo "$out" | tail -1)]"
            sums="$sums $kern:$(echo "$out" | sed -n 's/^checksum \([^ ]*\) .*/\1/p')"
        done
    done
done
[ -z "$bad" ] && [ $runs -gt 0 ] &&
    ok "heat --verify under TILEHYBRID_WAIT=spin, yield, auto: $runs runs bitwise PolyBench's loops" ||
    notok "heat --verify under TILEHYBRID_WAIT:$bad"
n1=$(echo "$sums" | tr ' ' '\n' | grep '^adi:' | sort -u | wc -l)
n2=$(echo "$sums" | tr ' ' '\n' | grep '^heat-3d:' | sort -u | wc -l)
[ "$n1" -le 1 ] && [ "$n2" -le 1 ] && ok "heat: one checksum per kernel over every wait" ||
    notok "heat: checksums differ between the waits:$sums"

# 2. the MPI tests under yield (each prints TAP; every line must be ok)
for t in mpi_route:3 mpi_map:2 mpi_tiling:2; do
    prog=${t%%:*} np=${t#*:}
    if [ ! -x "$B/tests/$prog" ]; then
        notok "$B/tests/$prog is built (make check builds it)"
        continue
    fi
    out=$(TILEHYBRID_WAIT=yield OMP_WAIT_POLICY=passive timeout 600 $MPIEXEC -n $np \
          "$B/tests/$prog" 2>&1)
    rc=$?
    nok=$(echo "$out" | grep -c '^ok')
    nbad=$(echo "$out" | grep -c '^not ok')
    [ $rc -eq 0 ] && [ "$nok" -gt 0 ] && [ "$nbad" -eq 0 ] &&
        ok "tests/$prog at $np processes under TILEHYBRID_WAIT=yield: $nok checks pass" ||
        { notok "tests/$prog at $np processes under TILEHYBRID_WAIT=yield: status $rc, $nbad failed"
          echo "$out" | grep -A3 '^not ok' | head -20 | diag; }
done

# 3. which wait: MPI_Testall made to fail on rank 0 (tests/pmpi_failure.c)
P=$B/tests/mpi_failure
# testall NP WAIT: run mpi_failure (the mpi model) with its first MPI_Testall
# failing; status in $rc, stderr in $T/err
testall() {
    TILEHYBRID_WAIT=$2 TILEHYBRID_FAIL_CALL=MPI_Testall TILEHYBRID_FAIL_RANK=0 \
        TILEHYBRID_FAIL_MODEL=mpi TILEHYBRID_FAIL_MESSAGES=persistent \
        timeout 120 $MPIEXEC -n $1 "$P" > "$T/out" 2> "$T/err"
    rc=$?
}
if [ ! -x "$P" ]; then
    notok "$P is built (make check builds it)"
else
    testall 2 yield
    [ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q 'rank 0.*MPI_Testall failed completing' "$T/err" &&
        ok "TILEHYBRID_WAIT=yield: the run's waits poll with MPI_Testall (its failure named)" ||
        { notok "TILEHYBRID_WAIT=yield: no MPI_Testall failed (status $rc)"; head -5 "$T/err" | diag; }
    testall 2 spin
    [ $rc -eq 0 ] && ok "TILEHYBRID_WAIT=spin: no MPI_Testall (the run completes)" ||
        { notok "TILEHYBRID_WAIT=spin: status $rc"; head -5 "$T/err" | diag; }
    testall 1 auto
    [ $rc -eq 0 ] && ok "TILEHYBRID_WAIT=auto at 1 process of 1 thread: no MPI_Testall" ||
        { notok "TILEHYBRID_WAIT=auto at 1 process: status $rc"; head -5 "$T/err" | diag; }
    cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 0)
    if [ "$cpus" -ge 1 ] && [ "$cpus" -le 3 ]; then
        testall $((cpus + 1)) auto
        [ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q 'MPI_Testall failed' "$T/err" &&
            ok "TILEHYBRID_WAIT=auto at $((cpus + 1)) processes on $cpus processors: MPI_Testall" ||
            { notok "TILEHYBRID_WAIT=auto, oversubscribed: no MPI_Testall (status $rc)"
              head -5 "$T/err" | diag; }
    else
        skip "TILEHYBRID_WAIT=auto oversubscribed" "$cpus online processors (more than 3: too many processes)"
    fi
fi

# 4. malformed values: a plan (adi) and a map (heat-3d) refuse them
for v in bogus "" YIELD "yield "; do
    for kern in adi heat-3d; do
        pick 2 || continue
        out=$(TILEHYBRID_WAIT="$v" timeout 60 $MPIEXEC -n 2 $D/heat --kernel $kern --size MINI 2>&1)
        rc=$?
        # (heat exits 2 on a plan's refusal, 1 on a map's)
        [ $rc -ne 0 ] && [ $rc -ne 124 ] &&
            echo "$out" | grep -q "TILEHYBRID_WAIT = '$v': not auto, spin or yield" &&
            ok "TILEHYBRID_WAIT='$v' refused by $kern's $( [ $kern = adi ] && echo plans || echo maps) (status $rc, the variable named)" ||
            { notok "TILEHYBRID_WAIT='$v' ($kern): status $rc"; echo "$out" | tail -3 | diag; }
    done
done

done_testing
