/* ------------------------------------------------------------------------ */
/* Codes' texts, method names, problems                                     */
/* ------------------------------------------------------------------------ */

/* slb_strerror() -- documented at its declaration (05-api.h). */
static inline const char *slb_strerror(int code)
{
    switch (code) {
    case SLB_OK: return "success";
    case SLB_ERR_ARG: return "invalid argument (NULL pointer or unknown value)";
    case SLB_ERR_ITEMS: return "the number of items n is negative";
    case SLB_ERR_NOPROC: return "no processors (p < 1)";
    case SLB_ERR_COST: return "a cost is negative, NaN or infinite";
    case SLB_ERR_MONOTONE:
        return "a cost decreases when items are added (costs must be non-decreasing)";
    case SLB_ERR_TABLE: return "a cost table is shorter than the number of items";
    case SLB_ERR_ORDER: return "the order is not a permutation of the processors";
    case SLB_ERR_ROOT: return "the root is not one of the processors (outside the communicator)";
    case SLB_ERR_OVERFLOW: return "a size overflows 64-bit arithmetic";
    case SLB_ERR_INT:
        return "a count, displacement or message size exceeds INT_MAX and MPI-4 large counts "
               "are not available, disabled or not used by this call";
    case SLB_ERR_NOMEM: return "out of memory";
    case SLB_ERR_AFFINE: return "this method needs affine costs";
    case SLB_ERR_METHOD: return "unknown method or order policy";
    case SLB_ERR_COUNTS: return "the counts are negative or do not add up to n";
    case SLB_ERR_MISMATCH:
        return "collective arguments differ across ranks (n, root, datatype size, options or "
               "sizes)";
    case SLB_ERR_CAPACITY: return "a receive buffer is smaller than the count it must hold";
    case SLB_ERR_MPI: return "an MPI call failed";
    case SLB_ERR_TIME:
        return "a finish time overflows (beyond the largest double, 1.8e308): fewer items or "
               "smaller costs";
    default: return "unknown scatterlb error code";
    }
}

/* slb_method_name() -- documented at its declaration (05-api.h). */
static inline const char *slb_method_name(int method)
{
    switch (method) {
    case SLB_METHOD_EXACT: return "exact";
    case SLB_METHOD_HEURISTIC: return "heuristic";
    case SLB_METHOD_UNIFORM: return "uniform";
    default: return NULL;
    }
}

/* A problem of that kind on p processors, its costs still to be set. */
static inline slb_problem slb__problem(int kind, int64_t p)
{
    slb_problem pb;
    memset(&pb, 0, sizeof pb);
    pb.kind = kind;
    pb.p = p;
    return pb;
}

/* slb_problem_affine() -- documented at its declaration (05-api.h). */
static inline slb_problem slb_problem_affine(int64_t p, const slb_affine *cost)
{
    slb_problem pb = slb__problem(SLB_KIND_AFFINE, p);
    pb.affine = cost;
    return pb;
}

/* slb_problem_table() -- documented at its declaration (05-api.h). */
static inline slb_problem slb_problem_table(int64_t p, int64_t len, const double *comp,
                                            const double *comm)
{
    slb_problem pb = slb__problem(SLB_KIND_TABLE, p);
    pb.table_len = len;
    pb.comp_table = comp;
    pb.comm_table = comm;
    return pb;
}

/* slb_problem_callback() -- documented at its declaration (05-api.h). */
static inline slb_problem slb_problem_callback(int64_t p, slb_cost_fn comp, slb_cost_fn comm,
                                               void *ctx)
{
    slb_problem pb = slb__problem(SLB_KIND_CALLBACK, p);
    pb.comp = comp;
    pb.comm = comm;
    pb.ctx = ctx;
    return pb;
}
