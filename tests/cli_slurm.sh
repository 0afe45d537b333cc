#!/bin/sh
# tests/cli_slurm.sh -- demos/slurm/adi.sbatch without Slurm.
#
#   MPIEXEC=mpiexec sh tests/cli_slurm.sh      (from the top, after make)
#
# A fake sbatch reads the script's #SBATCH lines, sets the SLURM_* variables
# a real allocation sets, and runs the script with a fake srun first on PATH.
# The fake srun writes down its options and starts the program with
# $MPIEXEC -n $SLURM_NTASKS.  Checked: the syntax (bash -n, sh -n, shellcheck
# when installed), a one-node run (2 processes x 4 threads, every point
# verified), the one-line change to two nodes (4 processes), the mpiexec
# launcher, and the errors.  Prints TAP (tests/lib.sh).
set -u
. tests/lib.sh
SCRIPT=demos/slurm/adi.sbatch
T=build/slurm

rm -rf "$T"
mkdir -p "$T/bin"
top=$(pwd)
real_mpiexec=$(command -v "${MPIEXEC%% *}")
mpiexec_args=${MPIEXEC#"${MPIEXEC%% *}"}

# fake srun: options up to the program, then $MPIEXEC -n $SLURM_NTASKS
cat > "$T/bin/srun" << EOF
#!/bin/sh
echo "\$*" > "$top/$T/srun.args"
while [ \$# -gt 0 ]; do
    case \$1 in -*) shift ;; *) break ;; esac
done
if [ -n "\${FAKE_USR1:-}" ]; then    # Slurm's --signal=USR1@60, once the run checkpoints
    ck=\$(echo "\$*" | sed -n 's/.*--checkpoint \\([^ ]*\\).*/\\1/p')
    "$real_mpiexec" $mpiexec_args -n "\$SLURM_NTASKS" "\$@" &
    pid=\$!
    while [ ! -e "\$ck" ] && kill -0 \$pid 2> /dev/null; do sleep 0.05; done
    for d in /proc/[0-9]*; do     # (no pkill on a fresh machine)
        case \$(tr '\\0' ' ' < "\$d/cmdline" 2> /dev/null) in "\$1 "*) kill -USR1 "\${d#/proc/}" ;; esac
    done
    wait \$pid
    exit \$?
fi
exec "$real_mpiexec" $mpiexec_args -n "\$SLURM_NTASKS" "\$@"
EOF
# fake scontrol: its arguments written down
cat > "$T/bin/scontrol" << EOF
#!/bin/sh
echo "\$*" >> "$top/$T/scontrol.args"
EOF
# fake mpiexec (LAUNCH=mpiexec): the real one, arguments written down
cat > "$T/bin/mpiexec" << EOF
#!/bin/sh
echo "\$*" > "$top/$T/mpiexec.args"
exec "$real_mpiexec" $mpiexec_args "\$@"
EOF
chmod +x "$T/bin/srun" "$T/bin/mpiexec" "$T/bin/scontrol"

# fake_sbatch SCRIPT [VAR=VALUE...]: run SCRIPT as sbatch would start it
fake_sbatch() {
    script=$1; shift
    value() { sed -n "s/^#SBATCH --$1=\\([^ ]*\\).*/\\1/p" "$script" | head -n 1; }
    nodes=$(value nodes) tpn=$(value ntasks-per-node) cpt=$(value cpus-per-task)
    env PATH="$top/$T/bin:$PATH" SLURM_JOB_ID=4242 SLURM_SUBMIT_DIR="$top" \
        SLURM_JOB_NUM_NODES="$nodes" SLURM_NNODES="$nodes" SLURM_NTASKS_PER_NODE="$tpn" \
        SLURM_NTASKS=$((nodes * tpn)) SLURM_CPUS_PER_TASK="$cpt" ADI="$DEMODIR/adi" "$@" \
        timeout 300 bash "$script" < /dev/null 2>&1
}

# 1. syntax -------------------------------------------------------------------
bash -n "$SCRIPT" 2> "$T/err" && ok "bash -n $SCRIPT" || notok "bash -n $SCRIPT: $(cat "$T/err")"
sh -n "$SCRIPT" 2> "$T/err" && ok "sh -n $SCRIPT (no bash-only syntax)" || notok "sh -n $SCRIPT: $(cat "$T/err")"
if command -v shellcheck > /dev/null 2>&1; then
    shellcheck "$SCRIPT" > "$T/err" 2>&1 && ok "shellcheck $SCRIPT" ||
        { notok "shellcheck $SCRIPT"; head -20 "$T/err" | diag; }
fi
[ "$(head -n 1 "$SCRIPT")" = "#!/bin/bash" ] && grep -q '^#SBATCH --nodes=1$' "$SCRIPT"
[ $? -eq 0 ] && ok "$SCRIPT starts with #!/bin/bash and has the line '#SBATCH --nodes=1'" ||
    notok "$SCRIPT: shebang or --nodes line"

# 2. one node: 2 processes x 4 threads --------------------------------------------
out=$(fake_sbatch "$SCRIPT" SPACE=16x64x200 TILE_HEIGHT=10); rc=$?
args=$(cat "$T/srun.args" 2>/dev/null)
if [ $rc -eq 0 ] && echo "$out" | grep -q "^verify: ok (0 mismatching points" &&
   echo "$out" | grep -q "model funneled, 2 processes x 4 threads" &&
   echo "$args" | grep -q -- "--mpi=pmi2 --cpus-per-task=4 --cpu-bind=cores [^ ]*demos/adi --space 16x64x200"; then
    ok "one node: srun --mpi=pmi2 --cpus-per-task=4 starts 2 processes x 4 threads (OMP_NUM_THREADS from SLURM_CPUS_PER_TASK), every point verified"
else notok "one node (exit $rc): srun $args: $out"; fi

# 3. the one-line change: two nodes, 4 processes ----------------------------------
sed 's/^#SBATCH --nodes=1$/#SBATCH --nodes=2/' "$SCRIPT" > "$T/adi2.sbatch"
lines=$(diff "$SCRIPT" "$T/adi2.sbatch" | grep -c '^[<>]')
out=$(fake_sbatch "$T/adi2.sbatch" SPACE=16x64x200 TILE_HEIGHT=10 MODEL=multiple); rc=$?
if [ "$lines" -eq 2 ] && [ $rc -eq 0 ] && echo "$out" | grep -q "^verify: ok (0 mismatching points" &&
   echo "$out" | grep -q "model multiple, 4 processes x 4 threads" &&
   echo "$out" | grep -q "2 node(s), 4 processes x 4 threads"; then
    ok "--nodes=2, one line changed: 4 processes x 4 threads (multiple model), every point verified"
else notok "two nodes (exit $rc, $lines lines changed): $out"; fi

# 4. LAUNCH=mpiexec, a timing run without --verify ---------------------------------
out=$(fake_sbatch "$SCRIPT" SPACE=16x64x200 LAUNCH=mpiexec VERIFY= MODEL=fine); rc=$?
args=$(cat "$T/mpiexec.args" 2>/dev/null)
if [ $rc -eq 0 ] && echo "$out" | grep -q "model fine, 2 processes x 4 threads" &&
   ! echo "$out" | grep -q "^verify:" && echo "$args" | grep -q -- "^-n 2 [^ ]*demos/adi "; then
    ok "LAUNCH=mpiexec: mpiexec -n \$SLURM_NTASKS; VERIFY= runs without --verify"
else notok "LAUNCH=mpiexec (exit $rc): mpiexec $args: $out"; fi

# 5. errors: message and exit status 2 -------------------------------------------
expect_fail() { # WHAT PATTERN VAR=VALUE...
    what=$1 pat=$2; shift 2
    out=$(fake_sbatch "$SCRIPT" SPACE=16x64x200 "$@"); rc=$?
    if [ $rc -eq 2 ] && echo "$out" | grep -q -- "$pat"; then ok "adi.sbatch rejects $what"
    else notok "adi.sbatch rejects $what (exit $rc): $out"; fi
}
expect_fail "MODEL=mpi with 4 cpus per task" "cpus-per-task=1" MODEL=mpi
expect_fail "a missing demo binary" "run make first" ADI=demos/no-such-demo
expect_fail "an unknown launcher" "LAUNCH=qsub" LAUNCH=qsub
expect_fail "a bad space (the demo's own check)" "\-\-space" SPACE=0x64x200

# 6. lu.sbatch: the time limit's signal, a checkpoint, the requeue, the end
LUS=demos/slurm/lu.sbatch
bash -n "$LUS" 2> "$T/err" && sh -n "$LUS" 2>> "$T/err" &&
    { ! command -v shellcheck > /dev/null 2>&1 || shellcheck "$LUS" > "$T/err" 2>&1; } &&
    ok "$LUS: bash -n, sh -n, shellcheck" || notok "$LUS syntax: $(cat "$T/err")"
rm -f "$T/scontrol.args" "$T"/lu.ckpt*
lu_job() {
    fake_sbatch "$LUS" LU="$DEMODIR/lu" CLASS=S ITERATIONS=600 EVERY=3steps \
        CKPT="$T/lu.ckpt" VERIFY=--verify "$@"
}
out1=$(lu_job FAKE_USR1=1); rc1=$?
req=$(cat "$T/scontrol.args" 2> /dev/null)
out2=$(lu_job SLURM_RESTART_COUNT=1); rc2=$?
if [ $rc1 -eq 0 ] && [ "$req" = "requeue 4242" ] && echo "$out1" | grep -q "stopped after step" &&
   [ $rc2 -eq 0 ] && echo "$out2" | grep -q "resuming from $T/lu.ckpt" &&
   echo "$out2" | grep -q "^ verify: ok: 0 and 0 of the" && [ ! -e "$T/lu.ckpt" ]; then
    ok "lu.sbatch: SIGUSR1 (the time limit) -> a checkpoint, exit 75, scontrol requeue 4242; the requeued job resumes and ends bitwise the plain run, its checkpoints removed"
else
    notok "lu.sbatch: first run exit $rc1, requeue '$req', second exit $rc2"
    { echo "$out1" | tail -n 5; echo "$out2" | tail -n 5; } | diag
fi

done_testing
