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
