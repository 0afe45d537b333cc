# tools/mpi-env.sh -- sourced by tests/run.sh, bench/lib.sh and
# demos/run-demo.sh: when $MPIEXEC is Open MPI's, set what our runs need,
# unless the caller set it already.  MPICH needs nothing.
#   OMPI_ALLOW_RUN_AS_ROOT(_CONFIRM)=1            CI containers run as root
#   OMPI_MCA_rmaps_base_oversubscribe=1           4 processes on 2 cores
#   OMPI_MCA_mpi_yield_when_idle=1                waiting processes yield the
#                                                 core (oversubscribed runs)
#   OMPI_MCA_btl_vader_single_copy_mechanism=none containers forbid CMA
#                                                 (process_vm_readv)
# Also sets TILEHYBRID_OPENMPI (1 or 0) and defines strip_launcher, a filter
# that drops the reports Open MPI's launcher frames in lines of dashes when a
# process exits non-zero.
strip_launcher() { awk '/^-----------+$/ { skip = !skip; next } !skip'; }
TILEHYBRID_OPENMPI=0
if ${MPIEXEC:-mpiexec} --version 2>&1 | grep -q -e 'Open MPI' -e OpenRTE; then
    TILEHYBRID_OPENMPI=1
    export OMPI_ALLOW_RUN_AS_ROOT=${OMPI_ALLOW_RUN_AS_ROOT:-1}
    export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-1}
    export OMPI_MCA_rmaps_base_oversubscribe=${OMPI_MCA_rmaps_base_oversubscribe:-1}
    export OMPI_MCA_mpi_yield_when_idle=${OMPI_MCA_mpi_yield_when_idle:-1}
    export OMPI_MCA_btl_vader_single_copy_mechanism=${OMPI_MCA_btl_vader_single_copy_mechanism:-none}
fi
