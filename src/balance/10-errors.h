/* ------------------------------------------------------------------------
 * Error codes: their texts
 * ------------------------------------------------------------------------ */

#if TILEHYBRID__DEFINE
/* bal_strerror() -- documented at its declaration (05-api.h). */
TILEHYBRID__COLD const char *bal_strerror(int code)
{
    switch (code) {
    case BAL_OK: return "success";
    case BAL_ERR_NULL: return "a required pointer argument is NULL";
    case BAL_ERR_TCOMP: return "model tcomp (seconds per iteration) must be finite and > 0";
    case BAL_ERR_TSTARTUP: return "model tstartup (seconds per message) must be finite and >= 0";
    case BAL_ERR_BANDWIDTH: return "model bandwidth (bytes per second) must be finite and > 0";
    case BAL_ERR_ELEMBYTES: return "model elem_bytes (bytes per message element) must be finite and > 0";
    case BAL_ERR_DIMS: return "n (number of process dimensions) must be >= 1";
    case BAL_ERR_PDIMS: return "pdims[i] (processes along dimension i + 1) must be >= 1";
    case BAL_ERR_COORDS: return "coords[i] must be in [0, pdims[i]-1]";
    case BAL_ERR_THREADS: return "threads (threads per process) must be >= 1";
    case BAL_ERR_EXTENT: return "extent[i] (iteration space extent) must be >= 1";
    case BAL_ERR_EMPTY: return "pdims[i] > extent[i]: some process would own no points along that dimension";
    case BAL_ERR_TILEHEIGHT: return "tile_height (z) must be >= 1";
    case BAL_ERR_DEP: return "dep[i] (dependence length, elements) must be >= 0";
    case BAL_ERR_OVERFLOW: return "a tile volume or message size overflows int64";
    case BAL_ERR_BAL: return "balancing factor bal must be finite and in [0, 1]";
    case BAL_ERR_TOTAL: return "split total must be >= 0";
    case BAL_ERR_PARTS: return "split parts must be >= 1";
    case BAL_ERR_PART: return "split part must be in [0, parts-1]";
    case BAL_ERR_TIME: return "measured times (tcomp_master, tcomm_master) must be finite and >= 0";
    case BAL_ERR_NOINFO: return "tcomp_master is 0: Lemma 2 cannot estimate the computation rate (the master computed nothing)";
    case BAL_ERR_SAMPLESTEPS: return "adaptive sample_steps must be >= 1";
    case BAL_ERR_PERIOD: return "adaptive period must be >= 0 (0: evaluate once)";
    case BAL_ERR_SMOOTHING: return "adaptive smoothing must be in (0, 1]";
    case BAL_ERR_STATE: return "adaptive state out of range (bal, min_bal in [0,1], deadband >= 0; was it initialised?)";
    case BAL_ERR_PROCS: return "procs (number of processes) must be >= 1";
    case BAL_ERR_SAMPLES: return "fit samples: need enough finite samples (x distinct for an affine fit; seconds >= 0, iterations > 0)";
    case BAL_ERR_FIT: return "fit: slope must be finite and > 0 and intercept finite to give a model";
    case BAL_ERR_ENV_TCOMP: return "TILEHYBRID_TCOMP must be a plain decimal number > 0 (seconds per iteration)";
    case BAL_ERR_ENV_TSTARTUP: return "TILEHYBRID_TSTARTUP must be a plain decimal number >= 0 (seconds per message)";
    case BAL_ERR_ENV_BANDWIDTH: return "TILEHYBRID_BANDWIDTH must be a plain decimal number > 0 (bytes per second)";
    case BAL_ERR_ENV_ELEM_BYTES: return "TILEHYBRID_ELEM_BYTES must be a plain decimal number > 0 (bytes per element)";
    case BAL_ERR_NOPEER: return "no peer: ping-pong needs another rank (peer is MPI_PROC_NULL, this rank, out of range, or the communicator has 1 process)";
    case BAL_ERR_MSGSIZE: return "ping-pong max_bytes must be in [1, INT_MAX]";
    case BAL_ERR_REPS: return "ping-pong reps must be >= 1";
    case BAL_ERR_MISMATCH: return "the ranks disagree: different ping-pong max_bytes or reps, a failed allocation, TILEHYBRID_BANDWIDTH set on some ranks only, or a different policy, thread count or process count (bal_policy_setup_ex)";
    case BAL_ERR_NOMEM: return "out of memory";
    case BAL_ERR_MPI: return "an MPI call failed";
    case BAL_ERR_POLICY: return "balancing policy: not a bal_policy_kind, or BAL_POLICY_CUSTOM without fn";
    default: return "unknown balance.h error code";
    }
}
#endif
