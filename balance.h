/* balance.h -- master-thread load balancing for the funneled hybrid model.
 * Part of tilehybrid (MIT licence), version BAL_VERSION (=
 * TILEHYBRID_VERSION).  Header-only C99, also valid C++; needs tilehybrid.h
 * beside it.
 *
 * WHAT IT IS
 *   Under MPI_THREAD_FUNNELED only the master thread of a process may call
 *   MPI, so in the coarse-grain hybrid model (threads spawned once, each
 *   tile step = receive, compute, send) the master does all of its process's
 *   message passing on top of its share of the computation.  With an even
 *   split the other T-1 threads wait for it at the end of every step.  This
 *   header computes the balancing factor bal in [0,1]: the master computes
 *   bal/T of the process's tile, each other thread (T-bal)/(T(T-1)), so that
 *   all threads finish a step together (Drosinos & Koziris, "Efficient hybrid
 *   parallelization of tiled algorithms on SMP clusters", Lemma 1 and 2).
 *   It provides
 *     - the cost model  t_comp(x) = x * tcomp,
 *                       t_comm(x) = tstartup + x * elem_bytes / bandwidth
 *       for x iterations / an x-element message (bandwidth in BYTES per
 *       second, messages counted in ELEMENTS of elem_bytes bytes), with
 *       parameters given directly, read from the environment or calibrated
 *       (a least-squares fit of timed samples, an MPI ping-pong);
 *     - constant and variable (per-process) static factors, eq. 1;
 *     - adaptive balancing: a deterministic state machine fed with measured
 *       times that applies Lemma 2 (eq. 2) after a sampling period and then
 *       periodically, with smoothing;
 *     - the integer split of a step's work between the threads;
 *     - the policy of a run (bal_config, bal_policy): the one hook through
 *       which the funneled model of tiling.h/hybrid.h asks for the master's
 *       factor, whatever the policy (see THE POLICY OF A RUN).
 *   Everything except the MPI calibration is pure arithmetic on plain
 *   structs: no global state, no I/O, no clock, thread-safe and re-entrant.
 *
 *   Arrays are indexed from 0 (pdims[i] is P_{i+1} of the equations, which
 *   number dimensions from 1 like the paper); the index in a
 *   tilehybrid_status, and the i of "pdims[i]" in a message, is that
 *   0-based i.
 *
 * EQUATIONS (X = X_1*...*X_N, P = P_1*...*P_N, z = tile height, T threads)
 *   eq. 1  bal = 1 - (T-1) / t_comp(Xz/P)
 *                  * sum over sending dimensions i of t_comm(d_i P_i X z / (X_i P))
 *   eq. 2  bal' = 1 - bal (T-1)/T * tcomm_master / tcomp_master
 *   Xz/P is the number of points a process updates per step and
 *   d_i P_i X z / (X_i P) = d_i * z * prod_{j != i} X_j/P_j is the size (in
 *   elements) of the message it sends along dimension i.
 *
 * USAGE (a complete program; build with mpicc, or define TILEHYBRID_NO_MPI)
 *
 *   #include <stdio.h>
 *   #include "balance.h"
 *
 *   int main(void)
 *   {
 *       bal_model m = {288e-9, 107e-6, 12.5e6, 8.0};  // tcomp, tstartup, B, bytes/elem
 *       int pdims[2] = {4, 2}, coords[2] = {0, 1};
 *       int64_t extent[2] = {256, 64}, dep[2] = {1, 1}, counts[2];
 *       double con, var;
 *       int clamped, rc;
 *       rc = bal_model_from_env(&m, NULL);           // TILEHYBRID_* override, if set
 *       if (rc == BAL_OK)
 *           rc = bal_factor(&m, 2, pdims, NULL, 2, extent, 100, dep, &con, &clamped);
 *       if (rc == BAL_OK)
 *           rc = bal_factor(&m, 2, pdims, coords, 2, extent, 100, dep, &var, &clamped);
 *       if (rc == BAL_OK)
 *           rc = bal_split(64 * 32, 2, var, counts); // master, other thread
 *       if (rc != BAL_OK) {
 *           fprintf(stderr, "balance: %s\n", bal_strerror(rc));
 *           return 1;
 *       }
 *       // prints: constant 0.8922, variable 0.9635, split 987 + 1061
 *       printf("constant %.4f, variable %.4f, split %lld + %lld\n",
 *              con, var, (long long)counts[0], (long long)counts[1]);
 *       return 0;
 *   }
 *
 *   Adaptive balancing, inside the step loop of the master thread:
 *
 *       bal_adaptive st;
 *       int64_t w;
 *       bal_sampling_steps(nprocs, nthreads, &w);            // 2PT, the paper's period
 *       bal_adaptive_init(&st, bal0, nthreads, w, w, 0.5);   // re-evaluate every w steps
 *       for (step = 0; step < nsteps; step++) {
 *           ... split with st.bal, compute, communicate, timing both ...
 *           if (bal_adaptive_step(&st, t_comp, t_comm) == BAL_OK && st.changed)
 *               ... st.bal has changed: re-split from the next step on ...
 *       }
 *
 * THE POLICY OF A RUN (bal_config, bal_policy)
 *   tile_config.balance is a bal_config: the policy (BAL_POLICY_FIXED,
 *   CONSTANT, VARIABLE, ADAPTIVE or CUSTOM) and its settings.  The funneled
 *   model turns it into a bal_policy and drives it through one hook of five
 *   calls; everything policy-specific (eq. 1, Lemma 2, the cost model, the
 *   custom callback) stays behind them.  The same calls balance a pipeline
 *   of your own (comm, ntiles, tile_points, compute, comm_work and done as
 *   in your loop):
 *
 *       bal_config cfg;
 *       bal_where w;                  // this process: fixed for the run
 *       bal_policy pol;
 *       tilehybrid_status st;
 *       int64_t k, counts[2];
 *       bal_config_init(&cfg);        // BAL_POLICY_FIXED, bal = 1
 *       cfg.policy = BAL_POLICY_VARIABLE;
 *       memset(&w, 0, sizeof w);      // n, rank, procs, threads, pdims,
 *       ...                           // pcoords, extent, dep, tile_height,
 *                                     // elem_bytes
 *       rc = bal_policy_init(&pol, &cfg, &w);            // no MPI
 *       if (rc == BAL_OK)             // collective: environment, ping-pong
 *           rc = bal_policy_setup_ex(&pol, comm, &st);
 *       bal_policy_start(&pol);       // at the start of every run
 *       for (k = 0; k < ntiles; k++) {
 *           double f = bal_policy_tile(&pol, k);         // before tile k
 *           bal_split(tile_points, 2, f, counts);        // master, other
 *           ... compute and communicate, timing the master ...
 *           bal_policy_step(&pol, compute, comm_work, done); // running totals
 *       }
 *       // after the run: pol.first, pol.now, pol.clamped, pol.uncalibrated,
 *       // pol.adapt.changes
 *
 *   bal_policy_step() returns 1 when the factor changed; tiling.h then
 *   drains the pipeline before the new split applies.  Only
 *   bal_policy_setup_ex() communicates; the other calls are arithmetic.
 *
 * ERRORS (the convention of every tilehybrid header)
 *   A function that can fail returns BAL_OK (0) or a positive BAL_ERR_*
 *   code; bal_strerror() names the offending argument and the rule it broke,
 *   and never returns NULL.  bal_factor_check() also fills an optional
 *   tilehybrid_status with the dimension at fault, bal_policy_setup_ex()
 *   with the variable and the rank at fault (for BAL_ERR_MPI, the MPI call
 *   and its code).  Nothing prints, nothing aborts; the collective
 *   functions (bal_calibrate_comm_all, bal_policy_setup_ex) return the same
 *   code on every rank, except BAL_ERR_MPI: the rank where an MPI call
 *   failed returns at once, and the caller must end the job (MPI_Abort) or
 *   revoke the communicator, or the others wait for it forever.
 *
 * OPTIONS (#define before including)
 *   TILEHYBRID_NO_MPI   omit the MPI calibration (bal_calibrate_comm*) and
 *                       <mpi.h>; everything else is MPI-free anyway.
 *   TILEHYBRID_MALLOC(size), TILEHYBRID_FREE(ptr)
 *                       replace malloc/free (tilehybrid.h): the ping-pong
 *                       buffer is the only allocation.
 *   TILEHYBRID_TAG_BASE the ping-pong uses tag TILEHYBRID_TAG_PINGPONG.
 *   TILEHYBRID_SEPARATE, TILEHYBRID_IMPLEMENTATION
 *                       compile the calibrations, the environment
 *                       readers and the policy's setup once per program, in the file
 *                       that defines TILEHYBRID_IMPLEMENTATION (tilehybrid.h,
 *                       "COMPILING THE COLD CODE ONCE").
 *
 * ENVIRONMENT (read only by bal_model_from_env, in SI base units, e.g.
 * 288e-9; numbers as tilehybrid_parse_double() reads them: no spaces, '+',
 * units, hex, inf or nan)
 *   TILEHYBRID_TCOMP       seconds per iteration (one point update), > 0
 *   TILEHYBRID_TSTARTUP    seconds per message, >= 0
 *   TILEHYBRID_BANDWIDTH   bytes per second, > 0
 *   TILEHYBRID_ELEM_BYTES  bytes per message element, > 0
 *
 * API (details at each definition)
 *   const char *bal_strerror(int code);
 *   int    bal_model_check(const bal_model *m);
 *   double bal_tcomp(const bal_model *m, double iterations);
 *   double bal_tcomm(const bal_model *m, double elements);
 *   int    bal_model_from_env(bal_model *m, int *found);
 *   int    bal_fit_tcomp(const double *seconds, const double *iterations, int n,
 *                        double *tcomp, tilehybrid_fit *fit);
 *   int    bal_model_set_comm(bal_model *m, const tilehybrid_fit *fit);
 *   int    bal_factor_check(int n, const int *pdims, const int *coords, int threads,
 *                           const int64_t *extent, int64_t tile_height,
 *                           const int64_t *dep, tilehybrid_status *status);
 *   int    bal_factor(const bal_model *m, int n, const int *pdims, const int *coords,
 *                     int threads, const int64_t *extent, int64_t tile_height,
 *                     const int64_t *dep, double *bal, int *clamped);
 *   int    bal_tile_times(<bal_factor's arguments up to dep>, double bal,
 *                         double *t_master, double *t_other);
 *   int    bal_split(int64_t total, int parts, double bal, int64_t *counts);
 *   int    bal_split_part(int64_t total, int parts, double bal, int part,
 *                         int64_t *first, int64_t *count);
 *   int    bal_lemma2(double bal, int threads, double tcomp_master,
 *                     double tcomm_master, double *next);
 *   int    bal_sampling_steps(int procs, int threads, int64_t *steps);
 *   int    bal_adaptive_init(bal_adaptive *st, double bal0, int threads,
 *                            int64_t sample_steps, int64_t period, double smoothing);
 *   int    bal_adaptive_step(bal_adaptive *st, double tcomp_master, double tcomm_master);
 *   int    bal_calibrate_comm(MPI_Comm comm, int peer, int max_bytes, int reps,
 *                             tilehybrid_fit *fit);                  (MPI)
 *   int    bal_calibrate_comm_all(MPI_Comm comm, int max_bytes, int reps,
 *                                 tilehybrid_fit *fit);              (MPI, collective)
 *   The affine fit and the ping-pong are tilehybrid.h's tilehybrid_fit_affine()
 *   and tilehybrid_pingpong().
 *   The policy of a run:
 *   void   bal_config_init(bal_config *cfg);
 *   int    bal_config_check(const bal_config *cfg);
 *   int    bal_policy_init(bal_policy *pol, const bal_config *cfg,
 *                          const bal_where *where);
 *   int    bal_policy_setup_ex(bal_policy *pol, MPI_Comm comm,
 *                              tilehybrid_status *st);      (MPI, collective)
 *   void   bal_policy_start(bal_policy *pol);
 *   double bal_policy_tile(bal_policy *pol, int64_t tile);
 *   int    bal_policy_step(bal_policy *pol, double compute, double comm,
 *                          int64_t points);
 *
 * VERSION
 *   0.2.0  tilehybrid.h's error convention: positive BAL_ERR_* codes (were
 *          negative BAL_E*); bal_adaptive_step() returns BAL_OK and sets
 *          st->changed; bal_factor_check() fills a tilehybrid_status;
 *          bal_fit / bal_fit_affine / bal_parse_double are tilehybrid.h's
 *          tilehybrid_fit / tilehybrid_fit_affine / tilehybrid_parse_double;
 *          the ping-pong uses TILEHYBRID_TAG_PINGPONG (was 31011); the
 *          policy of a run, bal_config and bal_policy (was inside tiling.h:
 *          TILE_BAL_* are BAL_POLICY_*, tile_bal_fn is bal_tile_fn);
 *          bal_policy_setup_ex() reports through a tilehybrid_status, the
 *          same code on every rank (the message form bal_policy_setup()
 *          is gone: tiling.h calls bal_policy_setup_ex()).
 *   0.1.0  first version: cost model, calibration, eq. 1 and 2, adaptive
 *          state machine, split.
 */
#ifndef TILEHYBRID_BALANCE_H
#define TILEHYBRID_BALANCE_H

#include "tilehybrid.h"
#if TILEHYBRID__MODE != defined(TILEHYBRID_SEPARATE) + defined(TILEHYBRID_IMPLEMENTATION)
#error "balance.h: TILEHYBRID_SEPARATE or TILEHYBRID_IMPLEMENTATION changed after the first tilehybrid header was included: define them before it"
#endif

#include <float.h>

#define BAL_VERSION TILEHYBRID_VERSION

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------
 * Error codes
 * ------------------------------------------------------------------------ */

/** Every function returns BAL_OK (0) or one of these positive codes. */
enum bal_error {
    BAL_OK = 0,
    BAL_ERR_NULL,           /* a required pointer argument is NULL */
    BAL_ERR_TCOMP,          /* model tcomp */
    BAL_ERR_TSTARTUP,       /* model tstartup */
    BAL_ERR_BANDWIDTH,      /* model bandwidth */
    BAL_ERR_ELEMBYTES,      /* model elem_bytes */
    BAL_ERR_DIMS,           /* n */
    BAL_ERR_PDIMS,          /* pdims[i] */
    BAL_ERR_COORDS,         /* coords[i] */
    BAL_ERR_THREADS,        /* threads */
    BAL_ERR_EXTENT,         /* extent[i] */
    BAL_ERR_EMPTY,          /* pdims[i] > extent[i] */
    BAL_ERR_TILEHEIGHT,     /* tile_height */
    BAL_ERR_DEP,            /* dep[i] */
    BAL_ERR_OVERFLOW,       /* a volume or message size overflows int64 */
    BAL_ERR_BAL,            /* a balancing factor outside [0,1] */
    BAL_ERR_TOTAL,          /* split total */
    BAL_ERR_PARTS,          /* split parts */
    BAL_ERR_PART,           /* split part index */
    BAL_ERR_TIME,           /* a measured time */
    BAL_ERR_NOINFO,         /* Lemma 2 with tcomp_master == 0 */
    BAL_ERR_SAMPLESTEPS,    /* adaptive sample_steps */
    BAL_ERR_PERIOD,         /* adaptive period */
    BAL_ERR_SMOOTHING,      /* adaptive smoothing */
    BAL_ERR_STATE,          /* adaptive state fields out of range */
    BAL_ERR_PROCS,          /* procs */
    BAL_ERR_SAMPLES,        /* fit samples */
    BAL_ERR_FIT,            /* a fit that cannot give a model */
    BAL_ERR_ENV_TCOMP,      /* TILEHYBRID_TCOMP */
    BAL_ERR_ENV_TSTARTUP,   /* TILEHYBRID_TSTARTUP */
    BAL_ERR_ENV_BANDWIDTH,  /* TILEHYBRID_BANDWIDTH */
    BAL_ERR_ENV_ELEM_BYTES, /* TILEHYBRID_ELEM_BYTES */
    BAL_ERR_NOPEER,         /* ping-pong without a peer */
    BAL_ERR_MSGSIZE,        /* ping-pong max_bytes */
    BAL_ERR_REPS,           /* ping-pong reps */
    BAL_ERR_MISMATCH,       /* the two ping-pong ranks disagree */
    BAL_ERR_NOMEM,          /* out of memory */
    BAL_ERR_MPI,            /* an MPI call failed */
    BAL_ERR_POLICY          /* bal_config.policy unknown, or CUSTOM without fn */
};

#if TILEHYBRID__DEFINE
/**
 * bal_strerror() - a one-line message for an error code.
 * @code: a value returned by a bal_ function.
 *
 * Return: a static string that names the argument at fault and the rule
 * it broke; "unknown balance.h error code" for anything else.  Never NULL.
 */
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
#else
TILEHYBRID__COLD const char *bal_strerror(int code);
#endif

/* ------------------------------------------------------------------------
 * Cost model
 * ------------------------------------------------------------------------ */

/**
 * struct bal_model - the machine model of eq. 4-5 of the paper, in SI base
 * units.
 * @tcomp:      seconds per iteration (one point update), > 0;
 * @tstartup:   seconds per message, >= 0;
 * @bandwidth:  bytes per second, > 0;
 * @elem_bytes: bytes per element of a message, > 0.
 */
typedef struct bal_model {
    double tcomp;
    double tstartup;
    double bandwidth;
    double elem_bytes;
} bal_model;

/* Bits of *found in bal_model_from_env(). */
#define BAL_HAVE_TCOMP 1
#define BAL_HAVE_TSTARTUP 2
#define BAL_HAVE_BANDWIDTH 4
#define BAL_HAVE_ELEM_BYTES 8

static inline int bal__finite(double x)
{
    return x == x && x - x == 0.0;
}

static inline double bal__abs(double x)
{
    return x < 0 ? -x : x;
}

/**
 * bal_model_check() - validate a model.
 * @m: the model.
 *
 * Return: BAL_OK, BAL_ERR_NULL, or the code of the first bad field in
 * declaration order (BAL_ERR_TCOMP, BAL_ERR_TSTARTUP, BAL_ERR_BANDWIDTH,
 * BAL_ERR_ELEMBYTES).
 */
static inline int bal_model_check(const bal_model *m)
{
    if (m == NULL)
        return BAL_ERR_NULL;
    if (!bal__finite(m->tcomp) || m->tcomp <= 0)
        return BAL_ERR_TCOMP;
    if (!bal__finite(m->tstartup) || m->tstartup < 0)
        return BAL_ERR_TSTARTUP;
    if (!bal__finite(m->bandwidth) || m->bandwidth <= 0)
        return BAL_ERR_BANDWIDTH;
    if (!bal__finite(m->elem_bytes) || m->elem_bytes <= 0)
        return BAL_ERR_ELEMBYTES;
    return BAL_OK;
}

/**
 * bal_tcomp() - t_comp(x) = x * tcomp: seconds for @iterations point updates.
 * @m:          a valid model (not checked: use bal_model_check() once);
 * @iterations: the number of point updates.
 *
 * Return: the seconds.
 */
static inline double bal_tcomp(const bal_model *m, double iterations)
{
    return iterations * m->tcomp;
}

/**
 * bal_tcomm() - t_comm(x) = tstartup + x * elem_bytes / bandwidth: seconds
 * to send one message.
 * @m:        a valid model (not checked);
 * @elements: the message size in ELEMENTS (not bytes).
 *
 * Return: the seconds.
 */
static inline double bal_tcomm(const bal_model *m, double elements)
{
    return m->tstartup + elements * m->elem_bytes / m->bandwidth;
}

#if TILEHYBRID__DEFINE
/* One variable: unset leaves the field; set must be a number (> 0 when
 * positive, else >= 0) by tilehybrid_parse_double()'s rule. */
TILEHYBRID__COLD int bal__env(const char *name, int positive, double *field, int bit, int *found,
                              int err)
{
    double v = 0;
    const char *s = getenv(name);
    if (s == NULL)
        return BAL_OK;
    if (tilehybrid_parse_double(s, 0.0, DBL_MAX, &v) != TILEHYBRID_OK || (positive && !(v > 0)))
        return err;
    *field = v;
    if (found != NULL)
        *found |= bit;
    return BAL_OK;
}

/**
 * bal_model_from_env() - override model fields from the environment.
 * @m:     the model; the field of every variable that is SET is replaced,
 *         the others are left untouched (so fill in defaults first).
 * @found: may be NULL; receives the BAL_HAVE_* bits of the variables that
 *         were set (0 if none).
 *
 * Variables: TILEHYBRID_TCOMP (> 0), TILEHYBRID_TSTARTUP (>= 0),
 * TILEHYBRID_BANDWIDTH (> 0), TILEHYBRID_ELEM_BYTES (> 0), each read by
 * tilehybrid_parse_double() (the one rule of every program: no spaces, '+',
 * hex, inf or nan; a subnormal such as 1e-310 is a number, 1e-400 and
 * 1e999 are out of range).  On error the model may have been partly
 * updated.  Uses getenv(): do not call while another thread modifies the
 * environment.
 *
 * Return: BAL_OK, BAL_ERR_NULL, or BAL_ERR_ENV_<NAME> for the first
 * variable (in the order above) that is set but not a valid number.
 */
TILEHYBRID__COLD int bal_model_from_env(bal_model *m, int *found)
{
    int rc;
    if (found != NULL)
        *found = 0;
    if (m == NULL)
        return BAL_ERR_NULL;
    rc = bal__env("TILEHYBRID_TCOMP", 1, &m->tcomp, BAL_HAVE_TCOMP, found, BAL_ERR_ENV_TCOMP);
    if (rc == BAL_OK)
        rc = bal__env("TILEHYBRID_TSTARTUP", 0, &m->tstartup, BAL_HAVE_TSTARTUP, found,
                      BAL_ERR_ENV_TSTARTUP);
    if (rc == BAL_OK)
        rc = bal__env("TILEHYBRID_BANDWIDTH", 1, &m->bandwidth, BAL_HAVE_BANDWIDTH, found,
                      BAL_ERR_ENV_BANDWIDTH);
    if (rc == BAL_OK)
        rc = bal__env("TILEHYBRID_ELEM_BYTES", 1, &m->elem_bytes, BAL_HAVE_ELEM_BYTES, found,
                      BAL_ERR_ENV_ELEM_BYTES);
    return rc;
}

/* ------------------------------------------------------------------------
 * Calibration fits (tilehybrid.h's tilehybrid_fit_affine and _fit_origin)
 * ------------------------------------------------------------------------ */

/**
 * bal_fit_tcomp() - t_comp(1) from timings of the user's own stencil body.
 * @seconds:    n measured times, finite and >= 0;
 * @iterations: the number of point updates each time covers, finite and > 0
 *              (doubles so that large counts pass without casts);
 * @n:          >= 1;
 * @tcomp:      receives the least-squares slope through the origin,
 *              sum(s_k i_k) / sum(i_k^2), i.e. the model t_comp(x) = x tcomp;
 * @fit:        may be NULL; receives intercept 0, slope = *tcomp, and the
 *              quality of that line (tilehybrid_fit_quality(): r2 can be < 0
 *              for a fit through the origin when the times have a large
 *              fixed offset).
 *
 * Return: BAL_OK, BAL_ERR_NULL, BAL_ERR_SAMPLES (bad n or sample) or
 * BAL_ERR_FIT (the slope is 0: all times were 0, below the clock's
 * resolution; time more iterations).
 */
TILEHYBRID__COLD int bal_fit_tcomp(const double *seconds, const double *iterations, int n,
                                   double *tcomp, tilehybrid_fit *fit)
{
    tilehybrid_fit f;
    int i;
    if (seconds == NULL || iterations == NULL || tcomp == NULL)
        return BAL_ERR_NULL;
    if (n < 1)
        return BAL_ERR_SAMPLES;
    for (i = 0; i < n; i++)
        if (!bal__finite(seconds[i]) || seconds[i] < 0 || !bal__finite(iterations[i]) ||
            iterations[i] <= 0)
            return BAL_ERR_SAMPLES;
    /* the samples are fine: only a slope that is not finite and > 0 fails */
    if (tilehybrid_fit_origin(iterations, seconds, n, &f) != TILEHYBRID_OK || !(f.slope > 0))
        return BAL_ERR_FIT;
    *tcomp = f.slope;
    if (fit != NULL)
        *fit = f;
    return BAL_OK;
}

/**
 * bal_model_set_comm() - set tstartup and bandwidth from a ping-pong fit of
 * one-way seconds against message BYTES.
 * @m:   the model; tstartup = max(0, intercept) (a slightly negative
 *       intercept is noise), bandwidth = 1/slope bytes per second.  tcomp
 *       and elem_bytes are not touched.
 * @fit: the fit (bal_calibrate_comm*, or tilehybrid_fit_affine() of your
 *       own timings).
 *
 * Return: BAL_OK, BAL_ERR_NULL, or BAL_ERR_FIT (slope not finite and > 0,
 * intercept not finite); the model is unchanged on error.
 */
TILEHYBRID__COLD int bal_model_set_comm(bal_model *m, const tilehybrid_fit *fit)
{
    if (m == NULL || fit == NULL)
        return BAL_ERR_NULL;
    if (!bal__finite(fit->slope) || !(fit->slope > 0) || !bal__finite(fit->intercept) ||
        !bal__finite(1.0 / fit->slope))
        return BAL_ERR_FIT;
    m->tstartup = fit->intercept > 0 ? fit->intercept : 0.0;
    m->bandwidth = 1.0 / fit->slope;
    return BAL_OK;
}
#else
TILEHYBRID__COLD int bal__env(const char *name, int positive, double *field, int bit, int *found,
                              int err);
TILEHYBRID__COLD int bal_model_from_env(bal_model *m, int *found);
TILEHYBRID__COLD int bal_fit_tcomp(const double *seconds, const double *iterations, int n,
                                   double *tcomp, tilehybrid_fit *fit);
TILEHYBRID__COLD int bal_model_set_comm(bal_model *m, const tilehybrid_fit *fit);
#endif

/* ------------------------------------------------------------------------
 * Static balancing: eq. 1
 * ------------------------------------------------------------------------ */

/* Block distribution: process c of p along an extent x owns x/p points, the
 * first x%p processes one more. */
static inline int64_t bal__local(int64_t x, int p, int c)
{
    return x / p + (c < x % p ? 1 : 0);
}

/* The first i < n with v[i] < min, or -1 (a per-dimension check). */
static inline int bal__first_below(const int64_t *v, int n, int64_t min)
{
    int i;
    for (i = 0; i < n; i++)
        if (v[i] < min)
            return i;
    return -1;
}

/**
 * bal_factor_check() - validate the arguments of bal_factor() (all but the
 * model and the outputs).
 * @n, @pdims, @coords, @threads, @extent, @tile_height, @dep: as for
 *          bal_factor() (@coords may be NULL).
 * @status: may be NULL; receives the code, the argument at fault ("pdims",
 *          "coords", "threads", "extent", "tile_height", "dep", "n") and,
 *          for the per-dimension codes (BAL_ERR_PDIMS, BAL_ERR_COORDS,
 *          BAL_ERR_EXTENT, BAL_ERR_EMPTY, BAL_ERR_DEP), the dimension, else
 *          index -1.
 *
 * Checks in this order: NULL pdims/extent/dep (BAL_ERR_NULL), n >= 1, every
 * pdims[i] >= 1, every coords[i] in [0, pdims[i]) (when coords != NULL),
 * threads >= 1, every extent[i] >= 1, pdims[i] <= extent[i] (no process
 * without points), tile_height >= 1, every dep[i] >= 0.
 *
 * Return: BAL_OK or the first error found.
 */
static inline int bal_factor_check(int n, const int *pdims, const int *coords, int threads,
                                   const int64_t *extent, int64_t tile_height,
                                   const int64_t *dep, tilehybrid_status *status)
{
    int i;
    if (pdims == NULL || extent == NULL || dep == NULL)
        return tilehybrid_status_set(status, BAL_ERR_NULL,
                                     pdims == NULL ? "pdims" : extent == NULL ? "extent" : "dep", -1);
    if (n < 1)
        return tilehybrid_status_set(status, BAL_ERR_DIMS, "n", -1);
    for (i = 0; i < n; i++)
        if (pdims[i] < 1)
            return tilehybrid_status_set(status, BAL_ERR_PDIMS, "pdims", i);
    for (i = 0; coords != NULL && i < n; i++)
        if (coords[i] < 0 || coords[i] >= pdims[i])
            return tilehybrid_status_set(status, BAL_ERR_COORDS, "coords", i);
    if (threads < 1)
        return tilehybrid_status_set(status, BAL_ERR_THREADS, "threads", -1);
    if ((i = bal__first_below(extent, n, 1)) >= 0)
        return tilehybrid_status_set(status, BAL_ERR_EXTENT, "extent", i);
    for (i = 0; i < n; i++)
        if (pdims[i] > extent[i])
            return tilehybrid_status_set(status, BAL_ERR_EMPTY, "pdims", i);
    if (tile_height < 1)
        return tilehybrid_status_set(status, BAL_ERR_TILEHEIGHT, "tile_height", -1);
    if ((i = bal__first_below(dep, n, 0)) >= 0)
        return tilehybrid_status_set(status, BAL_ERR_DEP, "dep", i);
    return tilehybrid_status_set(status, BAL_OK, "", -1);
}

/* Constant mode of bal__step_cost: V = Xz/P, message_i = d_i P_i (Xz/X_i)/P,
 * real-valued (the paper's average process, every dimension counted). */
static inline int bal__step_constant(const bal_model *m, int n, const int *pdims,
                                     const int64_t *extent, int64_t z, const int64_t *dep,
                                     double *iters, double *comm)
{
    int64_t xz = z, p = 1;
    double c = 0;
    int i;
    for (i = 0; i < n; i++)
        if (!tilehybrid_mul_ok(xz, extent[i], &xz) || !tilehybrid_mul_ok(p, pdims[i], &p))
            return BAL_ERR_OVERFLOW;
    *iters = (double)xz / (double)p;
    for (i = 0; i < n; i++)
        if (dep[i] != 0) /* xz / extent[i] is exact: z * prod_{j != i} X_j */
            c += bal_tcomm(m, (double)dep[i] * (double)pdims[i] * (double)(xz / extent[i]) /
                                  (double)p);
    *comm = c;
    return BAL_OK;
}

/* Variable mode: the process's own block, V = z * prod local_j, and
 * message_i = d_i * z * prod_{j != i} local_j along every dimension i where
 * it has a successor (P_i > 1, coords[i] < P_i - 1) and d_i > 0. */
static inline int bal__step_variable(const bal_model *m, int n, const int *pdims,
                                     const int *coords, const int64_t *extent, int64_t z,
                                     const int64_t *dep, double *iters, double *comm)
{
    int64_t v = z, msg;
    double c = 0;
    int i, j;
    for (i = 0; i < n; i++)
        if (!tilehybrid_mul_ok(v, bal__local(extent[i], pdims[i], coords[i]), &v))
            return BAL_ERR_OVERFLOW;
    *iters = (double)v;
    for (i = 0; i < n; i++) {
        if (pdims[i] == 1 || coords[i] >= pdims[i] - 1 || dep[i] == 0)
            continue;
        if (!tilehybrid_mul_ok(dep[i], z, &msg))
            return BAL_ERR_OVERFLOW;
        for (j = 0; j < n; j++)
            if (j != i && !tilehybrid_mul_ok(msg, bal__local(extent[j], pdims[j], coords[j]), &msg))
                return BAL_ERR_OVERFLOW;
        c += bal_tcomm(m, (double)msg);
    }
    *comm = c;
    return BAL_OK;
}

/* Points per step (*iters) and master communication seconds per step
 * (*comm) of the process at coords (NULL: the paper's average process that
 * sends along every dimension).  Arguments already validated. */
static inline int bal__step_cost(const bal_model *m, int n, const int *pdims, const int *coords,
                                 const int64_t *extent, int64_t z, const int64_t *dep,
                                 double *iters, double *comm)
{
    if (coords == NULL)
        return bal__step_constant(m, n, pdims, extent, z, dep, iters, comm);
    return bal__step_variable(m, n, pdims, coords, extent, z, dep, iters, comm);
}

/**
 * bal_factor() - the balancing factor of eq. 1 (Lemma 1).
 * @m:           the cost model (bal_model_check() rules);
 * @n:           number of process dimensions N (the tiled space has N+1,
 *               the last one, Z, is swept sequentially in tiles of height z);
 * @pdims:       P_1..P_N, processes per dimension;
 * @coords:      NULL for the CONSTANT factor: the paper's non-boundary
 *               process that sends along every dimension, with the
 *               real-valued sizes Xz/P and d_i P_i X z/(X_i P); or the
 *               coordinates of one process for its VARIABLE factor: its own
 *               block of the block distribution (X_i/P_i points, the first
 *               X_i%P_i processes one more) and only the dimensions where it
 *               actually sends (P_i > 1 and coords[i] < P_i - 1);
 * @threads:     T, threads per process; T == 1 gives 1 (nobody to hand work to);
 * @extent:      X_1..X_N, extents of the iteration space (points);
 * @tile_height: z >= 1;
 * @dep:         d_1..d_N >= 0, dependence lengths in elements: a message
 *               along i is d_i layers deep.  d_i == 0 means no dependence
 *               along i: no message, no startup cost, in both modes;
 * @bal:         receives the factor, clamped to [0, 1];
 * @clamped:     may be NULL; receives 1 when eq. 1 gave a value below 0 (the
 *               communication alone exceeds what the master can give up:
 *               it computes nothing and still finishes last) or above 1, else 0.
 *
 * The master then computes bal/T of the process's points per step, each
 * other thread (T-bal)/(T(T-1)); see bal_split().  bal_factor_check() gives
 * the dimension of an argument error.
 *
 * Return: BAL_OK, BAL_ERR_NULL, a model error, a bal_factor_check() error
 * or BAL_ERR_OVERFLOW (the block volume or a message size exceeds int64).
 */
static inline int bal_factor(const bal_model *m, int n, const int *pdims, const int *coords,
                             int threads, const int64_t *extent, int64_t tile_height,
                             const int64_t *dep, double *bal, int *clamped)
{
    double iters = 0, comm = 0, b;
    int rc;
    if (clamped != NULL)
        *clamped = 0;
    if ((rc = bal_model_check(m)) != BAL_OK)
        return rc;
    if ((rc = bal_factor_check(n, pdims, coords, threads, extent, tile_height, dep, NULL)) !=
        BAL_OK)
        return rc;
    if (bal == NULL)
        return BAL_ERR_NULL;
    if ((rc = bal__step_cost(m, n, pdims, coords, extent, tile_height, dep, &iters, &comm)) !=
        BAL_OK)
        return rc;
    if (threads == 1) {
        *bal = 1.0;
        return BAL_OK;
    }
    b = 1.0 - (double)(threads - 1) * comm / bal_tcomp(m, iters);
    if (!(b >= 0.0) || b > 1.0) { /* !(b >= 0) also catches -inf */
        b = b > 1.0 ? 1.0 : 0.0;
        if (clamped != NULL)
            *clamped = 1;
    }
    *bal = b;
    return BAL_OK;
}

#if TILEHYBRID__DEFINE
/**
 * bal_tile_times() - the model's time per step (tile) of each thread under
 * a given factor, eq. 7-8 of the paper: what bal_factor() equalises.
 * @m, @n, @pdims, @coords, @threads, @extent, @tile_height, @dep: as for
 *            bal_factor() (coords NULL = constant mode);
 * @bal:      the factor in [0,1] to evaluate;
 * @t_master: receives t_comp(bal/T * V) + the master's t_comm;
 * @t_other:  receives t_comp((T-bal)/(T(T-1)) * V) of each other thread
 *            (0 when T == 1), V = points per step of the process.
 *
 * Return: BAL_OK or an error as bal_factor(), BAL_ERR_BAL for a bad bal.
 */
TILEHYBRID__COLD int bal_tile_times(const bal_model *m, int n, const int *pdims, const int *coords,
                                    int threads, const int64_t *extent, int64_t tile_height,
                                    const int64_t *dep, double bal, double *t_master,
                                    double *t_other)
{
    double iters = 0, comm = 0;
    int rc;
    if ((rc = bal_model_check(m)) != BAL_OK)
        return rc;
    if ((rc = bal_factor_check(n, pdims, coords, threads, extent, tile_height, dep, NULL)) !=
        BAL_OK)
        return rc;
    if (!bal__finite(bal) || bal < 0 || bal > 1)
        return BAL_ERR_BAL;
    if (t_master == NULL || t_other == NULL)
        return BAL_ERR_NULL;
    if ((rc = bal__step_cost(m, n, pdims, coords, extent, tile_height, dep, &iters, &comm)) !=
        BAL_OK)
        return rc;
    *t_master = bal_tcomp(m, bal / threads * iters) + comm;
    *t_other = threads == 1 ? 0.0
                            : bal_tcomp(m, (threads - bal) / ((double)threads * (threads - 1)) *
                                               iters);
    return BAL_OK;
}
#else
TILEHYBRID__COLD int bal_tile_times(const bal_model *m, int n, const int *pdims, const int *coords,
                                    int threads, const int64_t *extent, int64_t tile_height,
                                    const int64_t *dep, double bal, double *t_master,
                                    double *t_other);
#endif

/* ------------------------------------------------------------------------
 * The split of a step's work
 * ------------------------------------------------------------------------ */

/* The master's count; arguments validated. */
static inline int64_t bal__master_count(int64_t total, int parts, double bal)
{
    double ideal;
    int64_t c, lo, hi;
    if (parts == 1)
        return total;
    ideal = bal * (double)total / (double)parts;
    c = (int64_t)(ideal + 0.5); /* round half up; ideal >= 0 */
    lo = (bal > 0 && total >= parts) ? 1 : 0;
    hi = total >= parts ? total - (parts - 1) : total;
    if (c < lo)
        c = lo;
    if (c > hi)
        c = hi;
    return c;
}

static inline int bal__split_check(int64_t total, int parts, double bal)
{
    if (total < 0)
        return BAL_ERR_TOTAL;
    if (parts < 1)
        return BAL_ERR_PARTS;
    if (!bal__finite(bal) || bal < 0 || bal > 1)
        return BAL_ERR_BAL;
    return BAL_OK;
}

#if TILEHYBRID__DEFINE
/**
 * bal_split() - split a step's work between the threads.
 * @total:  units (points, rows, ...) of one step, >= 0;
 * @parts:  >= 1 contiguous ranges: part 0 for the master thread, parts
 *          1..parts-1 for the others, in this order;
 * @bal:    the factor in [0,1] (bal_factor() or the adaptive state's bal);
 * @counts: receives parts counts; counts[i] units go to part i, and part i
 *          starts at counts[0] + ... + counts[i-1].
 *
 * Rounding, exactly:
 *   - parts == 1: counts[0] = total (whatever bal is);
 *   - master: ideal = bal * total / parts, rounded half up to an integer,
 *     then raised to 1 if it came out 0 while bal > 0 and total >= parts,
 *     and lowered so that every other part can get >= 1 when total >= parts
 *     (never needed for bal <= 1, kept as a guard). So |counts[0] - ideal| < 1
 *     and counts[0] == 0 only if bal == 0 or ideal < 1/2 with total < parts;
 *   - the others: rest = total - counts[0] evenly, rest/(parts-1) each, the
 *     first rest%(parts-1) of them one more, so they differ by at most 1 and
 *     none gets 0 when total >= parts.
 *   The counts sum to total exactly.  bal = 1 is an (almost) even split.
 *
 * Return: BAL_OK, BAL_ERR_TOTAL (< 0), BAL_ERR_PARTS (< 1), BAL_ERR_BAL or
 * BAL_ERR_NULL.
 */
TILEHYBRID__COLD int bal_split(int64_t total, int parts, double bal, int64_t *counts)
{
    int64_t master, rest, each, extra;
    int i, rc;
    if ((rc = bal__split_check(total, parts, bal)) != BAL_OK)
        return rc;
    if (counts == NULL)
        return BAL_ERR_NULL;
    master = bal__master_count(total, parts, bal);
    counts[0] = master;
    if (parts == 1)
        return BAL_OK;
    rest = total - master;
    each = rest / (parts - 1);
    extra = rest % (parts - 1);
    for (i = 1; i < parts; i++)
        counts[i] = each + (i - 1 < extra ? 1 : 0);
    return BAL_OK;
}
#else
TILEHYBRID__COLD int bal_split(int64_t total, int parts, double bal, int64_t *counts);
#endif

/**
 * bal_split_part() - one part of bal_split() without an array: for a thread
 * that computes its own range inside a parallel region.
 * @total, @parts, @bal: as for bal_split();
 * @part:  0 (master) .. parts-1;
 * @first: receives the first unit of the part (0-based);
 * @count: receives its number of units; identical to bal_split()'s
 *         counts[part].
 *
 * Return: BAL_OK or the errors of bal_split(), BAL_ERR_PART for a bad part.
 */
static inline int bal_split_part(int64_t total, int parts, double bal, int part, int64_t *first,
                                 int64_t *count)
{
    int64_t master, rest, each, extra, j;
    int rc;
    if ((rc = bal__split_check(total, parts, bal)) != BAL_OK)
        return rc;
    if (part < 0 || part >= parts)
        return BAL_ERR_PART;
    if (first == NULL || count == NULL)
        return BAL_ERR_NULL;
    master = bal__master_count(total, parts, bal);
    if (part == 0) {
        *first = 0;
        *count = master;
        return BAL_OK;
    }
    rest = total - master;
    each = rest / (parts - 1);
    extra = rest % (parts - 1);
    j = part - 1;
    *first = master + j * each + (j < extra ? j : extra);
    *count = each + (j < extra ? 1 : 0);
    return BAL_OK;
}

/* ------------------------------------------------------------------------
 * Dynamic balancing: eq. 2 (Lemma 2) and the adaptive state machine
 * ------------------------------------------------------------------------ */

/**
 * bal_lemma2() - the corrected factor from measured master times, eq. 2:
 *     bal' = 1 - bal (T-1)/T * tcomm_master / tcomp_master, clamped to [0,1].
 * @bal:          the factor in force while measuring, in [0,1];
 * @threads:      T >= 1 (T == 1 gives 1);
 * @tcomp_master: the master's computation time (an average per step, or a
 *                sum over steps: only the ratio matters), finite, >= 0;
 * @tcomm_master: its non-overlapped communication time over the same steps
 *                (packing, MPI calls, waiting, unpacking), finite, >= 0;
 * @next:         receives bal'.
 *
 * Under the model (computation proportional to the share, communication
 * independent of the split) bal' is the optimum of eq. 1 whatever bal was.
 *
 * Return: BAL_OK, BAL_ERR_BAL, BAL_ERR_THREADS, BAL_ERR_TIME, BAL_ERR_NULL,
 * or BAL_ERR_NOINFO when tcomp_master == 0 (the master computed nothing, so
 * its rate is unknown); then *next = bal.
 */
static inline int bal_lemma2(double bal, int threads, double tcomp_master, double tcomm_master,
                             double *next)
{
    double b;
    if (!bal__finite(bal) || bal < 0 || bal > 1)
        return BAL_ERR_BAL;
    if (threads < 1)
        return BAL_ERR_THREADS;
    if (!bal__finite(tcomp_master) || tcomp_master < 0 || !bal__finite(tcomm_master) ||
        tcomm_master < 0)
        return BAL_ERR_TIME;
    if (next == NULL)
        return BAL_ERR_NULL;
    if (threads == 1) {
        *next = 1.0;
        return BAL_OK;
    }
    if (tcomp_master == 0) {
        *next = bal;
        return BAL_ERR_NOINFO;
    }
    b = 1.0 - bal * (threads - 1) / threads * tcomm_master / tcomp_master;
    *next = b < 0 ? 0.0 : (b > 1 ? 1.0 : b);
    return BAL_OK;
}

#if TILEHYBRID__DEFINE
/**
 * bal_sampling_steps() - the paper's sampling period, 2PT steps: long
 * enough for the pipeline's wavefront to reach the farthest process (it
 * needs more than PT steps) and then measure a full pipeline.
 * @procs:   P >= 1;
 * @threads: T >= 1;
 * @steps:   receives 2PT.
 *
 * Return: BAL_OK, BAL_ERR_PROCS, BAL_ERR_THREADS or BAL_ERR_NULL.
 */
TILEHYBRID__COLD int bal_sampling_steps(int procs, int threads, int64_t *steps)
{
    if (procs < 1)
        return BAL_ERR_PROCS;
    if (threads < 1)
        return BAL_ERR_THREADS;
    if (steps == NULL)
        return BAL_ERR_NULL;
    *steps = 2 * (int64_t)procs * (int64_t)threads;
    return BAL_OK;
}
#else
TILEHYBRID__COLD int bal_sampling_steps(int procs, int threads, int64_t *steps);
#endif

#define BAL_ADAPTIVE_MIN_BAL 0.01   /* default floor of the adaptive factor */
#define BAL_ADAPTIVE_DEADBAND 0.001 /* default smallest change applied */

/**
 * struct bal_adaptive - the adaptive balancing state machine.
 * @bal:          the factor to apply now, in [min_bal, 1] after the first
 *                evaluation;
 * @smoothing:    (rw) in (0,1]; 1 = the paper's jump to eq. 2;
 * @min_bal:      (rw) floor in [0,1], default BAL_ADAPTIVE_MIN_BAL;
 * @deadband:     (rw) >= 0, default BAL_ADAPTIVE_DEADBAND;
 * @threads:      T;
 * @sample_steps: the first window, e.g. bal_sampling_steps();
 * @period:       steps between evaluations after the first, 0 = once;
 * @step:         steps fed so far;
 * @next_eval:    the step at whose end the next evaluation happens;
 * @window:       length of the current window;
 * @evaluations:  evaluations done;
 * @changes:      evaluations that changed bal;
 * @changed:      1 if the last bal_adaptive_step() changed bal (apply it
 *                from the next step on), else 0;
 * @sum_comp:     master computation time in the current window;
 * @sum_comm:     master communication time in the current window;
 * @last_target:  Lemma 2's value at the last evaluation, -1 if none or no
 *                information;
 * @done:         1 when period == 0 and the only evaluation happened.
 *
 * A plain struct: initialise with bal_adaptive_init(), then feed one
 * bal_adaptive_step() per step; read st.bal.  No clock inside: the caller
 * measures.  Fields marked (rw) may be changed between steps; the others
 * are read-only.  POLICY, exactly:
 *
 *   Steps are numbered 1, 2, ... in the order they are fed.  Evaluations
 *   happen at the end of steps E_1 = sample_steps and, when period > 0,
 *   E_{k+1} = E_k + period (when period == 0 only E_1: the paper's scheme).
 *   Evaluation k uses the times of the last W_k steps before it, all run
 *   under the factor in force: W_1 = sample_steps, W_k = min(sample_steps,
 *   period) for k > 1 (steps just after a change, while the pipeline
 *   settles, are skipped when period > sample_steps).
 *   At an evaluation, with C and M the sums of tcomm_master and
 *   tcomp_master over the window:
 *     - M == 0 (the master computed nothing, Lemma 2 has no information):
 *       target = max(bal, min_bal), i.e. a factor below the floor (e.g. a
 *       start at 0) is raised so that the next window measures something;
 *     - else target = max(min_bal, lemma2(bal, T, M, C));
 *     - new = bal + smoothing * (target - bal), clamped to [min_bal, 1]
 *       (exponential smoothing: 1 jumps straight to Lemma 2 as the paper,
 *       0.5 halves the distance each time, damping noise and oscillation);
 *     - if |new - bal| <= deadband and bal >= min_bal, nothing changes
 *       (changed = 0); otherwise bal = new and changed = 1.
 *   Under the model of Lemma 2 (computation proportional to the share,
 *   communication time independent of the split) the target is the optimum
 *   b* whatever bal was, so bal converges geometrically, the distance
 *   shrinking by (1 - smoothing) per evaluation, and settles within
 *   deadband/smoothing of b* (or at b* exactly with deadband 0); if costs
 *   drift, bal follows b* with a lag of about 1/smoothing evaluations.
 *   When communication does depend on the split (e.g. overlap, or waits
 *   that shrink as the master speeds up), Lemma 2 overshoots and smoothing
 *   < 1 keeps the iteration stable.
 *   The floor min_bal (> 0 by default) keeps the master computing a little,
 *   so its rate stays measurable and the factor can rise again after a
 *   phase of heavy communication; with bal_split() the master gets >= 1
 *   point whenever bal > 0 and the step has >= parts points.
 */
typedef struct bal_adaptive {
    double bal;
    double smoothing;
    double min_bal;
    double deadband;
    int threads;
    int64_t sample_steps;
    int64_t period;
    int64_t step;
    int64_t next_eval;
    int64_t window;
    int64_t evaluations;
    int64_t changes;
    int changed;
    double sum_comp;
    double sum_comm;
    double last_target;
    int done;
} bal_adaptive;

#if TILEHYBRID__DEFINE
/**
 * bal_adaptive_init() - start the state machine.
 * @st:           the state (overwritten);
 * @bal0:         the starting factor in [0,1]: a static factor (bal_factor()),
 *                or 1 (no balancing) when nothing is known;
 * @threads:      T >= 1;
 * @sample_steps: >= 1, the first sampling window (bal_sampling_steps(): 2PT);
 * @period:       >= 0, steps between later re-evaluations; 0 = evaluate only
 *                once, after the sampling period (the paper);
 * @smoothing:    in (0,1], see the policy at struct bal_adaptive.
 *
 * min_bal and deadband get their defaults; change them after init if needed.
 *
 * Return: BAL_OK or BAL_ERR_NULL, BAL_ERR_BAL, BAL_ERR_THREADS,
 * BAL_ERR_SAMPLESTEPS, BAL_ERR_PERIOD, BAL_ERR_SMOOTHING (st untouched on
 * error).
 */
TILEHYBRID__COLD int bal_adaptive_init(bal_adaptive *st, double bal0, int threads,
                                       int64_t sample_steps, int64_t period, double smoothing)
{
    if (st == NULL)
        return BAL_ERR_NULL;
    if (!bal__finite(bal0) || bal0 < 0 || bal0 > 1)
        return BAL_ERR_BAL;
    if (threads < 1)
        return BAL_ERR_THREADS;
    if (sample_steps < 1)
        return BAL_ERR_SAMPLESTEPS;
    if (period < 0)
        return BAL_ERR_PERIOD;
    if (!bal__finite(smoothing) || !(smoothing > 0) || smoothing > 1)
        return BAL_ERR_SMOOTHING;
    memset(st, 0, sizeof *st);
    st->bal = bal0;
    st->smoothing = smoothing;
    st->min_bal = BAL_ADAPTIVE_MIN_BAL;
    st->deadband = BAL_ADAPTIVE_DEADBAND;
    st->threads = threads;
    st->sample_steps = sample_steps;
    st->period = period;
    st->next_eval = sample_steps;
    st->window = sample_steps;
    st->last_target = -1.0;
    return BAL_OK;
}
#else
TILEHYBRID__COLD int bal_adaptive_init(bal_adaptive *st, double bal0, int threads,
                                       int64_t sample_steps, int64_t period, double smoothing);
#endif

/* 1 if the (rw) fields and the counters are in range. */
static inline int bal__adaptive_sane(const bal_adaptive *st)
{
    return bal__finite(st->bal) && st->bal >= 0 && st->bal <= 1 && bal__finite(st->min_bal) &&
           st->min_bal >= 0 && st->min_bal <= 1 && bal__finite(st->deadband) &&
           st->deadband >= 0 && bal__finite(st->smoothing) && st->smoothing > 0 &&
           st->smoothing <= 1 && st->threads >= 1 && st->window >= 1;
}

/* An evaluation (the policy at struct bal_adaptive): the new factor, and
 * the next window. */
static inline void bal__adaptive_eval(bal_adaptive *st)
{
    double target = 0, nb;
    if (st->sum_comp == 0) {
        target = st->bal < st->min_bal ? st->min_bal : st->bal;
        st->last_target = -1.0;
    } else {
        (void)bal_lemma2(st->bal, st->threads, st->sum_comp, st->sum_comm, &target);
        st->last_target = target;
        if (target < st->min_bal)
            target = st->min_bal;
    }
    nb = st->bal + st->smoothing * (target - st->bal);
    nb = nb < st->min_bal ? st->min_bal : nb > 1 ? 1 : nb;
    st->evaluations++;
    st->sum_comp = 0;
    st->sum_comm = 0;
    if (st->period == 0) {
        st->done = 1;
    } else {
        st->next_eval += st->period;
        st->window = st->sample_steps < st->period ? st->sample_steps : st->period;
    }
    if (nb == st->bal || (bal__abs(nb - st->bal) <= st->deadband && st->bal >= st->min_bal))
        return;
    st->bal = nb;
    st->changes++;
    st->changed = 1;
}

/**
 * bal_adaptive_step() - feed the master thread's times of one step.
 * @st:           the state (bal_adaptive_init());
 * @tcomp_master: its computation time in this step, finite, >= 0;
 * @tcomm_master: its non-overlapped communication time, finite, >= 0.
 *
 * Sets st->changed to 1 when st->bal has just changed (apply it from the
 * next step on), else to 0.
 *
 * Return: BAL_OK, BAL_ERR_NULL, BAL_ERR_TIME (bad time: the step is not
 * counted and the state is unchanged) or BAL_ERR_STATE (bal, min_bal,
 * smoothing, deadband out of range; the state is unchanged).
 */
static inline int bal_adaptive_step(bal_adaptive *st, double tcomp_master, double tcomm_master)
{
    if (st == NULL)
        return BAL_ERR_NULL;
    if (!bal__finite(tcomp_master) || tcomp_master < 0 || !bal__finite(tcomm_master) ||
        tcomm_master < 0)
        return BAL_ERR_TIME;
    if (!bal__adaptive_sane(st))
        return BAL_ERR_STATE;
    st->step++;
    st->changed = 0;
    if (st->done)
        return BAL_OK;
    if (st->step > st->next_eval - st->window) {
        st->sum_comp += tcomp_master;
        st->sum_comm += tcomm_master;
    }
    if (st->step >= st->next_eval)
        bal__adaptive_eval(st);
    return BAL_OK;
}

/* ------------------------------------------------------------------------
 * Communication calibration by ping-pong (MPI)
 * ------------------------------------------------------------------------ */
#ifndef TILEHYBRID_NO_MPI

#define BAL_PINGPONG_SIZES 8  /* message sizes: k * max_bytes / 7, k = 0..7 */
#define BAL_PINGPONG_PASSES 8 /* at most this many measurement passes */

#if TILEHYBRID__DEFINE
/* MPI call @call failed on this rank with @mpirc: BAL_ERR_MPI, and st
 * (if not NULL) names the call (st->arg) and its code (st->mpi_error). */
TILEHYBRID__COLD int bal__mpi_fail(tilehybrid_status *st, const char *call, int mpirc)
{
    (void)tilehybrid_status_set(st, BAL_ERR_MPI, call, -1);
    if (st != NULL)
        st->mpi_error = mpirc;
    return BAL_ERR_MPI;
}

/* Step 1 of bal_calibrate_comm: the handshake, even when our own arguments
 * are bad, so that the peer never waits for a partner that has given up.
 * *buf receives a zeroed max_bytes buffer on success. */
TILEHYBRID__COLD int bal__handshake(MPI_Comm comm, int peer, int max_bytes, int reps, int nofit,
                                    char **buf, tilehybrid_status *st)
{
    int mine[3], theirs[3], rc = BAL_OK, mpirc;
    char *b = NULL;
    if (max_bytes >= 1 && !nofit)
        b = (char *)TILEHYBRID_MALLOC((size_t)max_bytes);
    mine[0] = max_bytes;
    mine[1] = reps;
    /* bit 0: no buffer; bit 1: a NULL fit (both ranks return BAL_ERR_NULL) */
    mine[2] = (max_bytes >= 1 && !nofit && b == NULL) ? 1 : nofit ? 2 : 0;
    mpirc = MPI_Sendrecv(mine, 3, MPI_INT, peer, TILEHYBRID_TAG_PINGPONG, theirs, 3, MPI_INT,
                         peer, TILEHYBRID_TAG_PINGPONG, comm, MPI_STATUS_IGNORE);
    if (mpirc != MPI_SUCCESS)
        rc = bal__mpi_fail(st, "MPI_Sendrecv", mpirc);
    else if (nofit || theirs[2] == 2)
        rc = BAL_ERR_NULL;
    else if (max_bytes < 1)
        rc = BAL_ERR_MSGSIZE;
    else if (reps < 1)
        rc = BAL_ERR_REPS;
    else if (mine[2])
        rc = BAL_ERR_NOMEM;
    else if (theirs[0] != mine[0] || theirs[1] != mine[1] || theirs[2] != 0)
        rc = BAL_ERR_MISMATCH;
    if (rc != BAL_OK) {
        if (b != NULL)
            TILEHYBRID_FREE(b);
        return rc;
    }
    memset(b, 0, (size_t)max_bytes);
    *buf = b;
    return BAL_OK;
}

/* Step 2: one pass of reps rounds, each a round trip of every size in turn;
 * y[k] keeps the smallest one-way time of size x[k] so far. */
TILEHYBRID__COLD int bal__pass(MPI_Comm comm, int peer, int leader, char *buf, const double *x,
                               double *y, int reps, tilehybrid_status *st)
{
    const char *call = "";
    double dt = 0;
    int r, k, mpirc;
    for (r = 0; r < reps; r++)
        for (k = 0; k < BAL_PINGPONG_SIZES; k++) {
            mpirc = tilehybrid_pingpong_ex(comm, peer, leader, buf, (int)x[k], (int)x[k],
                                           TILEHYBRID_TAG_PINGPONG, &dt, &call);
            if (mpirc != MPI_SUCCESS)
                return bal__mpi_fail(st, call, mpirc);
            if (y[k] < 0 || dt / 2 < y[k])
                y[k] = dt / 2; /* one way */
        }
    return BAL_OK;
}

/* Step 3: the leader fits the minima so far and sends its verdict to the
 * peer: out[0] = 1 to measure another pass, out[1] = the fit's code, then
 * intercept, slope, r2 and max_resid. */
TILEHYBRID__COLD int bal__verdict(MPI_Comm comm, int peer, int leader, const double *x,
                                  const double *y, int pass, double *out, tilehybrid_status *st)
{
    tilehybrid_fit f;
    int frc, mpirc;
    if (!leader) {
        mpirc = MPI_Recv(out, 6, MPI_DOUBLE, peer, TILEHYBRID_TAG_PINGPONG, comm,
                         MPI_STATUS_IGNORE);
        return mpirc == MPI_SUCCESS ? BAL_OK : bal__mpi_fail(st, "MPI_Recv", mpirc);
    }
    memset(&f, 0, sizeof f);
    frc = tilehybrid_fit_affine(x, y, BAL_PINGPONG_SIZES, &f) == TILEHYBRID_OK ? BAL_OK
                                                                             : BAL_ERR_SAMPLES;
    if (frc == BAL_OK && !(f.slope > 0))
        frc = BAL_ERR_FIT;
    out[0] = (frc == BAL_ERR_FIT && pass + 1 < BAL_PINGPONG_PASSES) ? 1 : 0;
    out[1] = frc;
    out[2] = f.intercept;
    out[3] = f.slope;
    out[4] = f.r2;
    out[5] = f.max_resid;
    mpirc = MPI_Send(out, 6, MPI_DOUBLE, peer, TILEHYBRID_TAG_PINGPONG, comm);
    return mpirc == MPI_SUCCESS ? BAL_OK : bal__mpi_fail(st, "MPI_Send", mpirc);
}
#else
TILEHYBRID__COLD int bal__mpi_fail(tilehybrid_status *st, const char *call, int mpirc);
TILEHYBRID__COLD int bal__handshake(MPI_Comm comm, int peer, int max_bytes, int reps, int nofit,
                                    char **buf, tilehybrid_status *st);
TILEHYBRID__COLD int bal__pass(MPI_Comm comm, int peer, int leader, char *buf, const double *x,
                               double *y, int reps, tilehybrid_status *st);
TILEHYBRID__COLD int bal__verdict(MPI_Comm comm, int peer, int leader, const double *x,
                                  const double *y, int pass, double *out, tilehybrid_status *st);
#endif

/* bal_calibrate_comm()'s work (defined below it). */
TILEHYBRID__COLD int bal__calibrate(MPI_Comm comm, int peer, int max_bytes, int reps,
                                    tilehybrid_fit *fit, tilehybrid_status *st);

#if TILEHYBRID__DEFINE
/**
 * bal_calibrate_comm() - measure t_comm by ping-pong with one peer and fit
 * the affine model one-way seconds = tstartup + bytes / bandwidth by least
 * squares.
 * @comm:      a communicator containing both ranks;
 * @peer:      the other rank in comm; both ranks call this function, each
 *             naming the other (the lower rank leads);
 * @max_bytes: largest message, in [1, INT_MAX]; sizes are k * max_bytes / 7
 *             bytes, k = 0..7 (0 included, so the intercept is measured);
 *             pick it near the application's message size (e.g. 1 MiB);
 * @reps:      >= 1 rounds per pass; a round is one round trip of every size
 *             in turn (interleaved, so a burst of noise hits all sizes
 *             alike), and the minimum per size over all rounds is kept;
 * @fit:       receives the fit on both ranks (the leader's numbers):
 *             intercept ~ tstartup (s), slope ~ 1/bandwidth (s/byte), r2,
 *             max_resid (s), n = BAL_PINGPONG_SIZES.  Pass it to
 *             bal_model_set_comm().  A poor r2 or a large max_resid means
 *             the affine model fits badly (e.g. an eager/rendezvous
 *             protocol switch inside the range) or the machine was busy.
 *
 * Procedure: a handshake checks that both passed a @fit (a NULL one on
 * either rank: both return BAL_ERR_NULL), the same max_bytes and reps and
 * could allocate their buffer (else both return BAL_ERR_MISMATCH); one warm-up round trip at max_bytes; then passes of
 * reps rounds (tilehybrid_pingpong()).  After each pass the leader fits the
 * minima so far (tilehybrid_fit_affine()); when the slope is positive or
 * after BAL_PINGPONG_PASSES passes it stops, and sends the fit to the peer.
 * Not collective: only the pair communicates, with tag
 * TILEHYBRID_TAG_PINGPONG (no other traffic with that tag may be pending
 * between them).  Call from one thread (under MPI_THREAD_FUNNELED, the
 * master).
 *
 * Return: BAL_OK (then fit->slope > 0), BAL_ERR_NULL (a NULL fit) or
 * BAL_ERR_NOPEER without communicating when there is no peer
 * (peer == MPI_PROC_NULL, this rank or not in comm: e.g. a 1-process run),
 * then BAL_ERR_NULL (on both ranks of the pair), BAL_ERR_MSGSIZE, BAL_ERR_REPS,
 * BAL_ERR_MISMATCH, BAL_ERR_NOMEM, BAL_ERR_MPI (an MPI call failed) or
 * BAL_ERR_FIT (the slope stayed <= 0: the timings are dominated by noise;
 * *fit holds that fit anyway).
 */
TILEHYBRID__COLD int bal_calibrate_comm(MPI_Comm comm, int peer, int max_bytes, int reps,
                                        tilehybrid_fit *fit)
{
    return bal__calibrate(comm, peer, max_bytes, reps, fit, NULL);
}

/* bal_calibrate_comm(); an MPI failure names the call and its code in st. */
TILEHYBRID__COLD int bal__calibrate(MPI_Comm comm, int peer, int max_bytes, int reps,
                                    tilehybrid_fit *fit, tilehybrid_status *st)
{
    int rank, size, k, pass, leader, rc;
    const char *call = "";
    char *buf = NULL;
    double x[BAL_PINGPONG_SIZES], y[BAL_PINGPONG_SIZES], out[6] = {1, 0, 0, 0, 0, 0};
    if ((rc = MPI_Comm_rank(comm, &rank)) != MPI_SUCCESS)
        return bal__mpi_fail(st, "MPI_Comm_rank", rc);
    if ((rc = MPI_Comm_size(comm, &size)) != MPI_SUCCESS)
        return bal__mpi_fail(st, "MPI_Comm_size", rc);
    if (peer == MPI_PROC_NULL || peer < 0 || peer >= size || peer == rank)
        return fit == NULL ? BAL_ERR_NULL : BAL_ERR_NOPEER;
    /* a NULL fit goes through the handshake: the peer returns BAL_ERR_NULL
     * too instead of waiting for a ping-pong that never starts */
    rc = bal__handshake(comm, peer, max_bytes, reps, fit == NULL, &buf, st);
    if (rc != BAL_OK)
        return rc;
    leader = rank < peer;
    for (k = 0; k < BAL_PINGPONG_SIZES; k++) {
        x[k] = (double)((int64_t)k * max_bytes / (BAL_PINGPONG_SIZES - 1));
        y[k] = -1;
    }
    /* a warm-up round trip at max_bytes, then passes while out[0] says so */
    rc = tilehybrid_pingpong_ex(comm, peer, leader, buf, max_bytes, max_bytes,
                                TILEHYBRID_TAG_PINGPONG, NULL, &call);
    if (rc != MPI_SUCCESS)
        rc = bal__mpi_fail(st, call, rc);
    for (pass = 0; rc == BAL_OK && out[0] == 1; pass++) {
        rc = bal__pass(comm, peer, leader, buf, x, y, reps, st);
        if (rc == BAL_OK)
            rc = bal__verdict(comm, peer, leader, x, y, pass, out, st);
    }
    TILEHYBRID_FREE(buf);
    if (rc != BAL_OK)
        return rc;
    if ((int)out[1] != BAL_OK && (int)out[1] != BAL_ERR_FIT)
        return (int)out[1];
    fit->intercept = out[2];
    fit->slope = out[3];
    fit->r2 = out[4];
    fit->max_resid = out[5];
    fit->n = BAL_PINGPONG_SIZES;
    return (int)out[1];
}

/* The pair's part of bal_calibrate_comm_all: in = {intercept, slope, 1}
 * for a fit with a positive slope, zeros otherwise; r2/mr its quality. */
TILEHYBRID__COLD int bal__pair(MPI_Comm dup, int rank, int size, int max_bytes, int reps,
                               double *in, double *r2, double *mr, tilehybrid_status *st)
{
    tilehybrid_fit f = {0, 0, 0, 0, 0};
    int rc, peer = rank ^ 1;
    in[0] = in[1] = in[2] = 0;
    if (peer >= size)
        return BAL_OK; /* the last rank of an odd size only waits */
    rc = bal__calibrate(dup, peer, max_bytes, reps, &f, st);
    if (rc == BAL_ERR_FIT)
        return BAL_OK; /* a noisy pair: left out of the mean */
    if (rc == BAL_OK) {
        in[0] = f.intercept;
        in[1] = f.slope;
        in[2] = 1;
        *r2 = f.r2;
        *mr = f.max_resid;
    }
    return rc;
}

/* The end of bal_calibrate_comm_all: every rank's verdict (rc) and the
 * pairs' fits combined on every rank.  Returns the lowest failing rank's
 * code, or BAL_ERR_MPI (st names the call) if a collective failed here. */
TILEHYBRID__COLD int bal__combine(MPI_Comm c, int rc, const double *in, double r2, double mr,
                                  double *sum, double *mn, double *mx, tilehybrid_status *st)
{
    tilehybrid_agreement a;
    int mpirc = tilehybrid_agree(c, rc, NULL, 0, NULL, 0, &a);
    if (mpirc != MPI_SUCCESS)
        return bal__mpi_fail(st, a.call, mpirc);
    if ((mpirc = MPI_Allreduce(in, sum, 3, MPI_DOUBLE, MPI_SUM, c)) != MPI_SUCCESS ||
        (mpirc = MPI_Allreduce(&r2, mn, 1, MPI_DOUBLE, MPI_MIN, c)) != MPI_SUCCESS ||
        (mpirc = MPI_Allreduce(&mr, mx, 1, MPI_DOUBLE, MPI_MAX, c)) != MPI_SUCCESS)
        return bal__mpi_fail(st, "MPI_Allreduce", mpirc);
    return a.code;
}

/* bal_calibrate_comm_all(), on a duplicate of comm (own_comm 0) or on comm
 * itself (own_comm 1: a communicator of the caller's with no other traffic
 * tagged TILEHYBRID_TAG_PINGPONG, e.g. a plan's, so that revoking it under
 * ULFM also reaches a partner blocked in the ping-pong).  An MPI failure
 * names the call and its code in st (st->arg, st->mpi_error). */
TILEHYBRID__COLD int bal__calibrate_all(MPI_Comm comm, int max_bytes, int reps, tilehybrid_fit *fit,
                                        tilehybrid_status *st, int own_comm)
{
    int rank, size, rc = BAL_OK, mpirc;
    MPI_Comm c = comm;
    tilehybrid_agreement a;
    double in[3], sum[3], mn, mx, r2 = 2, mr = -1;
    if ((mpirc = MPI_Comm_rank(comm, &rank)) != MPI_SUCCESS)
        return bal__mpi_fail(st, "MPI_Comm_rank", mpirc);
    if ((mpirc = MPI_Comm_size(comm, &size)) != MPI_SUCCESS)
        return bal__mpi_fail(st, "MPI_Comm_size", mpirc);
    if (size < 2)
        return BAL_ERR_NOPEER;
    if (fit == NULL)
        rc = BAL_ERR_NULL;
    else if (max_bytes < 1)
        rc = BAL_ERR_MSGSIZE;
    else if (reps < 1)
        rc = BAL_ERR_REPS;
    if ((mpirc = tilehybrid_agree(comm, rc, NULL, 0, NULL, 0, &a)) != MPI_SUCCESS)
        return bal__mpi_fail(st, a.call, mpirc);
    if (a.code != 0)
        return a.code;
    if (!own_comm && (mpirc = MPI_Comm_dup(comm, &c)) != MPI_SUCCESS)
        return bal__mpi_fail(st, "MPI_Comm_dup", mpirc);
    rc = bal__pair(c, rank, size, max_bytes, reps, in, &r2, &mr, st);
    /* a failed call of the pair: return at once, without a collective (the
     * partner may wait for this rank forever: the caller must abort) */
    if (rc == BAL_ERR_MPI)
        return rc;
    rc = bal__combine(c, rc, in, r2, mr, sum, &mn, &mx, st);
    if (rc == BAL_ERR_MPI)
        return rc;
    if (!own_comm && (mpirc = MPI_Comm_free(&c)) != MPI_SUCCESS)
        return bal__mpi_fail(st, "MPI_Comm_free", mpirc);
    if (rc != BAL_OK)
        return rc;
    if (sum[2] == 0)
        return BAL_ERR_FIT;
    fit->intercept = sum[0] / sum[2];
    fit->slope = sum[1] / sum[2];
    fit->r2 = mn;
    fit->max_resid = mx;
    fit->n = BAL_PINGPONG_SIZES;
    return BAL_OK;
}

/**
 * bal_calibrate_comm_all() - collective ping-pong calibration.
 * @comm:      the communicator; every rank calls.
 * @max_bytes: as for bal_calibrate_comm(), the same on every rank.
 * @reps:      as for bal_calibrate_comm(), the same on every rank.
 * @fit:       receives the same combined fit on every rank.
 *
 * Ranks 2k and 2k+1 of comm pair up (with an odd size the last rank only
 * waits), every pair runs bal_calibrate_comm() on a duplicate of comm, and
 * every rank receives the mean intercept and slope over the pairs that got
 * a fit with a positive slope, the smallest r2 and the largest max_resid
 * among them, n = BAL_PINGPONG_SIZES.  Ranks agree on errors with
 * tilehybrid_agree().
 *
 * An MPI call that fails on one rank is not agreed on: that rank returns
 * BAL_ERR_MPI at once, without entering another collective, and its
 * partner (or every other rank) may then wait for it forever: on
 * BAL_ERR_MPI, end the job (MPI_Abort) or revoke comm (ULFM).
 *
 * Return: BAL_OK, BAL_ERR_NOPEER when comm has a single process (nothing is
 * measured, nothing hangs), BAL_ERR_FIT when no pair got a positive slope,
 * the error of the lowest rank that had one (its arguments first:
 * BAL_ERR_NULL, BAL_ERR_MSGSIZE, BAL_ERR_REPS; then its pair's) -- each
 * the same on every rank -- or BAL_ERR_MPI on the rank where a call failed.
 */
TILEHYBRID__COLD int bal_calibrate_comm_all(MPI_Comm comm, int max_bytes, int reps,
                                            tilehybrid_fit *fit)
{
    return bal__calibrate_all(comm, max_bytes, reps, fit, NULL, 0);
}

/**
 * bal_calibrate_comm_all_ex() - bal_calibrate_comm_all(), naming the call
 * that failed.
 * @comm, @max_bytes, @reps, @fit: as for bal_calibrate_comm_all().
 * @st:  out (may be NULL): on BAL_ERR_MPI, the MPI call that failed on this
 *       rank (st->arg, "MPI_Send", "MPI_Recv", ...) and its error code
 *       (st->mpi_error).
 * Return: as bal_calibrate_comm_all().
 */
TILEHYBRID__COLD int bal_calibrate_comm_all_ex(MPI_Comm comm, int max_bytes, int reps,
                                               tilehybrid_fit *fit, tilehybrid_status *st)
{
    if (st != NULL)
        (void)tilehybrid_status_set(st, BAL_OK, "", -1);
    return bal__calibrate_all(comm, max_bytes, reps, fit, st, 0);
}
#else
TILEHYBRID__COLD int bal_calibrate_comm(MPI_Comm comm, int peer, int max_bytes, int reps,
                                        tilehybrid_fit *fit);
TILEHYBRID__COLD int bal__calibrate(MPI_Comm comm, int peer, int max_bytes, int reps,
                                    tilehybrid_fit *fit, tilehybrid_status *st);
TILEHYBRID__COLD int bal__pair(MPI_Comm dup, int rank, int size, int max_bytes, int reps,
                               double *in, double *r2, double *mr, tilehybrid_status *st);
TILEHYBRID__COLD int bal__combine(MPI_Comm c, int rc, const double *in, double r2, double mr,
                                  double *sum, double *mn, double *mx, tilehybrid_status *st);
TILEHYBRID__COLD int bal__calibrate_all(MPI_Comm comm, int max_bytes, int reps, tilehybrid_fit *fit,
                                        tilehybrid_status *st, int own_comm);
TILEHYBRID__COLD int bal_calibrate_comm_all(MPI_Comm comm, int max_bytes, int reps,
                                            tilehybrid_fit *fit);
TILEHYBRID__COLD int bal_calibrate_comm_all_ex(MPI_Comm comm, int max_bytes, int reps,
                                               tilehybrid_fit *fit, tilehybrid_status *st);
#endif

#endif /* TILEHYBRID_NO_MPI */

/* ------------------------------------------------------------------------
 * The balancing policy of a run: one object the funneled model drives
 * ------------------------------------------------------------------------ */

/** Largest number of process dimensions a bal_policy describes. */
#define BAL_MAX_DIMS 16

/** Which factor the master gets (bal_config.policy). */
enum bal_policy_kind {
    BAL_POLICY_FIXED = 0, /* bal_config.bal for every tile (1 = even split) */
    BAL_POLICY_CONSTANT,  /* eq. 1 for a process that sends in every dimension */
    BAL_POLICY_VARIABLE,  /* eq. 1 for this process's own sending directions */
    BAL_POLICY_ADAPTIVE,  /* Lemma 2 on the master's measured times, re-evaluated */
    BAL_POLICY_CUSTOM     /* bal_config.fn gives the factor of every tile */
};

/**
 * typedef bal_tile_fn - a custom policy: the master's factor for a tile.
 * @ctx:  bal_config.ctx.
 * @tile: the tile, 0, 1, ... in order (called by the master thread, once
 *        per tile, before the tile starts).
 * @rank: the calling process's rank in the plan's communicator.
 * Return: the factor; clamped to [0, 1] (NaN counts as 0).
 */
typedef double (*bal_tile_fn)(void *ctx, int64_t tile, int rank);

/**
 * struct bal_config - how the master's share is chosen (tile_config.balance).
 * @policy: enum bal_policy_kind (default BAL_POLICY_FIXED).
 * @bal:    BAL_POLICY_FIXED: the factor in [0, 1] (default 1, an even
 *          split); BAL_POLICY_ADAPTIVE: where it starts.
 * @tcomp, @tstartup, @bandwidth: the cost model of CONSTANT and VARIABLE
 *          (seconds per point, per message, bytes per second); 0 = from the
 *          TILEHYBRID_* environment, else measured (t_comp on the master's
 *          first tile, the network by a ping-pong when the plan is made).
 * @adapt_sample: ADAPTIVE: the first window in steps (0 = 2PT).
 * @adapt_period: ADAPTIVE: steps between later evaluations (0 = the window,
 *          -1 = evaluate once).
 * @adapt_smoothing: ADAPTIVE: the weight of a new estimate in (0, 1]
 *          (0 = 0.5).
 * @fn, @ctx: CUSTOM: the factor of every tile.
 */
typedef struct bal_config {
    int policy;
    double bal;
    double tcomp, tstartup, bandwidth;
    int64_t adapt_sample, adapt_period;
    double adapt_smoothing;
    bal_tile_fn fn;
    void *ctx;
} bal_config;

/**
 * struct bal_where - the process a policy balances (fixed for a plan).
 * @n: process dimensions; @pdims, @pcoords: the grid and this process's
 * place in it; @rank, @procs: in the plan's communicator; @threads: T;
 * @extent: X_1..X_N; @dep: d_1..d_N; @tile_height: z; @elem_bytes: bytes
 * per point.
 */
typedef struct bal_where {
    int n, rank, procs, threads;
    int pdims[BAL_MAX_DIMS], pcoords[BAL_MAX_DIMS];
    int64_t extent[BAL_MAX_DIMS], dep[BAL_MAX_DIMS], tile_height;
    double elem_bytes;
} bal_where;

/**
 * struct bal_policy - a policy at work: the configuration, the process, and
 * what the run has found so far.  Fields to read after a run:
 * @first:        the factor of the run's first tile;
 * @now:          the factor at the end (the one for the next tile);
 * @clamped:      eq. 1 asked for a factor outside [0, 1];
 * @uncalibrated: the network could not be measured (timings too noisy to
 *                fit): no cost model, the factor stays 1;
 * @model:        CONSTANT/VARIABLE: the cost model in use;
 * @adapt:        ADAPTIVE: the state machine (evaluations, changes, ...).
 */
typedef struct bal_policy {
    bal_config cfg;
    bal_where where;
    bal_model model;
    bal_adaptive adapt;
    double first, now;
    int clamped, uncalibrated;
    double last_comp, last_comm;
} bal_policy;

#if TILEHYBRID__DEFINE
/** bal_config_init() - the defaults: BAL_POLICY_FIXED with bal = 1. */
TILEHYBRID__COLD void bal_config_init(bal_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->policy = BAL_POLICY_FIXED;
    cfg->bal = 1.0;
}

/**
 * bal_config_check() - validate a configuration (no communication).
 * @cfg: the configuration.
 * Return: BAL_OK; BAL_ERR_BAL (bal outside [0, 1] or NaN); BAL_ERR_POLICY (an
 * unknown policy, or CUSTOM without fn); BAL_ERR_TCOMP, BAL_ERR_TSTARTUP,
 * BAL_ERR_BANDWIDTH (a cost below 0 or NaN); BAL_ERR_SAMPLESTEPS, BAL_ERR_PERIOD,
 * BAL_ERR_SMOOTHING (adaptive settings out of range).
 */
TILEHYBRID__COLD int bal_config_check(const bal_config *cfg)
{
    if (cfg == NULL)
        return BAL_ERR_NULL;
    if (!(cfg->bal >= 0.0 && cfg->bal <= 1.0))
        return BAL_ERR_BAL;
    if (cfg->policy < BAL_POLICY_FIXED || cfg->policy > BAL_POLICY_CUSTOM ||
        (cfg->policy == BAL_POLICY_CUSTOM && cfg->fn == NULL))
        return BAL_ERR_POLICY;
    if (!(cfg->tcomp >= 0.0) || !bal__finite(cfg->tcomp))
        return BAL_ERR_TCOMP;
    if (!(cfg->tstartup >= 0.0) || !bal__finite(cfg->tstartup))
        return BAL_ERR_TSTARTUP;
    if (!(cfg->bandwidth >= 0.0) || !bal__finite(cfg->bandwidth))
        return BAL_ERR_BANDWIDTH;
    if (cfg->adapt_sample < 0)
        return BAL_ERR_SAMPLESTEPS;
    if (cfg->adapt_period < -1)
        return BAL_ERR_PERIOD;
    if (!(cfg->adapt_smoothing >= 0.0 && cfg->adapt_smoothing <= 1.0))
        return BAL_ERR_SMOOTHING;
    return BAL_OK;
}
#else
TILEHYBRID__COLD void bal_config_init(bal_config *cfg);
TILEHYBRID__COLD int bal_config_check(const bal_config *cfg);
#endif

/* A policy that moves the split at all: CONSTANT/VARIABLE need a cost model. */
static inline int bal__uses_model(const bal_policy *pol)
{
    return pol->where.threads > 1 && (pol->cfg.policy == BAL_POLICY_CONSTANT ||
                                      pol->cfg.policy == BAL_POLICY_VARIABLE);
}

#if TILEHYBRID__DEFINE
/**
 * bal_policy_init() - bind a configuration to a process (no communication).
 * @pol:   the policy to fill.
 * @cfg:   the configuration (copied; bal_config_check rules).
 * @where: the process (copied).
 * The cost model starts from @cfg's costs; bal_policy_setup_ex completes it.
 * Return: BAL_OK or a bal_config_check code.
 */
TILEHYBRID__COLD int bal_policy_init(bal_policy *pol, const bal_config *cfg, const bal_where *where)
{
    int rc = bal_config_check(cfg);
    if (rc != BAL_OK)
        return rc;
    memset(pol, 0, sizeof *pol);
    pol->cfg = *cfg;
    pol->where = *where;
    pol->model.tcomp = cfg->tcomp;
    pol->model.tstartup = cfg->tstartup;
    pol->model.bandwidth = cfg->bandwidth;
    pol->model.elem_bytes = where->elem_bytes;
    pol->first = pol->now = 1.0;
    return BAL_OK;
}
#else
TILEHYBRID__COLD int bal_policy_init(bal_policy *pol, const bal_config *cfg,
                                     const bal_where *where);
#endif

/* Eq. 1 for this process with the model in use (t_comp known). */
static inline void bal__policy_eq1(bal_policy *pol)
{
    const bal_where *w = &pol->where;
    double f = 1.0;
    int clamped = 0;
    if (bal_factor(&pol->model, w->n, w->pdims,
                   pol->cfg.policy == BAL_POLICY_VARIABLE ? w->pcoords : NULL, w->threads,
                   w->extent, w->tile_height, w->dep, &f, &clamped) == BAL_OK) {
        pol->now = f;
        pol->clamped = clamped;
    }
}

#if TILEHYBRID__DEFINE
/**
 * bal_policy_start() - the start of a run: the first tile's factor.
 * @pol: the policy (after bal_policy_setup_ex).
 * FIXED and ADAPTIVE start at cfg.bal; CONSTANT and VARIABLE at eq. 1 when
 * t_comp is known, else at 1 until the master's first tile has measured it;
 * CUSTOM asks fn for each tile.  With one thread the factor is 1.
 */
TILEHYBRID__COLD void bal_policy_start(bal_policy *pol)
{
    const bal_where *w = &pol->where;
    pol->last_comp = pol->last_comm = 0.0;
    pol->now = 1.0;
    if (w->threads > 1) {
        if (pol->cfg.policy == BAL_POLICY_FIXED || pol->cfg.policy == BAL_POLICY_ADAPTIVE)
            pol->now = pol->cfg.bal;
        if (pol->cfg.policy == BAL_POLICY_ADAPTIVE) {
            int64_t sample = pol->cfg.adapt_sample, period = pol->cfg.adapt_period;
            if (sample <= 0 && bal_sampling_steps(w->procs, w->threads, &sample) != BAL_OK)
                sample = 2 * (int64_t)w->procs * w->threads;
            period = period == 0 ? sample : period < 0 ? 0 : period;
            (void)bal_adaptive_init(&pol->adapt, pol->cfg.bal, w->threads, sample, period,
                                    pol->cfg.adapt_smoothing > 0.0 ? pol->cfg.adapt_smoothing
                                                                   : 0.5);
        } else if (bal__uses_model(pol) && pol->model.tcomp > 0.0) {
            bal__policy_eq1(pol);
        }
    }
    pol->first = pol->now;
}
#else
TILEHYBRID__COLD void bal_policy_start(bal_policy *pol);
#endif

/**
 * bal_policy_tile() - the master's factor for a new tile.
 * @pol:  the policy.
 * @tile: the tile (in order).
 * Return: cfg.fn's value clamped to [0, 1] for CUSTOM, else the current
 * factor.  Called by the thread that schedules tiles.
 */
static inline double bal_policy_tile(bal_policy *pol, int64_t tile)
{
    if (pol->cfg.policy == BAL_POLICY_CUSTOM && pol->where.threads > 1) {
        double f = pol->cfg.fn(pol->cfg.ctx, tile, pol->where.rank);
        pol->now = f > 1.0 ? 1.0 : f >= 0.0 ? f : 0.0; /* NaN and below 0: 0 */
    }
    if (tile == 0)
        pol->first = pol->now;
    return pol->now;
}

/**
 * bal_policy_step() - the end of a step: feed the master's running totals.
 * @pol:     the policy.
 * @compute: the master's computation seconds since the run started.
 * @comm:    its communication work (packing, MPI calls, unpacking) since the
 *           run started; time blocked waiting for a neighbour is left out:
 *           moving work between threads cannot shorten it.
 * @points:  the points it computed since the run started.
 * ADAPTIVE applies Lemma 2 at the end of each window; CONSTANT and VARIABLE
 * measure t_comp on the master's first tile(s) of the user's body when it was
 * not given, then apply eq. 1 once.
 * Return: 1 if the factor changed (it applies to tiles announced from now
 * on), else 0.
 */
static inline int bal_policy_step(bal_policy *pol, double compute, double comm, int64_t points)
{
    double dcomp = compute - pol->last_comp, dcomm = comm - pol->last_comm, before = pol->now;
    pol->last_comp = compute;
    pol->last_comm = comm;
    if (pol->where.threads == 1)
        return 0;
    if (pol->cfg.policy == BAL_POLICY_ADAPTIVE) {
        if (bal_adaptive_step(&pol->adapt, dcomp, dcomm) == BAL_OK && pol->adapt.changed)
            pol->now = pol->adapt.bal;
    } else if (bal__uses_model(pol) && pol->model.tcomp <= 0.0 && points > 0 && compute > 0.0) {
        pol->model.tcomp = compute / (double)points;
        bal__policy_eq1(pol);
    }
    return pol->now != before;
}

#ifndef TILEHYBRID_NO_MPI
#if TILEHYBRID__DEFINE
/* The environment variable behind a BAL_ERR_ENV_* code, else "". */
TILEHYBRID__COLD const char *bal__env_name(int code)
{
    switch (code) {
    case BAL_ERR_ENV_TCOMP: return "TILEHYBRID_TCOMP";
    case BAL_ERR_ENV_TSTARTUP: return "TILEHYBRID_TSTARTUP";
    case BAL_ERR_ENV_BANDWIDTH: return "TILEHYBRID_BANDWIDTH";
    case BAL_ERR_ENV_ELEM_BYTES: return "TILEHYBRID_ELEM_BYTES";
    default: return "";
    }
}

/* Are the environment's costs usable on every rank, and do all ranks agree
 * on measuring the network?  One collective (tilehybrid_agree): a rank that
 * measured alone would wait for its partner forever.  Every rank returns
 * the same code; st names the variable and the lowest rank that rejected it. */
TILEHYBRID__COLD int bal__policy_env(bal_policy *pol, MPI_Comm comm, tilehybrid_status *st)
{
    bal_model env;
    tilehybrid_agreement a;
    uint64_t measure;
    int found = 0, rc, mpi;
    memset(&env, 0, sizeof env);
    rc = bal_model_from_env(&env, &found);
    if (rc == BAL_OK) {
        if (pol->model.tcomp <= 0.0 && (found & BAL_HAVE_TCOMP))
            pol->model.tcomp = env.tcomp;
        if (pol->cfg.tstartup <= 0.0 && pol->cfg.bandwidth <= 0.0 && (found & BAL_HAVE_TSTARTUP))
            pol->model.tstartup = env.tstartup;
        if (pol->model.bandwidth <= 0.0 && (found & BAL_HAVE_BANDWIDTH))
            pol->model.bandwidth = env.bandwidth;
    }
    measure = pol->model.bandwidth <= 0.0;
    mpi = tilehybrid_agree(comm, rc, &measure, 1, NULL, 0, &a);
    if (mpi != MPI_SUCCESS)
        return bal__mpi_fail(st, a.call, mpi);
    if (a.code != 0) {
        tilehybrid_status_set(st, a.code, bal__env_name(a.code), -1);
        if (st != NULL)
            st->rank = a.rank;
        return a.code;
    }
    if (a.index >= 0)
        return tilehybrid_status_set(st, BAL_ERR_MISMATCH, "TILEHYBRID_BANDWIDTH", -1);
    return BAL_OK;
}

/* The largest face of the largest block, 64 KiB to 4 MiB (the same on every
 * rank): the ping-pong's message size. */
TILEHYBRID__COLD int bal__policy_face(const bal_where *w)
{
    int64_t face = 0, b;
    int i, j;
    for (i = 0; i < w->n; i++) {
        b = (int64_t)w->elem_bytes * w->dep[i] * w->tile_height;
        for (j = 0; j < w->n && b <= (4 << 20); j++)
            if (j != i)
                b *= (w->extent[j] + w->pdims[j] - 1) / w->pdims[j];
        face = b > face ? b : face;
    }
    /* at least 64 KiB: the slope (bandwidth) is invisible in tiny messages */
    return (int)(face < (64 << 10) ? (64 << 10) : face > (4 << 20) ? (4 << 20) : face);
}

/* Do all ranks pass a policy, with rank 0's policy and thread count?  One
 * MPI_Bcast (rank 0's) and one tilehybrid_agree_status(), on every rank
 * whatever its arguments, before any rank returns: a rank that went on
 * alone (or returned at once) would leave the others waiting forever.
 * Every rank returns the same code: BAL_ERR_NULL ("pol") or
 * BAL_ERR_MISMATCH ("policy", "threads"), st->rank the lowest rank at
 * fault. */
TILEHYBRID__COLD int bal__policy_agree(const bal_policy *pol, MPI_Comm comm, tilehybrid_status *st)
{
    static const char *const names[4] = {"pol", "policy", "threads", "procs"};
    tilehybrid_verdict w;
    tilehybrid_agreement a;
    tilehybrid_status mine;
    int root[4] = {0, 0, 0, 0}, rc = BAL_OK, mpi;
    if (pol != NULL) {
        root[0] = 1;
        root[1] = (int)pol->cfg.policy;
        root[2] = pol->where.threads;
        root[3] = pol->where.procs;
    }
    mpi = MPI_Bcast(root, 4, MPI_INT, 0, comm);
    if (mpi != MPI_SUCCESS)
        return bal__mpi_fail(st, "MPI_Bcast", mpi);
    tilehybrid_status_set(&mine, BAL_OK, "", -1);
    if (pol == NULL)
        rc = tilehybrid_status_set(&mine, BAL_ERR_NULL, names[0], -1);
    else if (root[0] && (int)pol->cfg.policy != root[1])
        rc = tilehybrid_status_set(&mine, BAL_ERR_MISMATCH, names[1], -1);
    else if (root[0] && pol->where.threads != root[2])
        rc = tilehybrid_status_set(&mine, BAL_ERR_MISMATCH, names[2], -1);
    else if (root[0] && pol->where.procs != root[3])   /* procs 1 skips the ping-pong */
        rc = tilehybrid_status_set(&mine, BAL_ERR_MISMATCH, names[3], -1);
    w.text[0] = '\0';
    mpi = tilehybrid_agree_status(comm, rc, &mine, NULL, 0, &w, &a);
    if (mpi != MPI_SUCCESS)
        return bal__mpi_fail(st, a.call, mpi);
    if (a.code == 0)
        return BAL_OK;
    return tilehybrid_verdict_status(st, &a, &w, tilehybrid_verdict_arg(&w, names, 4, "pol"));
}

/**
 * bal_policy_setup_ex() - complete the cost model (collective over @comm).
 * @pol:  the policy (bal_policy_init).
 * @comm: the plan's communicator; every rank calls.  The ping-pong runs on
 *        it (tag TILEHYBRID_TAG_PINGPONG: no other message with that tag
 *        may be pending on it).
 * @st:   NULL, or receives the code, the argument at fault (the
 *        environment variable, "TILEHYBRID_BANDWIDTH" for a mismatch) and
 *        the rank that found it (-1 when no single rank did): the same on
 *        every rank; for BAL_ERR_MPI, the MPI call that failed on this rank
 *        (st->arg: "MPI_Send", "MPI_Recv", "MPI_Allreduce", ...) and its
 *        MPI error code (st->mpi_error).
 *
 * First every rank checks, together (one MPI_Bcast, one agreement, on every
 * rank whatever its arguments), that it passes a @pol (BAL_ERR_NULL,
 * st->arg "pol") with rank 0's bal_config.policy, bal_where.threads and
 * bal_where.procs (BAL_ERR_MISMATCH, st->arg "policy", "threads" or
 * "procs"); st->rank is the lowest
 * rank at fault, and every rank returns that code.  Then CONSTANT and
 * VARIABLE with threads > 1 only (the others return BAL_OK): costs not
 * given come from the TILEHYBRID_* environment,
 * the network (t_startup, bandwidth) by a ping-pong between rank pairs
 * (bal_calibrate_comm_all) when still unknown; t_comp is measured during
 * the run.  Timings too noisy to fit leave the policy uncalibrated (factor
 * 1, the same answer on every rank).
 * Return: the same code on every rank: BAL_OK; BAL_ERR_NULL or
 * BAL_ERR_MISMATCH (the arguments, above); BAL_ERR_ENV_* (a rank's
 * TILEHYBRID_* variable is not a valid number: st->rank is the lowest such
 * rank); BAL_ERR_MISMATCH (TILEHYBRID_BANDWIDTH set on some ranks only);
 * BAL_ERR_MPI on the rank where an MPI call failed: it returns at once,
 * without entering another collective, so the other ranks (its partner
 * in the ping-pong, or the next collective) may wait for it forever: end
 * the job (MPI_Abort) or revoke @comm (ULFM), as tiling.h does.
 */
TILEHYBRID__COLD int bal_policy_setup_ex(bal_policy *pol, MPI_Comm comm, tilehybrid_status *st)
{
    int rc;
    tilehybrid_fit fit;
    tilehybrid_status_set(st, BAL_OK, "", -1);
    rc = bal__policy_agree(pol, comm, st);
    if (rc != BAL_OK || !bal__uses_model(pol))
        return rc;
    rc = bal__policy_env(pol, comm, st);
    if (rc != BAL_OK || pol->model.bandwidth > 0.0)
        return rc;
    if (pol->where.procs == 1) {
        pol->model.bandwidth = 1e300; /* one process sends nothing */
        return BAL_OK;
    }
    rc = bal__calibrate_all(comm, bal__policy_face(&pol->where), 3, &fit, st, 1);
    if (rc == BAL_ERR_MPI)
        return rc;  /* on this rank only; st names the call and its code */
    if (rc == BAL_OK)
        rc = bal_model_set_comm(&pol->model, &fit);
    if (rc == BAL_ERR_FIT || (rc != BAL_OK && rc != BAL_ERR_MPI)) {
        /* too noisy to fit (the same answer on every rank): no cost model */
        pol->model.tstartup = 0.0;
        pol->model.bandwidth = 1e300;
        pol->uncalibrated = 1;
        return BAL_OK;
    }
    return tilehybrid_status_set(st, rc, "", -1);
}
#else
TILEHYBRID__COLD const char *bal__env_name(int code);
TILEHYBRID__COLD int bal__policy_env(bal_policy *pol, MPI_Comm comm, tilehybrid_status *st);
TILEHYBRID__COLD int bal__policy_face(const bal_where *w);
TILEHYBRID__COLD int bal__policy_agree(const bal_policy *pol, MPI_Comm comm, tilehybrid_status *st);
TILEHYBRID__COLD int bal_policy_setup_ex(bal_policy *pol, MPI_Comm comm, tilehybrid_status *st);
#endif

#endif /* TILEHYBRID_NO_MPI */

#ifdef __cplusplus
}
#endif

#endif /* TILEHYBRID_BALANCE_H */
