/* ------------------------------------------------------------------------ */
/* Errors, names, defaults                                                  */

#if TILEHYBRID__DEFINE
/** tile_strerror() - the text of an error code (never NULL). */
TILEHYBRID__COLD const char *tile_strerror(int err)
{
    static const char *const msg[] = {
        "success",
        "a required pointer argument is NULL",
        "number of dimensions N out of range",
        "an extent (X_i or Z) is below 1",
        "a dependence distance is negative or too large",
        "tile height below 1",
        "element size 0 or above 2^30 bytes",
        "process grid impossible or not matching the number of processes",
        "invalid thread count or thread grid",
        "more processes or threads than points along a dimension",
        "a dependence is wider than a process's block (data would come from a non-neighbour)",
        "arguments differ between MPI ranks",
        "MPI does not provide the thread support level this model needs",
        "threads requested but the program was compiled without OpenMP",
        "unknown model, or a step macro that does not match the plan's model",
        "balancing factor outside [0, 1]",
        "out of memory, or the plan would pass its memory limit (cfg.mem_limit)",
        "size overflow (above 2^63, or a count above what MPI can send)",
        "an MPI call failed",
        ("the loop body left its point with break, left its point unwritten, or did not "
         "finish a run (return); or a call that needs the plan idle came from its body or "
         "a hook"),
        "invalid balancing policy or cost model",
        "storage or order is not one of its enum values",
        "a stencil vector or loop direction that the plan cannot run",
        "TILE_AT with a type whose size is not the element size, or an undeclared offset",
        "a tile, Z range, box, root or option outside its range",
        "the data asked for is not stored (no completed run, or planes the Z window dropped)",
        "the output hook returned an error",
        "a reduction used on a plan it is not declared on, or with the wrong operation",
        "the plan skews its stencil: its blocks are not boxes of the user's space",
        "configuration fields that exclude each other are both set",
        ("a checkpoint that is not this program's (another configuration or process "
         "count), truncated or damaged, or whose file could not be renamed into place"),
    };
    if (err < 0 || err >= TILE_ERR_COUNT_)
        return "unknown tiling error code";
    return msg[err];
}

/**
 * tile_config_init() - the defaults for n distributed dimensions.
 * @cfg: the configuration to fill.
 * @n:   N.
 * Extents, Z and tile height 1, dependences 1 (d_Z = 1), no stencil, every
 * loop upward, doubles, pure MPI,
 * one thread, communication-optimal grid, an even thread split, windowed
 * storage, the order the plan chooses (TILE_ORDER_AUTO), zero boundary.
 */
TILEHYBRID__COLD void tile_config_init(tile_config *cfg, int n)
{
    int i;
    memset(cfg, 0, sizeof *cfg);
    cfg->n = n;
    for (i = 0; i < TILE_MAX_DIMS; i++) {
        cfg->extent[i] = 1;
        cfg->dep[i] = 1;
    }
    for (i = 0; i <= TILE_MAX_DIMS; i++) {
        cfg->dir[i] = 1;
        cfg->loop_order[i] = -1;
    }
    cfg->zlen = 1;
    cfg->depz = 1;
    cfg->tile_height = 0;
    cfg->elem_size = sizeof(double);
    cfg->model = TILE_MODEL_MPI;
    cfg->threads = 1;
    cfg->grid_policy = TILE_GRID_COMM;
    bal_config_init(&cfg->balance);
    cfg->storage = TILE_STORE_WINDOW;
    cfg->order = TILE_ORDER_AUTO;
}

/**
 * tile_config_stencil() - declare the stencil from text.
 * @cfg:  the configuration (cfg->n already set).
 * @text: the offset vectors the body reads, separated by spaces, each N + 1
 *        whole numbers separated by commas, in the user's coordinates
 *        (o_1, ..., o_N, o_Z): "-1,-1,0 -1,0,0 0,-1,0 0,0,-1".
 * @st:   NULL, or receives the vector at fault (index = its number).
 *
 * Sets cfg->nstencil and cfg->stencil, and dep[] and depz to 0 (the
 * stencil replaces the axis-aligned shorthand).  Whether the vectors can
 * run (each earlier than the point in the loop order, cfg->loop_order and
 * cfg->dir; one later along some dimension makes the plan skew) is checked
 * by tile_plan_create.  On error cfg is unchanged.
 * Return: TILE_OK, TILE_ERR_NULL, TILE_ERR_NDIMS (cfg->n out of range) or
 * TILE_ERR_STENCIL (a vector without N + 1 numbers, a number that is not a
 * whole number in -2^30..2^30, no vector, more than TILE_MAX_STENCIL).
 */
TILEHYBRID__COLD int tile_config_stencil(tile_config *cfg, const char *text, tilehybrid_status *st)
{
    int v[TILE_MAX_STENCIL][TILE_MAX_DIMS + 1], k = 0, i;
    const char *s = text;
    memset(v, 0, sizeof v);
    if (cfg == NULL || text == NULL)
        return tilehybrid_status_set(st, TILE_ERR_NULL, cfg == NULL ? "cfg" : "text", -1);
    if (cfg->n < 1 || cfg->n > TILE_MAX_DIMS)
        return tilehybrid_status_set(st, TILE_ERR_NDIMS, "n", -1);
    for (;;) {
        while (*s == ' ' || *s == '\t' || *s == '\n')
            s++;
        if (*s == '\0')
            break;
        if (k == TILE_MAX_STENCIL)
            return tilehybrid_status_set(st, TILE_ERR_STENCIL, "text", k);
        for (i = 0; i <= cfg->n; i++) {
            char num[24];
            size_t len = 0;
            int64_t x;
            while (s[len] != '\0' && s[len] != ',' && s[len] != ' ' && s[len] != '\t' &&
                   s[len] != '\n' && len < sizeof num - 1)
                len++;
            memcpy(num, s, len);
            num[len] = '\0';
            if (tilehybrid_parse_i64(num, -(1 << 30), 1 << 30, &x) != TILEHYBRID_OK ||
                (i < cfg->n && s[len] != ',') ||
                (i == cfg->n && s[len] != '\0' && s[len] != ' ' && s[len] != '\t' &&
                 s[len] != '\n'))
                return tilehybrid_status_set(st, TILE_ERR_STENCIL, "text", k);
            v[k][i] = (int)x;
            s += len + (i < cfg->n);
        }
        k++;
    }
    if (k == 0)
        return tilehybrid_status_set(st, TILE_ERR_STENCIL, "text", -1);
    memset(cfg->stencil, 0, sizeof cfg->stencil);
    memcpy(cfg->stencil, v, sizeof v[0] * (size_t)k);
    cfg->nstencil = k;
    for (i = 0; i < TILE_MAX_DIMS; i++)
        cfg->dep[i] = 0;
    cfg->depz = 0;
    return tilehybrid_status_set(st, TILE_OK, "", -1);
}
#else
TILEHYBRID__COLD const char *tile_strerror(int err);
TILEHYBRID__COLD void tile_config_init(tile_config *cfg, int n);
TILEHYBRID__COLD int tile_config_stencil(tile_config *cfg, const char *text, tilehybrid_status *st);
#endif

/** tile_model_name() - "mpi", "fine", "funneled", "multiple", or NULL. */
static inline const char *tile_model_name(int model)
{
    switch (model) {
    case TILE_MODEL_MPI: return "mpi";
    case TILE_MODEL_FINE: return "fine";
    case TILE_MODEL_FUNNELED: return "funneled";
    case TILE_MODEL_MULTIPLE: return "multiple";
    default: return NULL;
    }
}

#if TILEHYBRID__DEFINE
/** tile_model_thread_level() - the MPI thread support a model needs. */
TILEHYBRID__COLD int tile_model_thread_level(int model, int threads)
{
    if (model == TILE_MODEL_MULTIPLE)
        return MPI_THREAD_MULTIPLE;
    if (model == TILE_MODEL_MPI || threads <= 1)
        return MPI_THREAD_SINGLE;
    return MPI_THREAD_FUNNELED;
}
#else
TILEHYBRID__COLD int tile_model_thread_level(int model, int threads);
#endif

/** tile_plan_status() - TILE_OK, or the error of the creation or the last
 *  run (plan.errmsg says more).  A run that failed does not stop the next
 *  one, which starts afresh; a failed creation, an MPI failure or a run
 *  left unfinished by a `return` out of the body does (create the plan
 *  again).  That return is TILE_ERR_BODY here with one process (under
 *  GCC, Clang and C++; elsewhere from the next run on); with more it
 *  ended the job (see "The body" above).  With cfg.agree =
 *  TILE_AGREE_WHEN_ASKED it is this rank's outcome of the runs since
 *  tile_plan_agree() (which gives every rank the verdict), and a failure
 *  stays until that call. */
static inline int tile_plan_status(const tile_plan *plan)
{
    return plan == NULL ? TILE_ERR_NULL : plan->status.code;
}
