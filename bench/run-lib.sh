# bench/run-lib.sh -- the start that bench/run.sh and sim/run.sh share
# (sourced, not run): the --quick option and --help, and machine_lines()
# for their machine record.
#
# Set before sourcing it: RUN (the script, as in its messages: bench/run.sh)
# and RUN_HELP (the lines of the script's top comment that --help prints,
# as sed's range: 3,18).
QUICK=0
case "${1:-}" in
    --quick) QUICK=1 ;;
    "") ;;
    -h|--help) echo "usage: sh $RUN [--quick]"
               sed -n "${RUN_HELP}p" "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "$RUN: unknown argument '$1' (usage: sh $RUN [--quick])" >&2; exit 2 ;;
esac
export QUICK

# machine_lines EXTRA: the date, the set (quick or full, then EXTRA), the
# CPU, its cores and the OS, one "key: value" line each
machine_lines() {
    echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "set: $([ "$QUICK" = 1 ] && echo quick || echo full)$1"
    echo "cpu: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)"
    echo "cores: $(getconf _NPROCESSORS_ONLN 2>/dev/null)"
    echo "os: $(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME") $(uname -r)"
}
