# tests/lib.sh -- the one helper of the test scripts: TAP output, the
# programs' places, a timed run, a JSON reader.  Sourced (from the top
# directory) by tests/run.sh and by every tests/cli_*.sh:
#
#   . tests/lib.sh
#   ok "name"                  ok 1 - name
#   notok "name"               not ok 2 - name
#   skip "name" "reason"       ok 3 - name # SKIP reason
#   diag "text"  or  CMD | diag      # text (every line)
#   scratch NAME               a new empty directory in $T (under $TMPDIR or
#                              /tmp, named after NAME), removed when the
#                              script exits, also on INT or TERM
#   expect_output NAME SECONDS PATTERN CMD...
#                              ok when CMD, killed after SECONDS, exits 0 and
#                              prints a line matching the grep -E PATTERN
#   run_timeout SECONDS CMD... CMD (stdin /dev/null) killed after SECONDS:
#                              stdout in $out, stderr in $err, status in $rc
#                              (124: timed out)
#   run_job NP CMD...          `$MPIEXEC -n NP CMD...` (stdin /dev/null) killed
#                              after 60 s: stdout in $T/out, stderr (the
#                              launcher's banner stripped) in $T/err, status
#                              in $rc (124: timed out), seconds in $secs;
#                              run once more if Open MPI's launcher hangs
#                              after every rank exited (see run_job)
#   failed_ok NAME WHAT PATTERN...
#                              after run_job: ok when the job ended in time
#                              with a non-zero status and $T/err matches
#                              every grep PATTERN; else not ok, saying the
#                              message should name WHAT, $T/err as diag
#   json_types FILE            "PATH<TAB>TYPE" for every member of the one
#                              JSON value in FILE, or a message and status 1
#   done_testing               the plan line "1..N"; exits 0 when no test
#                              failed and at least one ran, else 1
#   pick K                     true always in the full tier; in the quick
#                              tier (CHECK_TIER=quick: make check) true for
#                              about one call in K, which ones drawn from
#                              CHECK_SEED: a sampled loop says
#                              `pick 4 || continue` once per case
#
# Output is TAP, so `prove` runs any script:  prove -v --exec sh tests/cli_topo.sh
# In a name '#' is written "\#" and a newline as a space.  lib.sh's own
# variables start with tap_; it sets no others but those named here
# ($out, $err, $rc, $secs, $T).
#
# The programs' places come from the environment (the Makefile sets them);
# the defaults are those of a plain `make check`, as the Makefile chooses
# them (MPICH's mpicc.mpich and mpiexec.mpich when installed):
#   MPICC, MPIEXEC  compiler wrapper and launcher
#   B               build directory: tests/, asan/, bench/ (build)
#   DEMODIR         the demo binaries adi, de, scatter (demos)
#   TILECTL         the tilectl binary (./tilectl)
# and tools/mpi-env.sh sets what Open MPI needs when MPIEXEC is Open MPI's.

if [ -z "${MPICC:-}" ]; then
    MPICC=mpicc
    command -v mpicc.mpich > /dev/null 2>&1 && MPICC=mpicc.mpich
fi
if [ -z "${MPIEXEC:-}" ]; then
    MPIEXEC=mpiexec
    command -v mpiexec.mpich > /dev/null 2>&1 && MPIEXEC=mpiexec.mpich
fi
B=${B:-build}
DEMODIR=${DEMODIR:-demos}
TILECTL=${TILECTL:-./tilectl}
export MPICC MPIEXEC B DEMODIR TILECTL
# MPI tests run oversubscribed (up to 4 processes x 3 threads on 2 cores):
# spinning OpenMP barriers then waste whole time slices, so let idle threads
# sleep (the results do not depend on it, only the time).
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
. tools/mpi-env.sh

tap_n=0 tap_failed=0 tap_skipped=0
tap_nl='
'
tap_cr=$(printf '\r')

# tap_line STATUS NAME [REASON]: one test line ("ok" or "not ok"; a REASON
# makes it a skip)
tap_line() {
    tap_n=$((tap_n + 1))
    tap_name=$2 tap_why=${3:-}
    case $tap_name$tap_why in
        *'#'* | *"$tap_nl"* | *"$tap_cr"*)
            tap_name=$(printf '%s' "$tap_name" | tr '\r\n' '  ' | sed 's/#/\\#/g')
            tap_why=$(printf '%s' "$tap_why" | tr '\r\n' '  ' | sed 's/#/\\#/g') ;;
    esac
    printf '%s %d - %s%s\n' "$1" "$tap_n" "$tap_name" "${tap_why:+ # SKIP $tap_why}"
}

ok()    { tap_line ok "$1"; }
notok() { tap_line "not ok" "$1"; tap_failed=$((tap_failed + 1)); }
skip()  { tap_line ok "$1" "${2:-no reason given}"; tap_skipped=$((tap_skipped + 1)); }

# diag [TEXT]: TEXT, or stdin, as TAP diagnostics
diag() {
    if [ $# -gt 0 ]; then printf '%s\n' "$*" | sed 's/^/# /'
    else sed 's/^/# /'; fi
}

scratch() {
    T=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX") || { echo "scratch: cannot create a directory for $1" >&2; exit 1; }
    trap 'rm -rf "$T"' EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
}

# rank_script: writes $T/rank.sh, which runs its arguments and writes the
# exit status of each rank to $RCDIR/rc.<rank> (MPICH: PMI_RANK, Open MPI:
# OMPI_COMM_WORLD_RANK; rc.x where the launcher sets neither)
rank_script() {
    cat > "$T/rank.sh" <<'EOF'
"$@"
rc=$?
echo $rc > "$RCDIR/rc.${PMI_RANK:-${OMPI_COMM_WORLD_RANK:-x}}"
exit $rc
EOF
}

run_timeout() {
    tap_secs=$1
    shift
    tap_errf=${TMPDIR:-/tmp}/tap_err.$$
    out=$(timeout "$tap_secs" "$@" < /dev/null 2> "$tap_errf")
    rc=$?
    err=$(cat "$tap_errf")
    rm -f "$tap_errf"
    return $rc
}

# Open MPI 4.1's launcher can deadlock in its own PMIx_server_finalize when
# one rank calls MPI_Abort as the others end normally (seen 1 run in 12 to
# 40 of cli_failure's agreement case under load): every rank has exited
# (zombies of the launcher), and the launcher waits forever.  Not a rank
# that waits: so run_job watches the launcher's children (through /proc:
# a fresh machine may have no ps), and when every one has exited and the
# launcher still runs 8 s later, kills it and runs the job once more.
tap_launcher_hung() {
    tap_z=0
    while kill -0 "$1" 2> /dev/null; do
        tap_l=$(cat /proc/$1/task/*/children 2> /dev/null)
        tap_kids=$(for tap_p in $tap_l; do cat /proc/$tap_p/task/*/children 2> /dev/null; done)
        tap_live=0
        for tap_k in $tap_kids; do
            tap_s=$(sed 's/.*) //' /proc/$tap_k/stat 2> /dev/null | cut -c1)
            [ "$tap_s" = Z ] || [ -z "$tap_s" ] || tap_live=1
        done
        if [ -n "$tap_kids" ] && [ $tap_live = 0 ]; then
            tap_z=$((tap_z + 1))
            if [ $tap_z -ge 40 ]; then
                kill -KILL $tap_l 2> /dev/null
                return 0
            fi
        else
            tap_z=0
        fi
        sleep 0.2
    done
    return 1
}

run_job() {
    tap_np=$1
    shift
    tap_start=$(date +%s)
    tap_try=1
    while :; do
        timeout -k 10 60 $MPIEXEC -n "$tap_np" "$@" > "$T/out" 2> "$T/err.raw" < /dev/null &
        tap_pid=$!
        tap_hung=0
        [ "$TILEHYBRID_OPENMPI" = 1 ] && tap_launcher_hung $tap_pid && tap_hung=1
        wait $tap_pid
        rc=$?
        [ $tap_hung = 1 ] || break
        rc=124
        [ $tap_try = 1 ] || break
        diag "Open MPI's launcher hung after every rank had exited (its own deadlock in" \
             "PMIx_server_finalize after an MPI_Abort, not a rank that waits): the job runs again"
        tap_try=2
    done
    secs=$(( $(date +%s) - tap_start ))
    strip_launcher < "$T/err.raw" > "$T/err"
}

failed_ok() {
    tap_what=$1 tap_names=$2
    shift 2
    if [ $rc -eq 124 ]; then
        notok "$tap_what: every rank exits (killed after 60 s: a rank waits forever)"
    elif [ $rc -eq 0 ]; then
        notok "$tap_what: the job exits non-zero (status 0: did the call fail?)"
    else
        for tap_pat in "$@"; do
            if ! grep -q -e "$tap_pat" "$T/err"; then
                notok "$tap_what: the message names $tap_names"
                diag < "$T/err"
                return
            fi
        done
        ok "$tap_what: every rank gone in ${secs} s, status $rc, the message names the call and the rank"
        return
    fi
    diag < "$T/err"
}

expect_output() {
    tap_what=$1 tap_s=$2 tap_pat=$3
    shift 3
    run_timeout "$tap_s" "$@"
    if [ $rc -eq 0 ] && printf '%s\n%s\n' "$out" "$err" | grep -Eq -- "$tap_pat"; then
        ok "$tap_what"
        return 0
    fi
    if [ $rc -eq 124 ]; then notok "$tap_what (killed after $tap_s s)"
    elif [ $rc -ne 0 ]; then notok "$tap_what (exit $rc)"
    else notok "$tap_what (no line matches '$tap_pat')"; fi
    printf '%s\n%s\n' "$out" "$err" | grep '^SUMMARY: ' | head -n 5 | diag
    printf '%s\n%s\n' "$out" "$err" | grep -v '^$' | tail -n 15 | diag
    return 1
}

# json_types FILE, with python3 when present, else jq (JSON_PARSER=python3 or
# jq chooses).  PATH is the key ("seconds"), inside an object "outer.key",
# inside an array of objects "list[].key"; one line per member (in a list of
# objects, one per element), each after the members inside it; TYPE is
# string, integer (no fraction, no exponent), number, boolean, null, array or
# object.  python3 rejects what RFC 8259 forbids, and also duplicate keys,
# NaN and Infinity; jq 1.6 is laxer: it takes NaN, duplicate keys (the last
# one wins), leading zeros and "1." or ".5", and calls 1.0 and 1e3 integers.
json_types() {
    case ${JSON_PARSER:-} in
        python3 | jq) tap_parser=$JSON_PARSER ;;
        "") tap_parser=none
            if command -v python3 > /dev/null 2>&1 && python3 -c 'import json' 2> /dev/null; then
                tap_parser=python3
            elif command -v jq > /dev/null 2>&1; then tap_parser=jq; fi ;;
        *) echo "json_types: JSON_PARSER=$JSON_PARSER: use python3 or jq" >&2; return 2 ;;
    esac
    case $tap_parser in
        python3) python3 -c "$tap_json_py" "$1" ;;
        jq) jq -r -s "$tap_json_jq" "$1" ;;
        *) echo "json_types: neither python3 nor jq is installed (tools/ensure-deps.sh installs jq)" >&2
           return 2 ;;
    esac
}
tap_json_py='
import json, sys
class Obj(list):
    pass
def pairs(p):
    seen = set()
    for k, v in p:
        if k in seen:
            raise ValueError("duplicate key %r" % k)
        seen.add(k)
    return Obj(p)
def constant(c):
    raise ValueError("%s is not JSON" % c)
def kind(v):
    if isinstance(v, Obj): return "object"
    if isinstance(v, list): return "array"
    if isinstance(v, str): return "string"
    if isinstance(v, bool): return "boolean"
    if v is None: return "null"
    return "integer" if isinstance(v, int) else "number"
def walk(v, path):
    if isinstance(v, Obj):
        for k, x in v:
            full = k if path == "" else path + "." + k
            walk(x, full)
            print(full + "\t" + kind(x))
    elif isinstance(v, list):
        for x in v:
            walk(x, path + "[]")
try:
    with open(sys.argv[1], encoding="utf-8") as f:
        v = json.load(f, object_pairs_hook=pairs, parse_constant=constant)
except (ValueError, OSError) as e:
    sys.exit("json_types: %s: %s" % (sys.argv[1], e))
walk(v, "")
'
tap_json_jq='
def kind: if type == "number" and . == floor then "integer" else type end;
def members(p):
    if type == "object" then
        to_entries[] | (if p == "" then .key else p + "." + .key end) as $f
        | (.value | members($f)), "\($f)\t\(.value | kind)"
    elif type == "array" then .[] | members(p + "[]")
    else empty end;
if length != 1 then error("\(length) JSON values, want one") else .[0] | members("") end
'

tap_pick_n=0
pick() {
    [ "${CHECK_TIER:-}" = quick ] || return 0
    tap_pick_n=$((tap_pick_n + 1))
    tap_h=$(( (((${CHECK_SEED:-1} % 65521) * 7919 + tap_pick_n * 104729) * 2654435761) % 4294967296 ))
    [ $(( (tap_h >> 7) % $1 )) -eq 0 ]
}

done_testing() {
    echo "1..$tap_n"
    [ "$tap_failed" -eq 0 ] && [ "$tap_n" -gt 0 ]
    exit $?
}
