/* ------------------------------------------------------------------------
 * Cost model
 * ------------------------------------------------------------------------ */

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

/* bal_model_check() -- documented at its declaration (05-api.h). */
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

/* bal_tcomp() -- documented at its declaration (05-api.h). */
static inline double bal_tcomp(const bal_model *m, double iterations)
{
    return iterations * m->tcomp;
}

/* bal_tcomm() -- documented at its declaration (05-api.h). */
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

/* bal_model_from_env() -- documented at its declaration (05-api.h). */
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

/* bal_fit_tcomp() -- documented at its declaration (05-api.h). */
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

/* bal_model_set_comm() -- documented at its declaration (05-api.h). */
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
#endif
