/* balance.h -- master-thread load balancing for the funneled hybrid model
 *
 * Part of tilehybrid (MIT licence).  Version BAL_VERSION.
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
 *     - the integer split of a step's work between the threads.
 *   Everything except the MPI calibration is pure arithmetic on plain
 *   structs: no global state, no I/O, no clock, thread-safe and re-entrant.
 *
 * EQUATIONS (X = X_1*...*X_N, P = P_1*...*P_N, z = tile height, T threads)
 *   eq. 1  bal = 1 - (T-1) / t_comp(Xz/P)
 *                  * sum over sending dimensions i of t_comm(d_i P_i X z / (X_i P))
 *   eq. 2  bal' = 1 - bal (T-1)/T * tcomm_master / tcomp_master
 *   Xz/P is the number of points a process updates per step and
 *   d_i P_i X z / (X_i P) = d_i * z * prod_{j != i} X_j/P_j is the size (in
 *   elements) of the message it sends along dimension i.
 *
 * USAGE (compiles as is; link with -lmpich or build with mpicc)
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
 *       bal_model_from_env(&m, NULL);                // TILEHYBRID_* override, if set
 *       rc = bal_factor(&m, 2, pdims, NULL, 2, extent, 100, dep, &con, &clamped);
 *       if (rc == 0)
 *           rc = bal_factor(&m, 2, pdims, coords, 2, extent, 100, dep, &var, &clamped);
 *       if (rc != 0) {
 *           fprintf(stderr, "balance: %s\n", bal_strerror(rc));
 *           return 1;
 *       }
 *       bal_split(64 * 32, 2, var, counts);          // master, other thread
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
 *           if (bal_adaptive_step(&st, t_comp, t_comm) == 1)
 *               ... st.bal has changed: re-split from the next step on ...
 *       }
 *
 * OPTIONS
 *   #define TILEHYBRID_NO_MPI   before including: omit the MPI calibration
 *                               (bal_calibrate_comm*) and do not include
 *                               <mpi.h>; everything else is MPI-free anyway.
 *
 * ENVIRONMENT (read only by bal_model_from_env, plain decimal numbers in
 * SI base units, e.g. 288e-9; no spaces, no units, no hex):
 *   TILEHYBRID_TCOMP       seconds per iteration (one point update), > 0
 *   TILEHYBRID_TSTARTUP    seconds per message, >= 0
 *   TILEHYBRID_BANDWIDTH   bytes per second, > 0
 *   TILEHYBRID_ELEM_BYTES  bytes per message element, > 0
 *
 * ERRORS
 *   Every int function returns 0 on success (bal_adaptive_step: 0 or 1) or
 *   a negative BAL_E* code; bal_strerror() names the offending argument.  Functions that take
 *   per-dimension arrays can report the dimension: bal_factor_check() sets
 *   *bad_index.  Nothing prints, nothing aborts.
 *
 * API (details at each definition)
 *   const char *bal_strerror(int code);
 *   int    bal_model_check(const bal_model *m);
 *   double bal_tcomp(const bal_model *m, double iterations);
 *   double bal_tcomm(const bal_model *m, double elements);
 *   int    bal_parse_double(const char *s, double *out);
 *   int    bal_model_from_env(bal_model *m, int *found);
 *   int    bal_fit_affine(const double *x, const double *y, int n, bal_fit *fit);
 *   int    bal_fit_tcomp(const double *seconds, const double *iterations, int n,
 *                        double *tcomp, bal_fit *fit);
 *   int    bal_model_set_comm(bal_model *m, const bal_fit *fit);
 *   int    bal_factor_check(int n, const int *pdims, const int *coords, int threads,
 *                           const int64_t *extent, int64_t tile_height,
 *                           const int64_t *dep, int *bad_index);
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
 *                             bal_fit *fit);                       (MPI)
 *   int    bal_calibrate_comm_all(MPI_Comm comm, int max_bytes, int reps,
 *                                 bal_fit *fit);                   (MPI, collective)
 *
 * VERSION HISTORY
 *   0.1.0  first version: cost model, calibration, eq. 1 and 2, adaptive
 *          state machine, split.
 */
#ifndef TILEHYBRID_BALANCE_H
#define TILEHYBRID_BALANCE_H

#define BAL_VERSION "0.1.0"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef TILEHYBRID_NO_MPI
#include <mpi.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------
 * Error codes
 * ------------------------------------------------------------------------ */

/* Every function returns BAL_OK (0) or one of these (negative) codes. */
enum bal_error {
    BAL_OK = 0,
    BAL_ENULL = -1,            /* a required pointer argument is NULL */
    BAL_ETCOMP = -2,           /* model tcomp */
    BAL_ETSTARTUP = -3,        /* model tstartup */
    BAL_EBANDWIDTH = -4,       /* model bandwidth */
    BAL_EELEMBYTES = -5,       /* model elem_bytes */
    BAL_EDIMS = -6,            /* n */
    BAL_EPDIMS = -7,           /* pdims[i] */
    BAL_ECOORDS = -8,          /* coords[i] */
    BAL_ETHREADS = -9,         /* threads */
    BAL_EEXTENT = -10,         /* extent[i] */
    BAL_EEMPTY = -11,          /* pdims[i] > extent[i] */
    BAL_ETILEHEIGHT = -12,     /* tile_height */
    BAL_EDEP = -13,            /* dep[i] */
    BAL_EOVERFLOW = -14,       /* a volume or message size overflows int64 */
    BAL_EBAL = -15,            /* a balancing factor outside [0,1] */
    BAL_ETOTAL = -16,          /* split total */
    BAL_EPARTS = -17,          /* split parts */
    BAL_EPART = -18,           /* split part index */
    BAL_ETIME = -19,           /* a measured time */
    BAL_ENOINFO = -20,         /* Lemma 2 with tcomp_master == 0 */
    BAL_ESAMPLESTEPS = -21,    /* adaptive sample_steps */
    BAL_EPERIOD = -22,         /* adaptive period */
    BAL_ESMOOTHING = -23,      /* adaptive smoothing */
    BAL_ESTATE = -24,          /* adaptive state fields out of range */
    BAL_EPROCS = -25,          /* procs */
    BAL_ESAMPLES = -26,        /* fit samples */
    BAL_EFIT = -27,            /* a fit that cannot give a model */
    BAL_EENV_TCOMP = -28,      /* TILEHYBRID_TCOMP */
    BAL_EENV_TSTARTUP = -29,   /* TILEHYBRID_TSTARTUP */
    BAL_EENV_BANDWIDTH = -30,  /* TILEHYBRID_BANDWIDTH */
    BAL_EENV_ELEM_BYTES = -31, /* TILEHYBRID_ELEM_BYTES */
    BAL_ENOPEER = -32,         /* ping-pong without a peer */
    BAL_EMSGSIZE = -33,        /* ping-pong max_bytes */
    BAL_EREPS = -34,           /* ping-pong reps */
    BAL_EMISMATCH = -35,       /* the two ping-pong ranks disagree */
    BAL_ENOMEM = -36,          /* out of memory */
    BAL_EMPI = -37,            /* an MPI call failed */
    BAL_ESYNTAX = -38,         /* bal_parse_double: not a plain decimal number */
    BAL_EPOLICY = -39,         /* bal_config.policy unknown, or CUSTOM without fn */
    BAL_EENV_REMOTE = -40      /* another rank's TILEHYBRID_* environment is bad */
};

/* bal_strerror - a one-line message for an error code.
 * @code: a value returned by a bal_ function.
 * Returns a static string that names the argument at fault and the rule it
 * broke; "unknown balance.h error code" for anything else.  Never NULL. */
static inline const char *bal_strerror(int code)
{
    switch (code) {
    case BAL_OK: return "success";
    case BAL_ENULL: return "a required pointer argument is NULL";
    case BAL_ETCOMP: return "model tcomp (seconds per iteration) must be finite and > 0";
    case BAL_ETSTARTUP: return "model tstartup (seconds per message) must be finite and >= 0";
    case BAL_EBANDWIDTH: return "model bandwidth (bytes per second) must be finite and > 0";
    case BAL_EELEMBYTES: return "model elem_bytes (bytes per message element) must be finite and > 0";
    case BAL_EDIMS: return "n (number of process dimensions) must be >= 1";
    case BAL_EPDIMS: return "pdims[i] (processes along dimension i) must be >= 1";
    case BAL_ECOORDS: return "coords[i] must be in [0, pdims[i]-1]";
    case BAL_ETHREADS: return "threads (threads per process) must be >= 1";
    case BAL_EEXTENT: return "extent[i] (iteration space extent) must be >= 1";
    case BAL_EEMPTY: return "pdims[i] > extent[i]: some process would own no points along dimension i";
    case BAL_ETILEHEIGHT: return "tile_height (z) must be >= 1";
    case BAL_EDEP: return "dep[i] (dependence length, elements) must be >= 0";
    case BAL_EOVERFLOW: return "a tile volume or message size overflows int64";
    case BAL_EBAL: return "balancing factor bal must be finite and in [0, 1]";
    case BAL_ETOTAL: return "split total must be >= 0";
    case BAL_EPARTS: return "split parts must be >= 1";
    case BAL_EPART: return "split part must be in [0, parts-1]";
    case BAL_ETIME: return "measured times (tcomp_master, tcomm_master) must be finite and >= 0";
    case BAL_ENOINFO: return "tcomp_master is 0: Lemma 2 cannot estimate the computation rate (the master computed nothing)";
    case BAL_ESAMPLESTEPS: return "adaptive sample_steps must be >= 1";
    case BAL_EPERIOD: return "adaptive period must be >= 0 (0: evaluate once)";
    case BAL_ESMOOTHING: return "adaptive smoothing must be in (0, 1]";
    case BAL_ESTATE: return "adaptive state out of range (bal, min_bal in [0,1], deadband >= 0; was it initialised?)";
    case BAL_EPROCS: return "procs (number of processes) must be >= 1";
    case BAL_ESAMPLES: return "fit samples: need enough finite samples (x distinct for an affine fit; seconds >= 0, iterations > 0)";
    case BAL_EFIT: return "fit: slope must be finite and > 0 and intercept finite to give a model";
    case BAL_EENV_TCOMP: return "TILEHYBRID_TCOMP must be a plain decimal number > 0 (seconds per iteration)";
    case BAL_EENV_TSTARTUP: return "TILEHYBRID_TSTARTUP must be a plain decimal number >= 0 (seconds per message)";
    case BAL_EENV_BANDWIDTH: return "TILEHYBRID_BANDWIDTH must be a plain decimal number > 0 (bytes per second)";
    case BAL_EENV_ELEM_BYTES: return "TILEHYBRID_ELEM_BYTES must be a plain decimal number > 0 (bytes per element)";
    case BAL_ENOPEER: return "no peer: ping-pong needs another rank (peer is MPI_PROC_NULL, this rank, out of range, or the communicator has 1 process)";
    case BAL_EMSGSIZE: return "ping-pong max_bytes must be in [1, INT_MAX]";
    case BAL_EREPS: return "ping-pong reps must be >= 1";
    case BAL_EMISMATCH: return "ping-pong: the two ranks passed different max_bytes/reps or one failed to allocate";
    case BAL_ENOMEM: return "out of memory";
    case BAL_EMPI: return "an MPI call failed";
    case BAL_EPOLICY: return "balancing policy: not a bal_policy_kind, or BAL_POLICY_CUSTOM without fn";
    case BAL_EENV_REMOTE: return "another rank rejected its TILEHYBRID_* environment";
    case BAL_ESYNTAX: return "not a plain decimal number (e.g. 288e-9; no spaces, units, hex, inf, nan; no overflow or underflow)";
    default: return "unknown balance.h error code";
    }
}

/* ------------------------------------------------------------------------
 * Cost model
 * ------------------------------------------------------------------------ */

/* The machine model of eq. 4-5 of the paper.  All in SI base units. */
typedef struct bal_model {
    double tcomp;      /* seconds per iteration (one point update), > 0 */
    double tstartup;   /* seconds per message, >= 0 */
    double bandwidth;  /* bytes per second, > 0 */
    double elem_bytes; /* bytes per element of a message, > 0 */
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

/* bal_model_check - validate a model.
 * Returns 0, BAL_ENULL, or the code of the first bad field in declaration
 * order (BAL_ETCOMP, BAL_ETSTARTUP, BAL_EBANDWIDTH, BAL_EELEMBYTES). */
static inline int bal_model_check(const bal_model *m)
{
    if (m == NULL)
        return BAL_ENULL;
    if (!bal__finite(m->tcomp) || m->tcomp <= 0)
        return BAL_ETCOMP;
    if (!bal__finite(m->tstartup) || m->tstartup < 0)
        return BAL_ETSTARTUP;
    if (!bal__finite(m->bandwidth) || m->bandwidth <= 0)
        return BAL_EBANDWIDTH;
    if (!bal__finite(m->elem_bytes) || m->elem_bytes <= 0)
        return BAL_EELEMBYTES;
    return BAL_OK;
}

/* bal_tcomp - t_comp(x) = x * tcomp: seconds for @iterations point updates.
 * Requires a valid model (not checked: use bal_model_check once). */
static inline double bal_tcomp(const bal_model *m, double iterations)
{
    return iterations * m->tcomp;
}

/* bal_tcomm - t_comm(x) = tstartup + x * elem_bytes / bandwidth: seconds to
 * send one message of @elements elements (not bytes).  Requires a valid model. */
static inline double bal_tcomm(const bal_model *m, double elements)
{
    return m->tstartup + elements * m->elem_bytes / m->bandwidth;
}

/* bal_parse_double - strict number parsing, as used for the environment.
 * @s:   a plain decimal number: optional sign, digits, optional '.', optional
 *       exponent ("288e-9", "12.5E6", "0"); no spaces, units, hex, inf or nan.
 * @out: receives the value (only on success).
 * Returns 0, BAL_ENULL, or BAL_ESYNTAX for anything else (including
 * overflow and underflow to a denormal or zero from a non-zero literal). */
static inline int bal_parse_double(const char *s, double *out)
{
    const char *p;
    char *end;
    double v;
    if (s == NULL || out == NULL)
        return BAL_ENULL;
    if (*s == '\0')
        return BAL_ESYNTAX;
    for (p = s; *p; p++)
        if (!((*p >= '0' && *p <= '9') || *p == '.' || *p == 'e' || *p == 'E' ||
              *p == '+' || *p == '-'))
            return BAL_ESYNTAX;
    errno = 0;
    v = strtod(s, &end);
    if (end == s || *end != '\0' || errno == ERANGE || !bal__finite(v))
        return BAL_ESYNTAX;
    *out = v;
    return BAL_OK;
}

static inline int bal__env(const char *name, int positive, double *field, int bit, int *found,
                           int err)
{
    double v;
    const char *s = getenv(name);
    if (s == NULL)
        return BAL_OK;
    if (bal_parse_double(s, &v) != 0 || (positive ? v <= 0 : v < 0))
        return err;
    *field = v;
    if (found != NULL)
        *found |= bit;
    return BAL_OK;
}

/* bal_model_from_env - override model fields from the environment.
 * @m:     the model; the field of every variable that is SET is replaced,
 *         the others are left untouched (so fill in defaults first).
 * @found: may be NULL; receives the BAL_HAVE_* bits of the variables that
 *         were set (0 if none).
 * Variables: TILEHYBRID_TCOMP (> 0), TILEHYBRID_TSTARTUP (>= 0),
 * TILEHYBRID_BANDWIDTH (> 0), TILEHYBRID_ELEM_BYTES (> 0), syntax as in
 * bal_parse_double.  Returns 0, BAL_ENULL, or BAL_EENV_<NAME> for the first
 * variable (in that order) that is set but not a valid number; on error the
 * model may have been partly updated.  Uses getenv(): do not call while
 * another thread modifies the environment. */
static inline int bal_model_from_env(bal_model *m, int *found)
{
    int rc;
    if (found != NULL)
        *found = 0;
    if (m == NULL)
        return BAL_ENULL;
    rc = bal__env("TILEHYBRID_TCOMP", 1, &m->tcomp, BAL_HAVE_TCOMP, found, BAL_EENV_TCOMP);
    if (rc == 0)
        rc = bal__env("TILEHYBRID_TSTARTUP", 0, &m->tstartup, BAL_HAVE_TSTARTUP, found,
                      BAL_EENV_TSTARTUP);
    if (rc == 0)
        rc = bal__env("TILEHYBRID_BANDWIDTH", 1, &m->bandwidth, BAL_HAVE_BANDWIDTH, found,
                      BAL_EENV_BANDWIDTH);
    if (rc == 0)
        rc = bal__env("TILEHYBRID_ELEM_BYTES", 1, &m->elem_bytes, BAL_HAVE_ELEM_BYTES, found,
                      BAL_EENV_ELEM_BYTES);
    return rc;
}

/* ------------------------------------------------------------------------
 * Calibration fits
 * ------------------------------------------------------------------------ */

/* The result of a least-squares fit y ~ intercept + slope * x. */
typedef struct bal_fit {
    double intercept; /* y at x = 0 (0 for bal_fit_tcomp, a fit through 0) */
    double slope;     /* dy/dx */
    double r2;        /* 1 - SS_res/SS_tot: 1 = perfect; can be < 0 for bal_fit_tcomp's fit
                         through the origin when the times have a large fixed offset; when
                         all y are equal: 1 if fitted exactly, else 0 */
    double max_resid; /* largest |y - fit(x)| */
    int n;            /* number of samples */
} bal_fit;

static inline void bal__fit_quality(const double *x, const double *y, int n, bal_fit *f)
{
    double ybar = 0, ssr = 0, sst = 0, mr = 0;
    int i;
    for (i = 0; i < n; i++)
        ybar += y[i];
    ybar /= n;
    for (i = 0; i < n; i++) {
        double r = y[i] - (f->intercept + f->slope * x[i]);
        ssr += r * r;
        sst += (y[i] - ybar) * (y[i] - ybar);
        if (bal__abs(r) > mr)
            mr = bal__abs(r);
    }
    if (sst > 0)
        f->r2 = 1.0 - ssr / sst;
    else
        f->r2 = ssr == 0 ? 1.0 : 0.0;
    f->max_resid = mr;
    f->n = n;
}

/* bal_fit_affine - ordinary least squares y = a + b x.
 * @x, @y: n finite samples; at least two distinct x values.
 * @fit:   receives intercept a, slope b, r2 and max_resid.
 * Used by the ping-pong with x = message bytes and y = one-way seconds,
 * so that intercept = tstartup and 1/slope = bandwidth.
 * Returns 0, BAL_ENULL, or BAL_ESAMPLES (n < 2, a non-finite value, all x equal). */
static inline int bal_fit_affine(const double *x, const double *y, int n, bal_fit *fit)
{
    double xbar = 0, ybar = 0, sxx = 0, sxy = 0;
    int i;
    if (x == NULL || y == NULL || fit == NULL)
        return BAL_ENULL;
    if (n < 2)
        return BAL_ESAMPLES;
    for (i = 0; i < n; i++) {
        if (!bal__finite(x[i]) || !bal__finite(y[i]))
            return BAL_ESAMPLES;
        xbar += x[i];
        ybar += y[i];
    }
    xbar /= n;
    ybar /= n;
    for (i = 0; i < n; i++) {
        sxx += (x[i] - xbar) * (x[i] - xbar);
        sxy += (x[i] - xbar) * (y[i] - ybar);
    }
    if (!(sxx > 0))
        return BAL_ESAMPLES;
    fit->slope = sxy / sxx;
    fit->intercept = ybar - fit->slope * xbar;
    bal__fit_quality(x, y, n, fit);
    return BAL_OK;
}

/* bal_fit_tcomp - t_comp(1) from timings of the user's own stencil body.
 * @seconds:    n measured times, finite and >= 0;
 * @iterations: the number of point updates each time covers, finite and > 0
 *              (doubles so that large counts pass without casts);
 * @n:          >= 1;
 * @tcomp:      receives the least-squares slope through the origin,
 *              sum(s_k i_k) / sum(i_k^2), i.e. the model t_comp(x) = x tcomp;
 * @fit:        may be NULL; receives intercept 0, slope = *tcomp, r2 and
 *              max_resid of that fit (the quality of the linear model).
 * Returns 0, BAL_ENULL, BAL_ESAMPLES (bad n or sample) or BAL_EFIT (the
 * slope is 0: all times were 0, below the clock's resolution; time more
 * iterations). */
static inline int bal_fit_tcomp(const double *seconds, const double *iterations, int n,
                                double *tcomp, bal_fit *fit)
{
    double sxy = 0, sxx = 0, slope;
    int i;
    if (seconds == NULL || iterations == NULL || tcomp == NULL)
        return BAL_ENULL;
    if (n < 1)
        return BAL_ESAMPLES;
    for (i = 0; i < n; i++) {
        if (!bal__finite(seconds[i]) || seconds[i] < 0 || !bal__finite(iterations[i]) ||
            iterations[i] <= 0)
            return BAL_ESAMPLES;
        sxy += seconds[i] * iterations[i];
        sxx += iterations[i] * iterations[i];
    }
    slope = sxy / sxx;
    if (!bal__finite(slope) || !(slope > 0))
        return BAL_EFIT;
    *tcomp = slope;
    if (fit != NULL) {
        fit->intercept = 0;
        fit->slope = slope;
        bal__fit_quality(iterations, seconds, n, fit);
    }
    return BAL_OK;
}

/* bal_model_set_comm - set tstartup and bandwidth from a ping-pong fit of
 * one-way seconds against message BYTES.
 * @m:   the model; tstartup = max(0, intercept) (a slightly negative
 *       intercept is noise), bandwidth = 1/slope bytes per second.  tcomp
 *       and elem_bytes are not touched.
 * Returns 0, BAL_ENULL, or BAL_EFIT (slope not finite and > 0, intercept
 * not finite); the model is unchanged on error. */
static inline int bal_model_set_comm(bal_model *m, const bal_fit *fit)
{
    if (m == NULL || fit == NULL)
        return BAL_ENULL;
    if (!bal__finite(fit->slope) || !(fit->slope > 0) || !bal__finite(fit->intercept) ||
        !bal__finite(1.0 / fit->slope))
        return BAL_EFIT;
    m->tstartup = fit->intercept > 0 ? fit->intercept : 0.0;
    m->bandwidth = 1.0 / fit->slope;
    return BAL_OK;
}

/* ------------------------------------------------------------------------
 * Static balancing: eq. 1
 * ------------------------------------------------------------------------ */

/* a * b for a, b >= 0; BAL_EOVERFLOW past INT64_MAX. */
static inline int bal__mul(int64_t a, int64_t b, int64_t *r)
{
    if (a != 0 && b > INT64_MAX / a)
        return BAL_EOVERFLOW;
    *r = a * b;
    return BAL_OK;
}

/* Block distribution: process c of p along an extent x owns x/p points, the
 * first x%p processes one more. */
static inline int64_t bal__local(int64_t x, int p, int c)
{
    return x / p + (c < x % p ? 1 : 0);
}

/* bal_factor_check - validate the arguments of bal_factor (all but the
 * model and the outputs).
 * @bad_index: may be NULL; receives the dimension at fault for the
 *             per-dimension codes (BAL_EPDIMS, BAL_ECOORDS, BAL_EEXTENT,
 *             BAL_EEMPTY, BAL_EDEP), else -1.
 * Checks in this order: NULL pdims/extent/dep (BAL_ENULL), n >= 1, every
 * pdims[i] >= 1, every coords[i] in [0, pdims[i]) (when coords != NULL),
 * threads >= 1, every extent[i] >= 1, pdims[i] <= extent[i] (no process
 * without points), tile_height >= 1, every dep[i] >= 0.
 * Returns 0 or the first error found. */
static inline int bal_factor_check(int n, const int *pdims, const int *coords, int threads,
                                   const int64_t *extent, int64_t tile_height,
                                   const int64_t *dep, int *bad_index)
{
    int i;
    if (bad_index != NULL)
        *bad_index = -1;
    if (pdims == NULL || extent == NULL || dep == NULL)
        return BAL_ENULL;
    if (n < 1)
        return BAL_EDIMS;
    for (i = 0; i < n; i++)
        if (pdims[i] < 1) {
            if (bad_index != NULL)
                *bad_index = i;
            return BAL_EPDIMS;
        }
    if (coords != NULL)
        for (i = 0; i < n; i++)
            if (coords[i] < 0 || coords[i] >= pdims[i]) {
                if (bad_index != NULL)
                    *bad_index = i;
                return BAL_ECOORDS;
            }
    if (threads < 1)
        return BAL_ETHREADS;
    for (i = 0; i < n; i++)
        if (extent[i] < 1) {
            if (bad_index != NULL)
                *bad_index = i;
            return BAL_EEXTENT;
        }
    for (i = 0; i < n; i++)
        if (pdims[i] > extent[i]) {
            if (bad_index != NULL)
                *bad_index = i;
            return BAL_EEMPTY;
        }
    if (tile_height < 1)
        return BAL_ETILEHEIGHT;
    for (i = 0; i < n; i++)
        if (dep[i] < 0) {
            if (bad_index != NULL)
                *bad_index = i;
            return BAL_EDEP;
        }
    return BAL_OK;
}

/* Points per step (*iters) and master communication seconds per step
 * (*comm) of the process at coords (NULL: the paper's average process that
 * sends along every dimension).  Arguments already validated. */
static inline int bal__step_cost(const bal_model *m, int n, const int *pdims, const int *coords,
                                 const int64_t *extent, int64_t z, const int64_t *dep,
                                 double *iters, double *comm)
{
    int64_t v, msg, local;
    int i, j, rc;
    double c = 0;
    if (coords == NULL) {
        /* Constant: V = Xz/P, message_i = d_i P_i (Xz/X_i) / P, real-valued. */
        int64_t xz = z, p = 1;
        for (i = 0; i < n; i++) {
            if ((rc = bal__mul(xz, extent[i], &xz)) != 0)
                return rc;
            if ((rc = bal__mul(p, pdims[i], &p)) != 0)
                return rc;
        }
        *iters = (double)xz / (double)p;
        for (i = 0; i < n; i++) {
            if (dep[i] == 0)
                continue;
            /* xz / extent[i] is exact: z * prod_{j != i} X_j */
            c += bal_tcomm(m, (double)dep[i] * (double)pdims[i] *
                                  (double)(xz / extent[i]) / (double)p);
        }
        *comm = c;
        return BAL_OK;
    }
    /* Variable: this process's own block, V = z * prod local_j, and
     * message_i = d_i * z * prod_{j != i} local_j along every dimension i
     * where it has a successor (P_i > 1, coords[i] < P_i - 1) and d_i > 0. */
    v = z;
    for (i = 0; i < n; i++)
        if ((rc = bal__mul(v, bal__local(extent[i], pdims[i], coords[i]), &v)) != 0)
            return rc;
    *iters = (double)v;
    for (i = 0; i < n; i++) {
        if (pdims[i] == 1 || coords[i] >= pdims[i] - 1 || dep[i] == 0)
            continue;
        if ((rc = bal__mul(dep[i], z, &msg)) != 0)
            return rc;
        for (j = 0; j < n; j++) {
            if (j == i)
                continue;
            local = bal__local(extent[j], pdims[j], coords[j]);
            if ((rc = bal__mul(msg, local, &msg)) != 0)
                return rc;
        }
        c += bal_tcomm(m, (double)msg);
    }
    *comm = c;
    return BAL_OK;
}

/* bal_factor - the balancing factor of eq. 1 (Lemma 1).
 * @m:           the cost model (bal_model_check rules);
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
 * The master then computes bal/T of the process's points per step, each
 * other thread (T-bal)/(T(T-1)); see bal_split.
 * Returns 0, BAL_ENULL, a model error, a bal_factor_check error or
 * BAL_EOVERFLOW (the block volume or a message size exceeds int64). */
static inline int bal_factor(const bal_model *m, int n, const int *pdims, const int *coords,
                             int threads, const int64_t *extent, int64_t tile_height,
                             const int64_t *dep, double *bal, int *clamped)
{
    double iters = 0, comm = 0, b;
    int rc;
    if (clamped != NULL)
        *clamped = 0;
    if ((rc = bal_model_check(m)) != 0)
        return rc;
    if ((rc = bal_factor_check(n, pdims, coords, threads, extent, tile_height, dep, NULL)) != 0)
        return rc;
    if (bal == NULL)
        return BAL_ENULL;
    if ((rc = bal__step_cost(m, n, pdims, coords, extent, tile_height, dep, &iters, &comm)) != 0)
        return rc;
    if (threads == 1) {
        *bal = 1.0;
        return BAL_OK;
    }
    b = 1.0 - (double)(threads - 1) * comm / bal_tcomp(m, iters);
    if (!(b >= 0.0)) { /* also catches -inf */
        b = 0.0;
        if (clamped != NULL)
            *clamped = 1;
    } else if (b > 1.0) {
        b = 1.0;
        if (clamped != NULL)
            *clamped = 1;
    }
    *bal = b;
    return BAL_OK;
}

/* bal_tile_times - the model's time per step (tile) of each thread under a
 * given factor, eq. 7-8 of the paper: what bal_factor equalises.
 * Arguments as bal_factor up to @dep (coords NULL = constant mode), then
 * @bal:      the factor in [0,1] to evaluate;
 * @t_master: receives t_comp(bal/T * V) + sum of the master's t_comm;
 * @t_other:  receives t_comp((T-bal)/(T(T-1)) * V) of each other thread
 *            (0 when T == 1), V = points per step of the process.
 * Returns 0 or an error as bal_factor, BAL_EBAL for a bad bal. */
static inline int bal_tile_times(const bal_model *m, int n, const int *pdims, const int *coords,
                                 int threads, const int64_t *extent, int64_t tile_height,
                                 const int64_t *dep, double bal, double *t_master,
                                 double *t_other)
{
    double iters = 0, comm = 0;
    int rc;
    if ((rc = bal_model_check(m)) != 0)
        return rc;
    if ((rc = bal_factor_check(n, pdims, coords, threads, extent, tile_height, dep, NULL)) != 0)
        return rc;
    if (!bal__finite(bal) || bal < 0 || bal > 1)
        return BAL_EBAL;
    if (t_master == NULL || t_other == NULL)
        return BAL_ENULL;
    if ((rc = bal__step_cost(m, n, pdims, coords, extent, tile_height, dep, &iters, &comm)) != 0)
        return rc;
    *t_master = bal_tcomp(m, bal / threads * iters) + comm;
    *t_other = threads == 1 ? 0.0
                            : bal_tcomp(m, (threads - bal) / ((double)threads * (threads - 1)) *
                                               iters);
    return BAL_OK;
}

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
        return BAL_ETOTAL;
    if (parts < 1)
        return BAL_EPARTS;
    if (!bal__finite(bal) || bal < 0 || bal > 1)
        return BAL_EBAL;
    return BAL_OK;
}

/* bal_split - split @total units (points, rows, ...) of one step into
 * @parts contiguous ranges: part 0 for the master thread, parts 1..parts-1
 * for the others, in this order.
 * @bal:    the factor in [0,1] (bal_factor or the adaptive state's bal);
 * @counts: receives parts counts; counts[i] units go to part i, and part i
 *          starts at counts[0] + ... + counts[i-1].
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
 * Returns 0, BAL_ETOTAL (< 0), BAL_EPARTS (< 1), BAL_EBAL or BAL_ENULL. */
static inline int bal_split(int64_t total, int parts, double bal, int64_t *counts)
{
    int64_t master, rest, each, extra;
    int i, rc;
    if ((rc = bal__split_check(total, parts, bal)) != 0)
        return rc;
    if (counts == NULL)
        return BAL_ENULL;
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

/* bal_split_part - one part of bal_split without an array: for a thread
 * that computes its own range inside a parallel region.
 * @part:  0 (master) .. parts-1;
 * @first: receives the first unit of the part (0-based);
 * @count: receives its number of units; identical to bal_split's counts[part].
 * Returns 0 or the errors of bal_split, BAL_EPART for a bad part. */
static inline int bal_split_part(int64_t total, int parts, double bal, int part, int64_t *first,
                                 int64_t *count)
{
    int64_t master, rest, each, extra, j;
    int rc;
    if ((rc = bal__split_check(total, parts, bal)) != 0)
        return rc;
    if (part < 0 || part >= parts)
        return BAL_EPART;
    if (first == NULL || count == NULL)
        return BAL_ENULL;
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

/* bal_lemma2 - the corrected factor from measured master times, eq. 2:
 *     bal' = 1 - bal (T-1)/T * tcomm_master / tcomp_master, clamped to [0,1].
 * @bal:          the factor in force while measuring, in [0,1];
 * @threads:      T >= 1 (T == 1 gives 1);
 * @tcomp_master: the master's computation time (an average per step, or a
 *                sum over steps: only the ratio matters), finite, >= 0;
 * @tcomm_master: its non-overlapped communication time over the same steps
 *                (packing, MPI calls, waiting, unpacking), finite, >= 0;
 * @next:         receives bal'.
 * Under the model (computation proportional to the share, communication
 * independent of the split) bal' is the optimum of eq. 1 whatever bal was.
 * Returns 0, BAL_EBAL, BAL_ETHREADS, BAL_ETIME, BAL_ENULL, or BAL_ENOINFO
 * when tcomp_master == 0 (the master computed nothing, so its rate is
 * unknown); then *next = bal. */
static inline int bal_lemma2(double bal, int threads, double tcomp_master, double tcomm_master,
                             double *next)
{
    double b;
    if (!bal__finite(bal) || bal < 0 || bal > 1)
        return BAL_EBAL;
    if (threads < 1)
        return BAL_ETHREADS;
    if (!bal__finite(tcomp_master) || tcomp_master < 0 || !bal__finite(tcomm_master) ||
        tcomm_master < 0)
        return BAL_ETIME;
    if (next == NULL)
        return BAL_ENULL;
    if (threads == 1) {
        *next = 1.0;
        return BAL_OK;
    }
    if (tcomp_master == 0) {
        *next = bal;
        return BAL_ENOINFO;
    }
    b = 1.0 - bal * (threads - 1) / threads * tcomm_master / tcomp_master;
    *next = b < 0 ? 0.0 : (b > 1 ? 1.0 : b);
    return BAL_OK;
}

/* bal_sampling_steps - the paper's sampling period, 2PT steps: long enough
 * for the pipeline's wavefront to reach the farthest process (it needs more
 * than PT steps) and then measure a full pipeline.
 * Returns 0, BAL_EPROCS (procs < 1), BAL_ETHREADS or BAL_ENULL. */
static inline int bal_sampling_steps(int procs, int threads, int64_t *steps)
{
    if (procs < 1)
        return BAL_EPROCS;
    if (threads < 1)
        return BAL_ETHREADS;
    if (steps == NULL)
        return BAL_ENULL;
    *steps = 2 * (int64_t)procs * (int64_t)threads;
    return BAL_OK;
}

#define BAL_ADAPTIVE_MIN_BAL 0.01   /* default floor of the adaptive factor */
#define BAL_ADAPTIVE_DEADBAND 0.001 /* default smallest change applied */

/* The adaptive balancing state machine.  A plain struct: initialise with
 * bal_adaptive_init, then feed one bal_adaptive_step per step; read st.bal.
 * No clock inside: the caller measures.  POLICY, exactly:
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
 *       (returns 0); otherwise bal = new and the step returns 1.
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
 *   phase of heavy communication; with bal_split the master gets >= 1 point
 *   whenever bal > 0 and the step has >= parts points.
 *
 * Fields marked (rw) may be changed between steps; the others are read-only. */
typedef struct bal_adaptive {
    double bal;           /* the factor to apply now, in [min_bal, 1] after the first evaluation */
    double smoothing;     /* (rw) in (0,1]; 1 = the paper's jump to eq. 2 */
    double min_bal;       /* (rw) floor in [0,1], default BAL_ADAPTIVE_MIN_BAL */
    double deadband;      /* (rw) >= 0, default BAL_ADAPTIVE_DEADBAND */
    int threads;          /* T */
    int64_t sample_steps; /* the first window, e.g. bal_sampling_steps */
    int64_t period;       /* steps between evaluations after the first, 0 = once */
    int64_t step;         /* steps fed so far */
    int64_t next_eval;    /* the step at whose end the next evaluation happens */
    int64_t window;       /* length of the current window */
    int64_t evaluations;  /* evaluations done */
    int64_t changes;      /* evaluations that changed bal */
    double sum_comp;      /* master computation time in the current window */
    double sum_comm;      /* master communication time in the current window */
    double last_target;   /* Lemma 2's value at the last evaluation, -1 if none or no information */
    int done;             /* 1 when period == 0 and the only evaluation happened */
} bal_adaptive;

/* bal_adaptive_init - start the state machine.
 * @bal0:         the starting factor in [0,1]: a static factor (bal_factor),
 *                or 1 (no balancing) when nothing is known;
 * @threads:      T >= 1;
 * @sample_steps: >= 1, the first sampling window (bal_sampling_steps: 2PT);
 * @period:       >= 0, steps between later re-evaluations; 0 = evaluate only
 *                once, after the sampling period (the paper);
 * @smoothing:    in (0,1], see the policy above.
 * min_bal and deadband get their defaults; change them after init if needed.
 * Returns 0 or BAL_ENULL, BAL_EBAL, BAL_ETHREADS, BAL_ESAMPLESTEPS,
 * BAL_EPERIOD, BAL_ESMOOTHING (st untouched on error). */
static inline int bal_adaptive_init(bal_adaptive *st, double bal0, int threads,
                                    int64_t sample_steps, int64_t period, double smoothing)
{
    if (st == NULL)
        return BAL_ENULL;
    if (!bal__finite(bal0) || bal0 < 0 || bal0 > 1)
        return BAL_EBAL;
    if (threads < 1)
        return BAL_ETHREADS;
    if (sample_steps < 1)
        return BAL_ESAMPLESTEPS;
    if (period < 0)
        return BAL_EPERIOD;
    if (!bal__finite(smoothing) || !(smoothing > 0) || smoothing > 1)
        return BAL_ESMOOTHING;
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

/* bal_adaptive_step - feed the master thread's times of one step.
 * @tcomp_master: its computation time in this step, finite, >= 0;
 * @tcomm_master: its non-overlapped communication time, finite, >= 0.
 * Returns 1 when st->bal has just changed (apply it from the next step on),
 * 0 when not, BAL_ENULL, BAL_ETIME (bad time: the step is not counted and
 * the state is unchanged) or BAL_ESTATE (bal, min_bal, smoothing, deadband
 * out of range). */
static inline int bal_adaptive_step(bal_adaptive *st, double tcomp_master, double tcomm_master)
{
    double target = 0, nb;
    if (st == NULL)
        return BAL_ENULL;
    if (!bal__finite(tcomp_master) || tcomp_master < 0 || !bal__finite(tcomm_master) ||
        tcomm_master < 0)
        return BAL_ETIME;
    if (!bal__finite(st->bal) || st->bal < 0 || st->bal > 1 || !bal__finite(st->min_bal) ||
        st->min_bal < 0 || st->min_bal > 1 || !bal__finite(st->deadband) || st->deadband < 0 ||
        !bal__finite(st->smoothing) || !(st->smoothing > 0) || st->smoothing > 1 ||
        st->threads < 1 || st->window < 1)
        return BAL_ESTATE;
    st->step++;
    if (st->done)
        return 0;
    if (st->step > st->next_eval - st->window) {
        st->sum_comp += tcomp_master;
        st->sum_comm += tcomm_master;
    }
    if (st->step < st->next_eval)
        return 0;
    /* evaluation */
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
    if (nb < st->min_bal)
        nb = st->min_bal;
    if (nb > 1)
        nb = 1;
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
        return 0;
    st->bal = nb;
    st->changes++;
    return 1;
}

/* ------------------------------------------------------------------------
 * Communication calibration by ping-pong (MPI)
 * ------------------------------------------------------------------------ */
#ifndef TILEHYBRID_NO_MPI

#define BAL_PINGPONG_TAG 31011 /* the tag bal_calibrate_comm uses */
#define BAL_PINGPONG_SIZES 8   /* message sizes: k * max_bytes / 7, k = 0..7 */
#define BAL_PINGPONG_PASSES 8  /* at most this many measurement passes */

/* One round trip of `bytes` (the leader sends first); *dt = its duration
 * on the leader. */
static inline int bal__roundtrip(MPI_Comm comm, int peer, int leader, char *buf, int bytes,
                                 double *dt)
{
    MPI_Status status;
    double t0 = MPI_Wtime();
    if (leader) {
        if (MPI_Send(buf, bytes, MPI_BYTE, peer, BAL_PINGPONG_TAG, comm) != MPI_SUCCESS ||
            MPI_Recv(buf, bytes, MPI_BYTE, peer, BAL_PINGPONG_TAG, comm, &status) != MPI_SUCCESS)
            return BAL_EMPI;
    } else if (MPI_Recv(buf, bytes, MPI_BYTE, peer, BAL_PINGPONG_TAG, comm, &status) !=
                   MPI_SUCCESS ||
               MPI_Send(buf, bytes, MPI_BYTE, peer, BAL_PINGPONG_TAG, comm) != MPI_SUCCESS) {
        return BAL_EMPI;
    }
    *dt = MPI_Wtime() - t0;
    return BAL_OK;
}

/* bal_calibrate_comm - measure t_comm by ping-pong with one peer and fit
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
 *             bal_model_set_comm.  A poor r2 or a large max_resid means the
 *             affine model fits badly (e.g. an eager/rendezvous protocol
 *             switch inside the range) or the machine was busy.
 * Procedure: a handshake checks that both passed the same max_bytes and
 * reps and could allocate their buffer (else both return BAL_EMISMATCH);
 * one warm-up round trip at max_bytes; then passes of reps rounds.  After
 * each pass the leader fits the minima so far; when the slope is positive
 * or after BAL_PINGPONG_PASSES passes it stops, and sends the fit to the
 * peer.  Not collective: only the pair communicates, with tag
 * BAL_PINGPONG_TAG (no other traffic with that tag may be pending between
 * them).  Call from one thread (under MPI_THREAD_FUNNELED, the master).
 * Returns 0 (then fit->slope > 0), BAL_ENULL, BAL_ENOPEER without
 * communicating (peer == MPI_PROC_NULL, this rank or not in comm: e.g. a
 * 1-process run), then BAL_EMSGSIZE, BAL_EREPS, BAL_EMISMATCH, BAL_ENOMEM,
 * BAL_EMPI (an MPI call failed) or BAL_EFIT (the slope stayed <= 0: the
 * timings are dominated by noise; *fit holds that fit anyway). */
static inline int bal_calibrate_comm(MPI_Comm comm, int peer, int max_bytes, int reps,
                                     bal_fit *fit)
{
    int rank, size, k, r, pass, leader, mine[3], theirs[3], rc = BAL_OK;
    char *buf = NULL;
    double x[BAL_PINGPONG_SIZES], y[BAL_PINGPONG_SIZES], out[6], dt = 0;
    MPI_Status status;
    if (fit == NULL)
        return BAL_ENULL;
    if (MPI_Comm_rank(comm, &rank) != MPI_SUCCESS || MPI_Comm_size(comm, &size) != MPI_SUCCESS)
        return BAL_EMPI;
    if (peer == MPI_PROC_NULL || peer < 0 || peer >= size || peer == rank)
        return BAL_ENOPEER;
    /* Handshake, even when our own arguments are bad, so that the peer
     * never waits for a partner that has given up. */
    if (max_bytes >= 1)
        buf = (char *)malloc((size_t)max_bytes);
    mine[0] = max_bytes;
    mine[1] = reps;
    mine[2] = (max_bytes >= 1 && buf == NULL) ? 1 : 0;
    if (MPI_Sendrecv(mine, 3, MPI_INT, peer, BAL_PINGPONG_TAG, theirs, 3, MPI_INT, peer,
                     BAL_PINGPONG_TAG, comm, &status) != MPI_SUCCESS) {
        free(buf);
        return BAL_EMPI;
    }
    if (max_bytes < 1)
        rc = BAL_EMSGSIZE;
    else if (reps < 1)
        rc = BAL_EREPS;
    else if (mine[2])
        rc = BAL_ENOMEM;
    else if (theirs[0] != mine[0] || theirs[1] != mine[1] || theirs[2] != 0)
        rc = BAL_EMISMATCH;
    if (rc != BAL_OK) {
        free(buf);
        return rc;
    }
    memset(buf, 0, (size_t)max_bytes);
    leader = rank < peer;
    for (k = 0; k < BAL_PINGPONG_SIZES; k++) {
        x[k] = (double)((int64_t)k * max_bytes / (BAL_PINGPONG_SIZES - 1));
        y[k] = -1;
    }
    rc = bal__roundtrip(comm, peer, leader, buf, max_bytes, &dt); /* warm-up */
    out[0] = 1; /* leader's verdict: 1 = measure another pass */
    for (pass = 0; rc == BAL_OK && out[0] == 1; pass++) {
        for (r = 0; r < reps && rc == BAL_OK; r++)
            for (k = 0; k < BAL_PINGPONG_SIZES && rc == BAL_OK; k++) {
                rc = bal__roundtrip(comm, peer, leader, buf, (int)x[k], &dt);
                if (y[k] < 0 || dt / 2 < y[k])
                    y[k] = dt / 2; /* one way */
            }
        if (rc != BAL_OK)
            break;
        if (leader) {
            bal_fit f;
            int frc = bal_fit_affine(x, y, BAL_PINGPONG_SIZES, &f);
            if (frc == 0 && !(f.slope > 0))
                frc = BAL_EFIT;
            out[0] = (frc == BAL_EFIT && pass + 1 < BAL_PINGPONG_PASSES) ? 1 : 0;
            out[1] = frc;
            out[2] = frc == 0 || frc == BAL_EFIT ? f.intercept : 0;
            out[3] = frc == 0 || frc == BAL_EFIT ? f.slope : 0;
            out[4] = frc == 0 || frc == BAL_EFIT ? f.r2 : 0;
            out[5] = frc == 0 || frc == BAL_EFIT ? f.max_resid : 0;
            if (MPI_Send(out, 6, MPI_DOUBLE, peer, BAL_PINGPONG_TAG, comm) != MPI_SUCCESS)
                rc = BAL_EMPI;
        } else if (MPI_Recv(out, 6, MPI_DOUBLE, peer, BAL_PINGPONG_TAG, comm, &status) !=
                   MPI_SUCCESS) {
            rc = BAL_EMPI;
        }
    }
    free(buf);
    if (rc != BAL_OK)
        return rc;
    if (out[1] != 0 && out[1] != BAL_EFIT)
        return (int)out[1];
    fit->intercept = out[2];
    fit->slope = out[3];
    fit->r2 = out[4];
    fit->max_resid = out[5];
    fit->n = BAL_PINGPONG_SIZES;
    return (int)out[1];
}

/* bal_calibrate_comm_all - collective ping-pong calibration: ranks 2k and
 * 2k+1 of comm pair up (with an odd size the last rank only waits), every
 * pair runs bal_calibrate_comm on a duplicate of comm, and every rank
 * receives the same combined fit: the mean intercept and slope over the
 * pairs that got a fit with a positive slope, the smallest r2 and the
 * largest max_resid among them, n = BAL_PINGPONG_SIZES.
 * @max_bytes, @reps: as bal_calibrate_comm, the same on every rank.
 * Returns the same code on every rank: 0, BAL_ENOPEER when comm has a
 * single process (nothing is measured, nothing hangs), BAL_EFIT when no
 * pair got a positive slope, the smallest (most negative) other error of
 * any rank, or BAL_EMPI. */
static inline int bal_calibrate_comm_all(MPI_Comm comm, int max_bytes, int reps, bal_fit *fit)
{
    int rank, size, rc = BAL_OK, all, peer;
    MPI_Comm dup;
    bal_fit f = {0, 0, 0, 0, 0};
    double in[3], sum[3], mn, mx, r2 = 2, mr = -1;
    if (MPI_Comm_rank(comm, &rank) != MPI_SUCCESS || MPI_Comm_size(comm, &size) != MPI_SUCCESS)
        return BAL_EMPI;
    if (size < 2)
        return BAL_ENOPEER;
    if (fit == NULL)
        rc = BAL_ENULL;
    else if (max_bytes < 1)
        rc = BAL_EMSGSIZE;
    else if (reps < 1)
        rc = BAL_EREPS;
    if (MPI_Allreduce(&rc, &all, 1, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS)
        return BAL_EMPI;
    if (all != BAL_OK)
        return all;
    if (MPI_Comm_dup(comm, &dup) != MPI_SUCCESS)
        return BAL_EMPI;
    peer = rank ^ 1;
    in[0] = in[1] = in[2] = 0;
    if (peer < size) {
        rc = bal_calibrate_comm(dup, peer, max_bytes, reps, &f);
        if (rc == BAL_OK) {
            in[0] = f.intercept;
            in[1] = f.slope;
            in[2] = 1;
            r2 = f.r2;
            mr = f.max_resid;
        } else if (rc == BAL_EFIT) {
            rc = BAL_OK; /* a noisy pair: left out of the mean */
        }
    }
    if (MPI_Allreduce(&rc, &all, 1, MPI_INT, MPI_MIN, dup) != MPI_SUCCESS ||
        MPI_Allreduce(in, sum, 3, MPI_DOUBLE, MPI_SUM, dup) != MPI_SUCCESS ||
        MPI_Allreduce(&r2, &mn, 1, MPI_DOUBLE, MPI_MIN, dup) != MPI_SUCCESS ||
        MPI_Allreduce(&mr, &mx, 1, MPI_DOUBLE, MPI_MAX, dup) != MPI_SUCCESS) {
        MPI_Comm_free(&dup);
        return BAL_EMPI;
    }
    if (MPI_Comm_free(&dup) != MPI_SUCCESS)
        return BAL_EMPI;
    if (all != BAL_OK)
        return all;
    if (sum[2] == 0)
        return BAL_EFIT;
    fit->intercept = sum[0] / sum[2];
    fit->slope = sum[1] / sum[2];
    fit->r2 = mn;
    fit->max_resid = mx;
    fit->n = BAL_PINGPONG_SIZES;
    return BAL_OK;
}

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

/** bal_config_init() - the defaults: BAL_POLICY_FIXED with bal = 1. */
static inline void bal_config_init(bal_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->policy = BAL_POLICY_FIXED;
    cfg->bal = 1.0;
}

/**
 * bal_config_check() - validate a configuration (no communication).
 * @cfg: the configuration.
 * Return: BAL_OK; BAL_EBAL (bal outside [0, 1] or NaN); BAL_EPOLICY (an
 * unknown policy, or CUSTOM without fn); BAL_ETCOMP, BAL_ETSTARTUP,
 * BAL_EBANDWIDTH (a cost below 0 or NaN); BAL_ESAMPLESTEPS, BAL_EPERIOD,
 * BAL_ESMOOTHING (adaptive settings out of range).
 */
static inline int bal_config_check(const bal_config *cfg)
{
    if (cfg == NULL)
        return BAL_ENULL;
    if (!(cfg->bal >= 0.0 && cfg->bal <= 1.0))
        return BAL_EBAL;
    if (cfg->policy < BAL_POLICY_FIXED || cfg->policy > BAL_POLICY_CUSTOM ||
        (cfg->policy == BAL_POLICY_CUSTOM && cfg->fn == NULL))
        return BAL_EPOLICY;
    if (!(cfg->tcomp >= 0.0) || !bal__finite(cfg->tcomp))
        return BAL_ETCOMP;
    if (!(cfg->tstartup >= 0.0) || !bal__finite(cfg->tstartup))
        return BAL_ETSTARTUP;
    if (!(cfg->bandwidth >= 0.0) || !bal__finite(cfg->bandwidth))
        return BAL_EBANDWIDTH;
    if (cfg->adapt_sample < 0)
        return BAL_ESAMPLESTEPS;
    if (cfg->adapt_period < -1)
        return BAL_EPERIOD;
    if (!(cfg->adapt_smoothing >= 0.0 && cfg->adapt_smoothing <= 1.0))
        return BAL_ESMOOTHING;
    return BAL_OK;
}

/* A policy that moves the split at all: CONSTANT/VARIABLE need a cost model. */
static inline int bal__uses_model(const bal_policy *pol)
{
    return pol->where.threads > 1 && (pol->cfg.policy == BAL_POLICY_CONSTANT ||
                                      pol->cfg.policy == BAL_POLICY_VARIABLE);
}

/**
 * bal_policy_init() - bind a configuration to a process (no communication).
 * @pol:   the policy to fill.
 * @cfg:   the configuration (copied; bal_config_check rules).
 * @where: the process (copied).
 * The cost model starts from @cfg's costs; bal_policy_setup completes it.
 * Return: BAL_OK or a bal_config_check code.
 */
static inline int bal_policy_init(bal_policy *pol, const bal_config *cfg, const bal_where *where)
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

/**
 * bal_policy_start() - the start of a run: the first tile's factor.
 * @pol: the policy (after bal_policy_setup).
 * FIXED and ADAPTIVE start at cfg.bal; CONSTANT and VARIABLE at eq. 1 when
 * t_comp is known, else at 1 until the master's first tile has measured it;
 * CUSTOM asks fn for each tile.  With one thread the factor is 1.
 */
static inline void bal_policy_start(bal_policy *pol)
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
        if (bal_adaptive_step(&pol->adapt, dcomp, dcomm) == 1)
            pol->now = pol->adapt.bal;
    } else if (bal__uses_model(pol) && pol->model.tcomp <= 0.0 && points > 0 && compute > 0.0) {
        pol->model.tcomp = compute / (double)points;
        bal__policy_eq1(pol);
    }
    return pol->now != before;
}

#ifndef TILEHYBRID_NO_MPI
/* Are the environment's costs usable on every rank, and do all ranks agree
 * on measuring the network?  (Collective: a rank that measured alone would
 * wait for its partner forever.) */
static inline int bal__policy_env(bal_policy *pol, MPI_Comm comm, const char **why)
{
    bal_model env;
    int found = 0, rc, mine[2], lo[2], hi[2];
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
    mine[0] = rc != BAL_OK;
    mine[1] = pol->model.bandwidth <= 0.0;
    if (MPI_Allreduce(mine, lo, 2, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS ||
        MPI_Allreduce(mine, hi, 2, MPI_INT, MPI_MAX, comm) != MPI_SUCCESS) {
        *why = "MPI_Allreduce failed while comparing the cost models";
        return BAL_EMPI;
    }
    if (rc != BAL_OK) {
        *why = bal_strerror(rc);
        return rc;
    }
    if (hi[0] != 0) {
        *why = "another rank rejected its TILEHYBRID_* environment";
        return BAL_EENV_REMOTE;
    }
    if (lo[1] != hi[1]) {
        *why = "TILEHYBRID_BANDWIDTH is set on some ranks only: the network would be measured "
               "by some ranks only";
        return BAL_EMISMATCH;
    }
    return BAL_OK;
}

/* The largest face of the largest block, 64 KiB to 4 MiB (the same on every
 * rank): the ping-pong's message size. */
static inline int bal__policy_face(const bal_where *w)
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

/**
 * bal_policy_setup() - complete the cost model (collective over @comm).
 * @pol:  the policy (bal_policy_init).
 * @comm: the plan's communicator; every rank calls.
 * @why:  receives a message for an error (static text).
 * CONSTANT and VARIABLE only (the others return at once, without
 * communicating): costs not given come from the TILEHYBRID_* environment,
 * the network (t_startup, bandwidth) by a ping-pong between rank pairs
 * (bal_calibrate_comm_all) when still unknown; t_comp is measured during
 * the run.  Timings too noisy to fit leave the policy uncalibrated (factor
 * 1, the same answer on every rank).
 * Return: the same code on every rank: BAL_OK; an environment error;
 * BAL_EENV_REMOTE (another rank's environment is bad); BAL_EMISMATCH
 * (TILEHYBRID_BANDWIDTH set on some ranks only); BAL_EMPI.
 */
static inline int bal_policy_setup(bal_policy *pol, MPI_Comm comm, const char **why)
{
    int rc;
    bal_fit fit;
    *why = "";
    if (!bal__uses_model(pol))
        return BAL_OK;
    rc = bal__policy_env(pol, comm, why);
    if (rc != BAL_OK || pol->model.bandwidth > 0.0)
        return rc;
    if (pol->where.procs == 1) {
        pol->model.bandwidth = 1e300; /* one process sends nothing */
        return BAL_OK;
    }
    rc = bal_calibrate_comm_all(comm, bal__policy_face(&pol->where), 3, &fit);
    if (rc == BAL_OK)
        rc = bal_model_set_comm(&pol->model, &fit);
    if (rc == BAL_EFIT || (rc != BAL_OK && rc != BAL_EMPI)) {
        /* too noisy to fit (the same answer on every rank): no cost model */
        pol->model.tstartup = 0.0;
        pol->model.bandwidth = 1e300;
        pol->uncalibrated = 1;
        return BAL_OK;
    }
    if (rc != BAL_OK)
        *why = "MPI failed while measuring the network for balancing";
    return rc;
}
#endif /* TILEHYBRID_NO_MPI */

#ifdef __cplusplus
}
#endif

#endif /* TILEHYBRID_BALANCE_H */
