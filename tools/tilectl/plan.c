/* tilectl plan -- the plan tiling.h would make, without running it: the
 * process grid, the tile height its pipeline model chooses (or the one
 * given), the predicted time and parallel efficiency, and the memory of
 * one process.
 *
 *   tilectl plan --procs 2 --space 64x256x16384 --deps 1,1
 *   tilectl plan --procs 16 --threads 2 --space 256x256x16384 \
 *                --stencil "-1,0,0 0,-1,0 0,0,-1" --tcomp 2e-9 --json
 *   tilectl plan --procs 2 --space 4094x4094x100 \
 *                --stencil "-1,-1,0 -1,0,0 -1,1,0 0,-1,0 0,0,-1 0,1,-1 1,-1,-1 1,0,-1 1,1,-1"
 *
 * The model is tiling.h's (tile_height_best(), tile_height_time(),
 * tile_height_efficiency(), tile_height_cache_bound()); the grid
 * topology.h's communication-optimal one, as a plan's default. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200112L     /* sysconf */
#endif
#include "cli.h"

#include <float.h>
#include <limits.h>

#include "tiling.h"

#define CMD "plan"
#define PLAN_MAX_VECS TILE_MAX_STENCIL

static void usage(FILE *f)
{
    fputs("usage: tilectl plan --procs P --space X1x...xXNxZ (--deps d1,...,dN | --stencil V)\n"
          "                    [--threads T] [--tile-height z] [--depz d] [--tcomp S]\n"
          "                    [--tstartup S] [--bandwidth B] [--elem-bytes E] [--tsync S]\n"
          "                    [--cache-bytes C] [--order O] [--dir D] [--loop-order L]\n"
          "                    [--json]\n"
          "The plan tiling.h makes for P processes of T threads: the process grid\n"
          "(least communication), the thread grid, the tile height its pipeline model\n"
          "chooses, T(z) = (ceil(Z/z) + sum_i (P_i - 1) + S)(z t_plane + t_msg(z)\n"
          "+ t_sync), the last step at the last tile's height, minimised over z\n"
          "and bounded by the cache (or the height given), the predicted time and\n"
          "parallel efficiency, and the memory of one process (in the in-tile\n"
          "order the plan chooses, or --order).\n"
          "  --procs P         processes, 1..2147483647\n"
          "  --space ...       the extents, Z last (1 <= N <= 8)\n"
          "  --deps d1,...,dN  dependence widths along the X dimensions (d_Z: --depz)\n"
          "  --stencil V       or the offset vectors read, \"-1,0,0 0,-1,0 0,0,-1\";\n"
          "                    one that reads a later point along a dimension (a\n"
          "                    sweep in time) is skewed as the plan skews it, and\n"
          "                    the plan is for the skewed space (shown)\n"
          "  --dir D           with --stencil: N+1 loop directions, 1 (upward,\n"
          "                    default) or -1 (downward), Z last (cfg.dir)\n"
          "  --loop-order L    with --stencil: the sequential loop nest, outermost\n"
          "                    first, as dimension numbers 1..N+1 (N+1 is Z); default\n"
          "                    Z, then 1..N (cfg.loop_order)\n"
          "  --threads T       threads per process (default 1)\n"
          "  --tile-height z   evaluate this height instead of choosing one\n"
          "  --depz d          d_Z with --deps (default 1)\n"
          "  --tcomp S         seconds per point on one core     } default: the\n"
          "  --tstartup S      seconds per message               } TILEHYBRID_*\n"
          "  --bandwidth B     bytes per second                  } environment, else\n"
          "  --elem-bytes E    bytes per point (default 8)       } the papers' cluster\n"
          "                    (each > 0; a plan reads a cost of 0 as not given:\n"
          "                    TILEHYBRID_TSTARTUP=0 models no start-up; E <= 2^30)\n"
          "  --tsync S         seconds of the threads' barrier per tile step (default\n"
          "                    TILEHYBRID_TSYNC, else 0; ignored with one thread; a\n"
          "                    plan without TILEHYBRID_TSYNC times it at creation)\n"
          "  --cache-bytes C   the cache of one core; the window gets T times it\n"
          "                    (default TILEHYBRID_CACHE_BYTES, else this machine's\n"
          "                    level-2 cache (or the one TILEHYBRID_CACHE_DIR, a\n"
          "                    directory laid out like /sys/devices/system/cpu/cpu0/\n"
          "                    cache, describes), else a core's share of its level-3,\n"
          "                    else 2 MiB); without it and with T > 1, at least a\n"
          "                    quarter of the T threads' share of the level-3 cache\n"
          "                    (tile_height_window_bytes); when one plane's window\n"
          "                    does not fit: 1 on one process with one thread,\n"
          "                    else this machine's level-3 cache, else 1; at least\n"
          "                    2 where a tile's planes go in pairs (the hyperplane\n"
          "                    order with N = 2: tile_plane_pairs; a plan also\n"
          "                    needs a height of 2 to fit its memory limit)\n"
          "  --order O         the in-tile order: planes, z, hyper or auto (default:\n"
          "                    the plan's choice); a forced z takes the level-3 cache\n"
          "                    as its bound unless --cache-bytes is given\n"
          "  --json            one JSON object\n"
          "A plan measures t_comp and the network itself (tiling.h); give them here.\n"
          "Exit status: 0 ok, 1 no plan (the message says why), 2 bad arguments.\n", f);
}

struct plan_args {
    int64_t procs, threads, z, depz, cache;
    int64_t space[TILE_MAX_DIMS + 1], deps[TILE_MAX_DIMS];
    int64_t dir[TILE_MAX_DIMS + 1], loop[TILE_MAX_DIMS + 1];
    int nspace, ndeps, ndir, nloop, json, have_procs, order;
    const char *stencil;
    double tcomp, tstartup, bandwidth, elem_bytes, tsync;
};

struct plan_result {
    tile_height_model m;
    cli_skew skew;      /* skew.skewed: the plan is for the skewed space */
    int tdims[TILE_MAX_DIMS], order;
    int64_t z, steps, window, plane_bytes, memory, len[TILE_MAX_DIMS];
    int64_t zfree;      /* the model's minimum without the cache bound (0: not asked) */
    double seconds, efficiency;
};

/* The largest --elem-bytes: tiling.h's limit of cfg.elem_size. */
#define PLAN_MAX_ELEM_BYTES ((double)(1 << 30))

static int plan_real(const char *name, const char *val, double *out)
{
    if (cli_real_opt(CMD, name, val, out) != 0)
        return 2;
    /* a plan reads a cost of 0 as "not given" (cfg.balance): refused here
     * as in the demos; TILEHYBRID_TSTARTUP=0 models no start-up */
    if (!(*out > 0.0) && strcmp(name, "--tstartup") == 0)
        return cli_error(CMD, "%s: '%s' must be > 0 (a plan reads 0 as \"not given\"; "
                         "TILEHYBRID_TSTARTUP=0 models no start-up)", name, val);
    if (!(*out > 0.0))
        return cli_error(CMD, "%s: '%s' must be > 0", name, val);
    if (strcmp(name, "--elem-bytes") == 0 && *out > PLAN_MAX_ELEM_BYTES)
        return cli_error(CMD, "%s: '%s' must be at most 2^30 = %.0f bytes (tiling.h's "
                         "cfg.elem_size: 1..2^30)", name, val, PLAN_MAX_ELEM_BYTES);
    return 0;
}

static int plan_list(const char *name, const char *val, int64_t lo, int max, int64_t *out,
                     int *count)
{
    return cli_list_opt(CMD, name, val, name[2] == 's' ? "x" : ",", lo, INT64_MAX, max, out, count,
                        NULL);
}

/* The options, each with a value (cli_options; --json is common). */
static const char *const plan_names[] = { "--procs", "--space", "--deps", "--stencil",
                                          "--threads", "--tile-height", "--depz", "--tcomp",
                                          "--tstartup", "--bandwidth", "--elem-bytes",
                                          "--cache-bytes", "--tsync", "--order", "--dir",
                                          "--loop-order" };

/* --order's words (tile_order_name). */
static const char *plan_order_name(int order)
{
    const char *s = tile_order_name(order);
    return s != NULL ? s : "?";
}

static int plan_option(void *args, int k, const char *val)
{
    struct plan_args *a = (struct plan_args *)args;
    const char *name = plan_names[k];
    if (strcmp(name, "--procs") == 0)
        return a->have_procs = 1, cli_whole_opt(CMD, name, val, 1, INT_MAX, &a->procs);
    if (strcmp(name, "--threads") == 0)
        return cli_whole_opt(CMD, name, val, 1, 1024, &a->threads);
    if (strcmp(name, "--tile-height") == 0)
        return cli_whole_opt(CMD, name, val, 1, INT64_MAX, &a->z);
    if (strcmp(name, "--depz") == 0)
        return cli_whole_opt(CMD, name, val, 0, TILE_MAX_DEPZ, &a->depz);
    if (strcmp(name, "--cache-bytes") == 0)
        return cli_whole_opt(CMD, name, val, 1, INT64_MAX, &a->cache);
    if (strcmp(name, "--space") == 0)
        return plan_list(name, val, 1, TILE_MAX_DIMS + 1, a->space, &a->nspace);
    if (strcmp(name, "--deps") == 0)
        return plan_list(name, val, 0, TILE_MAX_DIMS, a->deps, &a->ndeps);
    if (strcmp(name, "--stencil") == 0)
        return a->stencil = val, 0;
    if (strcmp(name, "--dir") == 0)
        return cli_list_opt(CMD, name, val, ",", -1, 1, TILE_MAX_DIMS + 1, a->dir, &a->ndir,
                            "1 or -1 per dimension, Z last, separated by ','");
    if (strcmp(name, "--loop-order") == 0)
        return cli_list_opt(CMD, name, val, ",", 1, TILE_MAX_DIMS + 1, TILE_MAX_DIMS + 1, a->loop,
                            &a->nloop, "dimension numbers 1..N+1, N+1 is Z, outermost first, "
                            "separated by ','");
    if (strcmp(name, "--tcomp") == 0)
        return plan_real(name, val, &a->tcomp);
    if (strcmp(name, "--tstartup") == 0)
        return plan_real(name, val, &a->tstartup);
    if (strcmp(name, "--bandwidth") == 0)
        return plan_real(name, val, &a->bandwidth);
    if (strcmp(name, "--order") == 0) {
        char w[128];
        if ((a->order = tile_order_parse(val)) >= 0)
            return 0;
        return cli_error(CMD, "--order: '%s' is not %s", val,
                         opt_words(w, sizeof w, plan_order_name, 0, TILE_ORDER_AUTO));
    }
    if (strcmp(name, "--tsync") == 0)    /* >= 0: a barrier may cost nothing */
        return cli_real_opt(CMD, name, val, &a->tsync) != 0 ? 2
               : !(a->tsync >= 0.0 && a->tsync <= 1e6)
               ? cli_error(CMD, "%s: '%s' must be 0 to 1e6 seconds", name, val) : 0;
    return plan_real(name, val, &a->elem_bytes);     /* --elem-bytes */
}

/* The defaults: the TILEHYBRID_* environment, else the papers' cluster. */
static int plan_defaults(struct plan_args *a)
{
    bal_model m;
    int rc, found = 0;
    memset(a, 0, sizeof *a);
    a->nspace = a->ndeps = a->ndir = a->nloop = -1;
    a->threads = 1;
    a->depz = -1;
    a->order = TILE_ORDER_AUTO;
    a->elem_bytes = TOPO_DEFAULT_ELEM_BYTES;
    m.tcomp = TOPO_DEFAULT_TCOMP;
    m.tstartup = TOPO_DEFAULT_TSTARTUP;
    m.bandwidth = TOPO_DEFAULT_BANDWIDTH;
    m.elem_bytes = a->elem_bytes;
    if ((rc = bal_model_from_env(&m, NULL)) != BAL_OK)
        return cli_error(CMD, "the environment: %s", bal_strerror(rc));
    a->tcomp = m.tcomp;
    a->tstartup = m.tstartup;
    a->bandwidth = m.bandwidth;
    if (tile_height_tsync_env(&a->tsync, &found) != TILE_OK)    /* as a plan reads it */
        return cli_error(CMD, "the environment: TILEHYBRID_TSYNC = '%.40s': not a number of "
                         "seconds in [0, 1e6]", getenv("TILEHYBRID_TSYNC"));
    return 0;
}

static int plan_parse(int argc, char **argv, struct plan_args *a)
{
    static const int n = (int)(sizeof plan_names / sizeof plan_names[0]);
    const cli_options opts = { CMD, plan_names, n, n, usage, plan_option };
    int rc;
    if ((rc = plan_defaults(a)) != 0 || (rc = cli_parse_options(&opts, argc, argv, a, &a->json)) != 0)
        return rc;
    if (!a->have_procs || a->nspace < 0)
        return cli_error(CMD, "%s is required (see --help)", a->have_procs ? "--space" : "--procs");
    if (a->nspace < 2)
        return cli_error(CMD, "--space: give 2 to %d extents, Z last", TILE_MAX_DIMS + 1);
    if ((a->ndeps >= 0) == (a->stencil != NULL))
        return cli_error(CMD, "give --deps or --stencil (one of them)");
    if (a->ndeps >= 0 && a->ndeps != a->nspace - 1)
        return cli_error(CMD, "--deps has %d entries, --space needs %d (one per extent but Z)",
                         a->ndeps, a->nspace - 1);
    if (a->stencil != NULL && a->depz >= 0)
        return cli_error(CMD, "--depz goes with --deps (a stencil says its own)");
    if (a->stencil == NULL && (a->ndir >= 0 || a->nloop >= 0))
        return cli_error(CMD, "%s needs --stencil (it says how to read its vectors)",
                         a->ndir >= 0 ? "--dir" : "--loop-order");
    if (a->ndir >= 0 && a->ndir != a->nspace)
        return cli_error(CMD, "--dir has %d entr%s, --space needs %d (one per extent, Z last)",
                         a->ndir, a->ndir == 1 ? "y" : "ies", a->nspace);
    return 0;
}

/* --stencil's nest, with --dir and --loop-order: the space the plan tiles
 * (skewed if a vector reads a later point along a dimension) and its
 * widths (cli_stencil_nest).  0 or the exit status. */
static int plan_stencil(const struct plan_args *a, const tile_config *cfg, struct plan_result *r)
{
    const cli_stencil s = { a->nspace - 1, cfg->nstencil, TILE_MAX_DIMS + 1, a->space,
                            &cfg->stencil[0][0], a->dir, a->loop, a->ndir, a->nloop };
    return cli_stencil_nest(CMD, &s, &r->m.nest, &r->skew);
}

/* The nest: extents, widths (from --deps or --stencil) and costs; *dz gets
 * d_Z.  0 or the exit status. */
static int plan_nest(const struct plan_args *a, struct plan_result *r, int *dz)
{
    int n = a->nspace - 1, rc;
    tilehybrid_status st;
    tile_config cfg;
    int64_t Z = a->space[n];
    rc = topo_nest_init(&r->m.nest, n, a->space, Z, a->ndeps >= 0 ? a->deps : NULL, &st);
    *dz = a->depz >= 0 ? (int)a->depz : 1;
    if (rc == TOPO_OK && a->stencil != NULL) {
        tile_config_init(&cfg, n);
        if (tile_config_stencil(&cfg, a->stencil, &st) != TILE_OK && st.index < 0)
            return cli_error(CMD, "--stencil: '%s': no offset vector", a->stencil);
        if (st.code != TILE_OK && st.index == TILE_MAX_STENCIL)
            return cli_error(CMD, "--stencil: more than %d vectors (tiling.h's "
                             "TILE_MAX_STENCIL: a plan takes at most that many)",
                             TILE_MAX_STENCIL);
        if (st.code != TILE_OK)
            return cli_error(CMD, "--stencil: '%s': vector %lld is not %d whole numbers in "
                             "-2^30..2^30 separated by ',' (at most %d vectors)", a->stencil,
                             (long long)st.index + 1, n + 1, TILE_MAX_STENCIL);
        if ((rc = plan_stencil(a, &cfg, r)) != 0)
            return rc;
        *dz = r->skew.dz;
    }
    if (rc != TOPO_OK)
        return cli_error(CMD, "--space, --deps: %s", topo_strerror(rc));
    r->m.nest.tcomp = a->tcomp;
    r->m.nest.tstartup = a->tstartup;
    r->m.tsync = a->threads > 1 ? a->tsync : 0.0;   /* no barrier with one thread */
    r->m.nest.bandwidth = a->bandwidth;
    r->m.nest.elem_bytes = a->elem_bytes;
    return 0;
}

/* Extents as "64x256x16384", into buf. */
static const char *plan_sizes_text(const int64_t *v, int n, char *buf, size_t size)
{
    size_t len = 0;
    int i;
    buf[0] = '\0';
    for (i = 0; i < n && len < size; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s%lld", i ? "x" : "", (long long)v[i]);
    return buf;
}

/* --space as given, into buf. */
static const char *plan_space_text(const struct plan_args *a, char *buf, size_t size)
{
    return plan_sizes_text(a->space, a->nspace, buf, size);
}

/* The grids: the process grid by least communication (a plan's default),
 * the thread grid as tiling.h makes it for the fine and multiple models;
 * the largest block.  0, or 1 after the message. */
static int plan_grids(const struct plan_args *a, struct plan_result *r)
{
    topo_nest *nest = &r->m.nest;
    int n = nest->n, i, rc;
    tilehybrid_status st;
    char sp[(TILE_MAX_DIMS + 1) * 21];
    memset(r->m.dims, 0, sizeof r->m.dims);
    rc = topo_nest_grid(nest, a->procs, TOPO_POLICY_COMM, r->m.dims, &st);
    if (rc == TOPO_ERR_OVERFLOW)
        return cli_error(CMD, "--space %s, %s: the communication volume of every process grid "
                         "for --procs %lld passes 2^63 elements: use smaller extents or "
                         "dependence widths", plan_space_text(a, sp, sizeof sp),
                         a->stencil != NULL ? "--stencil" : "--deps", (long long)a->procs), 1;
    if (rc == TOPO_ERR_INFEASIBLE) { /* the rule a block would break, in words */
        char why[TOPO_EXPLAIN_SIZE], sk[(TILE_MAX_DIMS + 1) * 21];
        topo_nest_explain(nest, a->procs, TOPO_POLICY_COMM, NULL, why, sizeof why, NULL);
        return cli_error(CMD, "--procs %lld, --space %s: no process grid%s%s: %s",
                         (long long)a->procs, plan_space_text(a, sp, sizeof sp),
                         r->skew.skewed ? " of the skewed space " : "",
                         r->skew.skewed ? plan_sizes_text(r->skew.size, n + 1, sk, sizeof sk)
                                        : "", why), 1;
    }
    if (rc != TOPO_OK)
        return cli_error(CMD, "--procs %lld, --space %s: no process grid: %s",
                         (long long)a->procs, plan_space_text(a, sp, sizeof sp),
                         topo_strerror(rc)), 1;
    for (i = 0; i < n; i++)
        r->tdims[i] = a->threads > 1 ? 0 : 1;     /* 0: free */
    if (a->threads > 1 &&
        (rc = topo_hybrid_grid(n, a->procs, (int)a->threads, nest->extent, nest->dep,
                               TOPO_POLICY_COMM, r->m.dims, r->tdims)) != TOPO_OK)
        return cli_error(CMD, "--threads %lld: no thread grid fits a block of %s %s on "
                         "--procs %lld: %s", (long long)a->threads,
                         r->skew.skewed ? "the skewed space" : "--space",
                         r->skew.skewed ? plan_sizes_text(r->skew.size, n + 1, sp, sizeof sp)
                                        : plan_space_text(a, sp, sizeof sp),
                         (long long)a->procs, topo_strerror(rc)), 1;
    r->m.threads = (int)a->threads;
    r->m.skew = 0;
    for (i = 0; i < n; i++) {
        r->m.skew += r->tdims[i] - 1;
        /* ceil(X_i / P_i) without X_i + P_i - 1 (X_i may be 2^63 - 1) */
        r->len[i] = nest->extent[i] / r->m.dims[i] + (nest->extent[i] % r->m.dims[i] != 0);
    }
    return 0;
}

/* ceil(x / y) for x >= 0 and y >= 1, without x + y - 1 (x may be 2^63 - 1). */
static int64_t plan_ceil_div(int64_t x, int64_t y)
{
    return x / y + (x % y != 0);
}

/* Bytes of one process: the Z window (planes with their ghost layers, as
 * tile_plane_layout() stores them) and a send and
 * a receive buffer per dimension that communicates.  1 on overflow (every
 * step checked: nothing wraps). */
static int plan_memory(const struct plan_args *a, struct plan_result *r, int dz)
{
    const topo_nest *nest = &r->m.nest;
    int n = nest->n, i, j, ok = 1;
    int64_t h = r->z < nest->zlen ? r->z : nest->zlen, ntiles = plan_ceil_div(nest->zlen, h);
    int64_t e = (int64_t)(a->elem_bytes + 0.999999), m, f, b = 0, planes = 0, l;
    m = r->m.skew + 2 + plan_ceil_div(dz, h);     /* (skew < 2^31 T: no overflow) */
    ok = tilehybrid_mul_ok(m < ntiles ? m : ntiles, h, &planes) &&
         tilehybrid_add_ok(planes, dz, &r->window) &&
         tilehybrid_mul_ok(r->plane_bytes, r->window, &r->memory);
    for (i = 0; i < n && ok; i++) {
        if (r->m.dims[i] == 1 || nest->dep[i] == 0)
            continue;
        ok = tilehybrid_mul_ok(e, nest->dep[i], &f) && tilehybrid_mul_ok(f, h, &f);
        for (j = 0; j < n && ok; j++)
            if (j != i)
                ok = tilehybrid_add_ok(r->len[j], j < i ? nest->ext[i][j] : 0, &l) &&
                     tilehybrid_mul_ok(f, l, &f);
        ok = ok && tilehybrid_mul_ok(f, 2, &f) && tilehybrid_add_ok(b, f, &b);
    }
    return !(ok && tilehybrid_add_ok(r->memory, b, &r->memory));
}

/* The height (chosen or given), its prediction, the memory.  0, or 1
 * after the message. */
static int plan_compute(const struct plan_args *a, struct plan_result *r)
{
    topo_nest *nest = &r->m.nest;
    tilehybrid_status st;
    /* (--elem-bytes <= 2^30: its conversion is exact) */
    int64_t elems = 1, cache = a->cache, llc = 0, esz = (int64_t)(a->elem_bytes + 0.999999);
    int i, dz = 0, rc, pd[TILE_MAX_DIMS], dep[TILE_MAX_DIMS];
    tile_store layout;
    char sp[(TILE_MAX_DIMS + 1) * 21];
    if ((rc = plan_nest(a, r, &dz)) != 0 || (rc = plan_grids(a, r)) != 0)
        return rc;
    for (i = 0; i < nest->n; i++) {
        pd[i] = r->m.dims[i];
        dep[i] = nest->dep[i] < INT_MAX ? (int)nest->dep[i] : INT_MAX;
    }
    /* the plane as the largest block's plan stores it (the hyperplane layout
     * pads it) */
    r->order = a->order;
    if (tile_plane_layout(nest->n, nest->extent, pd, r->tdims, r->len, dep, (size_t)esz,
                          a->order, &layout) == TILE_OK) {
        elems = layout.plane_elems;
        r->order = layout.order;
    } else
        elems = INT64_MAX;
    if (!tilehybrid_mul_ok(elems, esz, &r->plane_bytes))
        return cli_error(CMD, "--space %s, --elem-bytes %g: a plane of a block (with its "
                         "ghost layers) has more than 2^63 bytes",
                         plan_space_text(a, sp, sizeof sp), a->elem_bytes), 1;
    if (cache == 0 && tile_height_cache_bytes(&cache) != TILE_OK)
        return cli_error(CMD, "TILEHYBRID_CACHE_BYTES is not a whole number >= 1");
    (void)tile_height_llc_bytes(&llc);  /* the fallback, as a plan's (at least the above) */
    if (a->order == TILE_ORDER_Z_INNER && a->cache == 0 && getenv("TILEHYBRID_CACHE_BYTES") == NULL)
        cache = llc;    /* a forced Z-inner order: its runs are columns of z points */
    else                /* the cores' caches, as a plan's */
        cache = tile_height_window_bytes(cache, (int)a->threads, llc,
                                         a->cache != 0 || getenv("TILEHYBRID_CACHE_BYTES") != NULL);
    r->m.pairs = tile_plane_pairs(r->order, r->skew.skewed, nest->n);
    r->m.zmax = tile_height_zmax(&r->m, r->plane_bytes, dz, cache, llc > cache ? llc : cache);
    r->z = a->z;
    rc = a->z > 0 ? tile_height_time(&r->m, a->z, &r->seconds, NULL, &st)
                  : tile_height_best(&r->m, &r->z, &r->seconds, &st);
    if (rc == TILE_OK && a->z == 0 && r->m.zmax >= 1 && r->m.zmax < r->m.nest.zlen) {
        /* did the bound choose?  The model's minimum without it, if faster */
        tile_height_model free_m = r->m;
        tilehybrid_status free_st;
        double free_s = 0.0;
        free_m.zmax = 0;
        if (tile_height_best(&free_m, &r->zfree, &free_s, &free_st) != TILE_OK ||
            !(free_s < r->seconds))
            r->zfree = 0;
    }
    if (rc == TILE_OK)
        rc = tile_height_time(&r->m, r->z, NULL, &r->steps, &st);
    if (rc == TILE_OK)
        rc = tile_height_efficiency(&r->m, r->seconds, &r->efficiency);
    if (rc == TILE_ERR_BALANCE && (strcmp(st.arg, "tcomp") == 0 || strcmp(st.arg, "tstartup") == 0 ||
                                   strcmp(st.arg, "bandwidth") == 0 || strcmp(st.arg, "elem_bytes") == 0))
        return cli_error(CMD, "--%s: the model's predicted time overflows (more than %g s): %s it",
                         strcmp(st.arg, "elem_bytes") == 0 ? "elem-bytes" : st.arg, DBL_MAX,
                         strcmp(st.arg, "bandwidth") == 0 ? "raise" : "lower"), 2;
    if (rc == TILE_ERR_OVERFLOW)     /* topology.h's volumes over all of Z, or the steps */
        return cli_error(CMD, "--space %s: %s passes 2^63 (the model's %s): use smaller "
                         "extents", plan_space_text(a, sp, sizeof sp),
                         strcmp(st.arg, "volume") == 0
                             ? "the number of elements a process sends over all of Z"
                         : strcmp(st.arg, "total_volume") == 0
                             ? "the number of elements all processes send over all of Z"
                             : "the number of tile steps", st.arg), 1;
    if (rc != TILE_OK)
        return cli_error(CMD, "--procs %lld, --threads %lld, --space %s: the model refuses "
                         "them: %s (%s)", (long long)a->procs, (long long)a->threads,
                         plan_space_text(a, sp, sizeof sp), tile_strerror(rc), st.arg),
               rc == TILE_ERR_BALANCE ? 2 : 1;
    if (plan_memory(a, r, dz) != 0)
        return cli_error(CMD, "--space %s: the memory of a process (a Z window of %lld-plane "
                         "tiles, planes of %lld bytes, and the message buffers) passes 2^63 "
                         "bytes: use smaller extents%s", plan_space_text(a, sp, sizeof sp),
                         (long long)r->z, (long long)r->plane_bytes,
                         a->z > 0 ? " or a lower --tile-height" : ""), 1;
    return 0;
}

/* A JSON number in a fixed format, null for an infinity or a NaN (the
 * model refuses costs that overflow, but JSON must stay valid anyway). */
static void json_fixed(double v, const char *fmt)
{
    if (v == v && v - v == 0.0)
        printf(fmt, v);
    else
        fputs("null", stdout);
}

/* The note under the costs naming those left at the papers' cluster's
 * defaults (a plan measures this machine's instead). */
static void plan_print_default_costs(const struct plan_args *a)
{
    const char *names[3];
    int k = 0, i;
    if (a->tcomp == TOPO_DEFAULT_TCOMP)
        names[k++] = "tcomp";
    if (a->tstartup == TOPO_DEFAULT_TSTARTUP)
        names[k++] = "tstartup";
    if (a->bandwidth == TOPO_DEFAULT_BANDWIDTH)
        names[k++] = "bandwidth";
    if (k == 0)
        return;
    printf("(");
    for (i = 0; i < k; i++)
        printf("%s%s", i == 0 ? "" : i == k - 1 ? " and " : ", ", names[i]);
    printf(": the papers' cluster, the default%s; a plan measures this machine's: give %s or "
           "the TILEHYBRID_* environment)\n", k > 1 ? "s" : "", k > 1 ? "the options" : "the option");
}

static void plan_print(const struct plan_args *a, const struct plan_result *r)
{
    int64_t d[TILE_MAX_DIMS], t[TILE_MAX_DIMS];
    int n = r->m.nest.n, i;
    for (i = 0; i < n; i++) {
        d[i] = r->m.dims[i];
        t[i] = r->tdims[i];
    }
    if (a->json) {
        printf("{\"procs\":%lld,\"threads\":%lld,\"grid\":", (long long)a->procs,
               (long long)a->threads);
        cli_print_i64s(stdout, d, n, NULL);
        printf(",\"thread_grid\":");
        cli_print_i64s(stdout, t, n, NULL);
        printf(",\"skewed_space\":");
        if (r->skew.skewed)
            cli_print_i64s(stdout, r->skew.size, n + 1, NULL);
        else
            printf("null");
        printf(",\"tile_height\":%lld,\"tile_height_origin\":\"%s\",\"cache_bound\":%lld,"
               "\"steps\":%lld,\"predicted_seconds\":", (long long)r->z,
               a->z > 0 ? "given" : "model",
               (long long)(r->m.zmax < r->m.nest.zlen ? r->m.zmax : r->m.nest.zlen),
               (long long)r->steps);
        json_fixed(r->seconds, "%.9g");   /* (null if not finite) */
        printf(",\"efficiency\":");
        json_fixed(r->efficiency, "%.6f");
        printf(",\"order\":\"%s\"", plan_order_name(r->order));
        printf(",\"memory_bytes\":%lld,\"window_planes\":%lld,\"plane_bytes\":%lld,"
               "\"tcomp\":%.6g,\"tstartup\":%.6g,\"bandwidth\":%.6g,\"elem_bytes\":%g,"
               "\"tsync\":%.6g}\n",
               (long long)r->memory, (long long)r->window, (long long)r->plane_bytes, a->tcomp,
               a->tstartup, a->bandwidth, a->elem_bytes, r->m.tsync);
        return;
    }
    if (r->skew.skewed) {
        printf("skewed space ");
        cli_print_i64s(stdout, r->skew.size, n + 1, "x");
        printf(" (a vector reads a later point along a dimension: the plan skews the space "
               "and pipelines its longest dimension)\n");
    }
    printf("grid ");
    cli_print_i64s(stdout, d, n, "x");
    printf(" (%lld process%s x %lld thread%s, thread grid ", (long long)a->procs,
           a->procs == 1 ? "" : "es", (long long)a->threads, a->threads == 1 ? "" : "s");
    cli_print_i64s(stdout, t, n, "x");
    if (a->z == 0 && r->zfree > 0)
        printf(")\ntile height %lld (the cache bound; the model's minimum without it: %lld)\n",
               (long long)r->z, (long long)r->zfree);
    else
        printf(")\ntile height %lld (%s; cache bound %lld)\n", (long long)r->z,
               a->z > 0 ? "given" : "the model's minimum",
               (long long)(r->m.zmax < r->m.nest.zlen ? r->m.zmax : r->m.nest.zlen));
    printf("in-tile order %s (%s)\n", plan_order_name(r->order),
           a->order == TILE_ORDER_AUTO ? "the plan's choice" : "given");
    printf("predicted time %.6g s (%lld tile steps), parallel efficiency %.1f%%\n", r->seconds,
           (long long)r->steps, 100.0 * r->efficiency);
    printf("memory per process %lld bytes (a Z window of %lld planes of %lld bytes, and the "
           "message buffers)\n", (long long)r->memory, (long long)r->window,
           (long long)r->plane_bytes);
    printf("costs: tcomp %g s/point, tstartup %g s, bandwidth %g B/s, %g bytes/point, "
           "tsync %g s/step\n", a->tcomp, a->tstartup, a->bandwidth, a->elem_bytes, r->m.tsync);
    plan_print_default_costs(a);
}

int tilectl_plan(int argc, char **argv)
{
    struct plan_args a;
    struct plan_result r;
    int rc = plan_parse(argc, argv, &a);
    memset(&r, 0, sizeof r);
    if (rc == 0 && (rc = plan_compute(&a, &r)) == 0)
        plan_print(&a, &r);
    return rc > 0 ? rc : cli_finish_output(CMD);   /* the report, or the help (rc < 0) */
}
