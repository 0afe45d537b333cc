/* ------------------------------------------------------------------------ */
/* The tile height: the pipeline's model                                    */

/*
 * A process walks ceil(Z/z) tiles; the last process starts F = sum_i (P_i -
 * 1) tile steps after the first (over the dimensions with d_i > 0), and its
 * threads S = sum (T_i - 1) steps after that; each step computes z planes
 * of a block and sends its faces:
 *     T(z) = (ceil(Z/z) + F + S) * (z t_plane + t_msg(z) + t_sync)
 *            - (ceil(Z/z) z - Z) * (t_plane + t_msg'),
 *     t_plane = t_comp * (points of the largest block's plane) / T,
 *     t_msg(z) = m t_startup + z * elem_bytes * (face elements per plane) / B,
 * m the messages of a step -- topology.h's pipeline model (the one
 * TILE_GRID_TIME minimises over grids: topo_nest_report()), with the
 * thread skew added, t_comp shared by the T threads, and t_sync the
 * threads' barrier at the end of a step (measured at creation; 0 with one
 * thread); t_msg' its growth per plane.  The second line is the last
 * step's due: the last process's last tile, of Z - (ceil(Z/z) - 1) z
 * planes, computes and sends only those.  Small z pays F + S fill steps
 * less but m t_startup + t_sync more often; the continuous minimum is
 * z* = sqrt(Z (t_msg(0) + t_sync) / ((F + S) (t_plane + t_msg'))).
 * tile_height_best() finds the exact integer minimum of T over
 * 1 <= z <= min(Z, zmax): for a given ceil(Z/z) = k, T grows with z by
 * (F + S) (t_plane + t_msg') per plane (with F + S = 0, it ties), so the
 * smallest height of k tiles, ceil(Z/k), is best (the most even tiles);
 * it evaluates those outward from z* until (Z/z + F + S)(A z + B), a lower
 * bound of T that grows away from z*, passes the best found (times within
 * a relative 1e-12 tie, and a tie goes to the larger z: fewer tiles, whose
 * per-tile costs the model leaves out).
 *
 * The cache bound: a Z window of z planes per tile holds at most (S + 3) z
 * + 2 d_Z planes (tile__sizes: S + 2 + ceil(d_Z/z) tiles of z planes, and
 * the d_Z mirror planes); zmax is the largest z whose window fits in the
 * caches of the process's cores: T times the cache of one core
 * (TILEHYBRID_CACHE_BYTES, else the level-2 size, else a core's share of
 * the level 3, else 2 MiB: tile_height_cache_bytes(), the sizes from
 * Linux's sysfs, else sysconf), and with T > 1 threads (no TILEHYBRID_CACHE_BYTES) at least a
 * quarter of their share of the level-3 cache (tile_height_window_bytes():
 * their barrier each step costs more than a taller window's level-2
 * misses); when even z = 1 does not fit: 1 on one process with one thread
 * (no pipeline: every height ties in the model, and the smallest window
 * misses least), else the largest z whose window fits the last-level cache
 * (tile_height_llc_bytes()); when not even that, 1 (no cache gains from
 * taller tiles then, and one process, whose heights all tie, would
 * otherwise keep all of Z); and at least 2 where a tile's planes go in
 * pairs (tile_plane_pairs(): a pair gains more than the window's misses
 * cost); tile_height_zmax().  A plan forced to the Z-inner order
 * uses the last-level cache from the start (tile__cache_bytes()).  Why the
 * level-2 caches first: each new plane is written over the slot of a plane
 * ring_planes planes back, and a slot still in the core's own cache costs
 * no refill.  On this project's 2-core test machine (an Intel Xeon, 1 MiB
 * of level 2 per core, 36 MiB of level 3 shared with the host), ADI
 * 64x256x4096 on one process ran z = 1-3 at 0.72-0.81 G points/s and
 * z = 16-64 at 0.33-0.47 (CPU time, 3 runs each, a busy machine); at 2
 * processes (docs/results/height-sweep.csv) the times are flat from z = 1
 * to 32 and rise from 64, where the windows pass the level-3 cache: the
 * level-2 bound is the safe side of both.
 */

/* Bound on the heights tile_height_best() evaluates (each one a
 * topo_nest_report()); far more than the search needs in practice: the
 * candidates where the lower bound stays under the best are a few dozen. */
#define TILE__MODEL_EVALS 1000000

#if TILEHYBRID__DEFINE
/* A topology.h code of the model as a tiling.h code (the argument stays). */
TILEHYBRID__COLD int tile__model_code(int rc, tilehybrid_status *st)
{
    int code = rc == TOPO_ERR_COST ? TILE_ERR_BALANCE : rc == TOPO_ERR_OVERFLOW
               ? TILE_ERR_OVERFLOW : TILE_ERR_RANGE;
    return tilehybrid_status_set(st, code, st != NULL ? st->arg : "model",
                                 st != NULL ? st->index : -1);
}

/* One tile step of model m (not NULL) at height z over Z planes (m's, or
 * fewer): *step = z t_plane + t_msg(z) (topo_nest_report(), t_comp shared
 * by the threads; no t_sync) and *steps = ceil(Z/z) + F + S.  Checks the
 * rest of the model for tile_height_time(). */
TILEHYBRID__COLD int tile__height_step(const tile_height_model *m, int64_t z, int64_t Z,
                                       double *step, int64_t *steps, tilehybrid_status *st)
{
    topo_nest nest;
    topo_report r;
    int rc;
    if (z < 1)
        return tilehybrid_status_set(st, TILE_ERR_TILE_HEIGHT, "z", -1);
    if (m->threads < 1 || m->skew < 0)
        return tilehybrid_status_set(st, TILE_ERR_THREADS, m->threads < 1 ? "threads" : "skew",
                                     -1);
    if (!(m->tsync >= 0.0 && m->tsync < 1e300))
        return tilehybrid_status_set(st, TILE_ERR_BALANCE, "tsync", -1);
    nest = m->nest;
    nest.zlen = Z;
    nest.tile_height = z;
    nest.tcomp = m->nest.tcomp / m->threads;
    rc = topo_nest_report(&nest, m->dims, &r, st);
    if (rc != TOPO_OK)
        return tile__model_code(rc, st);
    if (r.steps < 1 || !tilehybrid_add_ok(r.steps, m->skew, steps))
        return tilehybrid_status_set(st, TILE_ERR_OVERFLOW, "skew", -1);
    *step = r.seconds / (double)r.steps;
    return tilehybrid_status_set(st, TILE_OK, "", -1);
}

/**
 * tile_height_time() - the model's predicted time of a run at tile height z.
 * @m:       the model (struct tile_height_model).
 * @z:       the tile height (>= 1; above Z counts as Z).
 * @seconds: receives T(z) (may be NULL): the steps at height z, but the
 *           last one at the height of the last tile, Z - (ceil(Z/z) - 1) z
 *           (the last step is the last process's last tile, which is short
 *           when z does not divide Z).
 * @steps:   receives the tile steps ceil(Z/z) + F + S (may be NULL).
 * @st:      NULL, or receives the argument at fault.
 * Return: TILE_OK; TILE_ERR_NULL; TILE_ERR_TILE_HEIGHT (z < 1);
 * TILE_ERR_THREADS (threads < 1 or skew < 0); TILE_ERR_BALANCE (a cost out
 * of range: tcomp, tstartup, bandwidth, elem_bytes); TILE_ERR_OVERFLOW (the
 * steps pass 2^63); TILE_ERR_RANGE (another value of the nest or the grid).
 */
TILEHYBRID__COLD int tile_height_time(const tile_height_model *m, int64_t z, double *seconds,
                                     int64_t *steps, tilehybrid_status *st)
{
    int64_t all = 0, Z, last, n = 0;
    double step = 0.0, lstep = 0.0;
    int rc;
    if (m == NULL)
        return tilehybrid_status_set(st, TILE_ERR_NULL, "m", -1);
    Z = m->nest.zlen;
    if ((rc = tile__height_step(m, z, Z, &step, &all, st)) != TILE_OK)
        return rc;
    last = z < Z ? Z - (tile__ceil_div(Z, z) - 1) * z : Z;   /* the last tile's height */
    lstep = step;       /* its step: one tile of `last` planes (no count to overflow) */
    if (last < z && (rc = tile__height_step(m, last, last, &lstep, &n, st)) != TILE_OK)
        return rc;
    if (seconds != NULL)
        *seconds = (step + m->tsync) * (double)(all - 1) + lstep + m->tsync;
    if (steps != NULL)
        *steps = all;
    return tilehybrid_status_set(st, TILE_OK, "", -1);
}
#else
TILEHYBRID__COLD int tile__model_code(int rc, tilehybrid_status *st);
TILEHYBRID__COLD int tile__height_step(const tile_height_model *m, int64_t z, int64_t Z,
                                       double *step, int64_t *steps, tilehybrid_status *st);
TILEHYBRID__COLD int tile_height_time(const tile_height_model *m, int64_t z, double *seconds,
                                     int64_t *steps, tilehybrid_status *st);
#endif

/* The search of tile_height_best(): the model, Z, the per-step time A z + B
 * and the fill F + S (from the model itself, at z = 1 and 2), the best. */
typedef struct tile__zsearch {
    const tile_height_model *m;
    int64_t Z, zh, best, evals;
    double A, B, fill, bestt;
} tile__zsearch;

#if TILEHYBRID__DEFINE
/* Evaluate candidate z: a smaller time wins (by more than a relative
 * 1e-12, the rounding of the model's few operations); a tie goes to the
 * larger z (fewer tiles: the per-tile costs the model leaves out; with F +
 * S = 0 and no per-step cost every height ties). */
TILEHYBRID__COLD int tile__zeval(tile__zsearch *s, int64_t z)
{
    double t = 0.0;
    int rc = tile_height_time(s->m, z, &t, NULL, NULL);
    s->evals++;
    if (rc == TILE_OK && (s->best < 1 || t < s->bestt * (1.0 - 1e-12) ||
                          (t <= s->bestt * (1.0 + 1e-12) && z > s->best))) {
        s->best = z;
        s->bestt = t;
    }
    return rc;
}

/* The lower bound of T at z: (Z/z + fill) (A z + B) <= T(z). */
TILEHYBRID__COLD int tile__zpruned(const tile__zsearch *s, int64_t z)
{
    double lb = ((double)s->Z / (double)z + s->fill) * (s->A * (double)z + s->B);
    return lb > s->bestt * (1.0 + 1e-9) || s->evals >= TILE__MODEL_EVALS;
}

/* The square root of x >= 0 by Newton's method (no <math.h>, no -lm):
 * only the search's starting point depends on it. */
TILEHYBRID__COLD double tile__sqrt(double x)
{
    double r = x > 1.0 ? x : 1.0, prev = 0.0;
    int i;
    if (!(x > 0.0) || x > 1e300)
        return x > 1e300 ? 1e150 : 0.0;
    for (i = 0; i < 2100 && r != prev; i++) {
        prev = r;
        r = 0.5 * (r + x / r);
    }
    return r;
}

/* A, B and the fill from T(1) and T(2); the start: the left end (the
 * smallest z of its ceil(Z/z)) of the block of the continuous minimum. */
TILEHYBRID__COLD int64_t tile__zstart(tile__zsearch *s)
{
    double t1 = 0, t2 = 0, zs;
    int64_t n1 = 0, n2 = 0, z, k;
    (void)tile__height_step(s->m, 1, s->Z, &t1, &n1, NULL);
    (void)tile__height_step(s->m, 2, s->Z, &t2, &n2, NULL);
    t1 += s->m->tsync;
    t2 += s->m->tsync;
    s->A = t2 - t1;
    s->B = t1 - s->A;
    s->A = s->A > 0.0 ? s->A : 0.0;
    s->B = s->B > 0.0 ? s->B : 0.0;
    s->fill = (double)(n1 - s->Z);
    zs = s->fill > 0.0 && s->A > 0.0 ? tile__sqrt((double)s->Z * s->B / (s->fill * s->A))
                                     : (double)s->zh;
    z = zs >= (double)s->zh ? s->zh : zs < 1.0 ? 1 : (int64_t)zs;
    k = tile__ceil_div(s->Z, z);        /* (no overflow near 2^63) */
    return tile__ceil_div(s->Z, k);
}

/**
 * tile_height_best() - the tile height of least predicted time.
 * @m:       the model (struct tile_height_model; its zmax bounds z).
 * @z:       receives the height, 1 <= z <= min(Z, zmax).
 * @seconds: receives T(z) (may be NULL).
 * @st:      NULL, or receives the argument at fault.
 * The exact minimum of tile_height_time() over the integers (times within
 * a relative 1e-12 tie; the largest such z of the form ceil(Z/k)), found as "The tile height" above explains, evaluating
 * at most TILE__MODEL_EVALS heights (past that, the best found).
 * Return: TILE_OK, or a tile_height_time() code (@z unchanged).
 */
TILEHYBRID__COLD int tile_height_best(const tile_height_model *m, int64_t *z, double *seconds,
                                     tilehybrid_status *st)
{
    tile__zsearch s;
    int64_t c, k, zn;
    int rc;
    if (m == NULL || z == NULL)
        return tilehybrid_status_set(st, TILE_ERR_NULL, m == NULL ? "m" : "z", -1);
    if ((rc = tile_height_time(m, 1, NULL, NULL, st)) != TILE_OK)
        return rc;
    memset(&s, 0, sizeof s);
    s.m = m;
    s.Z = m->nest.zlen;
    s.zh = m->zmax >= 1 && m->zmax < s.Z ? m->zmax : s.Z;
    c = s.zh > 1 ? tile__zstart(&s) : 1;
    if ((rc = tile__zeval(&s, c)) != TILE_OK)
        return tile_height_time(m, c, NULL, NULL, st);
    for (zn = c; zn < s.zh; ) {         /* upward: the next left end */
        k = tile__ceil_div(s.Z, zn);
        zn = k > 1 ? tile__ceil_div(s.Z, k - 1) : s.zh + 1;
        if (zn > s.zh || tile__zpruned(&s, zn))
            break;
        tile__zeval(&s, zn);
    }
    for (zn = c; zn > 1; ) {            /* downward: the left end below */
        k = tile__ceil_div(s.Z, zn - 1);
        zn = tile__ceil_div(s.Z, k);
        if (tile__zpruned(&s, zn))
            break;
        tile__zeval(&s, zn);
    }
    *z = s.best;
    if (seconds != NULL)
        *seconds = s.bestt;
    return tilehybrid_status_set(st, TILE_OK, "", -1);
}

/**
 * tile_height_efficiency() - the predicted parallel efficiency of a run.
 * @m:       the model.
 * @seconds: its predicted time (tile_height_time(); > 0).
 * @eff:     receives t_comp * X_1 ... X_N * Z / (P * T * @seconds): the
 *           sequential time over the time of all P * T cores.
 * Return: TILE_OK, TILE_ERR_NULL or TILE_ERR_RANGE (@seconds not > 0).
 */
TILEHYBRID__COLD int tile_height_efficiency(const tile_height_model *m, double seconds, double *eff)
{
    double work, cores;
    int i;
    if (m == NULL || eff == NULL)
        return TILE_ERR_NULL;
    if (!(seconds > 0.0))
        return TILE_ERR_RANGE;
    work = m->nest.tcomp * (double)m->nest.zlen;
    cores = (double)m->threads;
    for (i = 0; i < m->nest.n; i++) {
        work *= (double)m->nest.extent[i];
        cores *= (double)m->dims[i];
    }
    *eff = work / (cores * seconds);
    return TILE_OK;
}

/* The online processors (sysconf), at least 1. */
TILEHYBRID__COLD long tile__online_cpus(void)
{
    long cpus = 1;
#if defined(_SC_NPROCESSORS_ONLN)
    cpus = sysconf(_SC_NPROCESSORS_ONLN);
#endif
    return cpus > 1 ? cpus : 1;
}

/* The first line of a small file (its newline cut) in buf, else 0. */
TILEHYBRID__COLD int tile__read_line(const char *path, char *buf, int size)
{
    FILE *f = fopen(path, "r");
    int ok = f != NULL && fgets(buf, size, f) != NULL;
    if (f != NULL)
        fclose(f);
    if (ok)
        buf[strcspn(buf, "\n")] = '\0';
    return ok;
}

/* The CPUs of a Linux cpu list ("0-3,8-11", "5"), else 0 (malformed). */
TILEHYBRID__COLD int64_t tile__cpu_list_count(const char *list)
{
    int64_t count = 0;
    const char *q = list;
    while (*q != '\0') {
        char *end = NULL;
        long lo = strtol(q, &end, 10), hi = lo;
        if (end == q || lo < 0)
            return 0;
        q = end;
        if (*q == '-') {
            hi = strtol(q + 1, &end, 10);
            if (end == q + 1 || hi < lo)
                return 0;
            q = end;
        }
        count += (int64_t)hi - lo + 1;
        if (*q == ',')
            q++;
        else if (*q != '\0')
            return 0;
    }
    return count;
}

/* The size of cpu0's data or unified cache of @level as the Linux kernel
 * reports it (/sys/devices/system/cpu/cpu0/cache/index<i>/: level, type,
 * size as "<n>K", and shared_cpu_list: the CPUs that share it, in
 * *@sharers when not NULL, 0 if unreadable; @dir: that directory, or a
 * test's), else 0 (not Linux, no such cache, or a size that is no cache's:
 * above 2^50 bytes).  Preferred to sysconf(): glibc's level-3 size on an
 * AMD EPYC virtual machine was the whole package's (320 MiB) where the
 * kernel and lscpu saw the 32 MiB its two vCPUs share, and the threaded
 * cache bound grew tenfold (ADI 64x256x16384, funneled 1 x 2: z = 29 in
 * 0.160 s where z = 10 takes 0.120). */
TILEHYBRID__COLD int64_t tile__sysfs_cache_at(const char *dir, int level, int64_t *sharers)
{
    char path[512], lv[16], type[32], size[32], cpus[256], *end = NULL;
    long long v;
    int64_t unit;
    int i;
    if (sharers != NULL)
        *sharers = 0;
    if (strlen(dir) > sizeof path - 32)
        return 0;
    for (i = 0; i < 16; i++) {
        snprintf(path, sizeof path, "%s/index%d/level", dir, i);
        if (!tile__read_line(path, lv, (int)sizeof lv))
            return 0;       /* the last cache was seen */
        snprintf(path, sizeof path, "%s/index%d/type", dir, i);
        if (atoi(lv) != level || !tile__read_line(path, type, (int)sizeof type) ||
            strcmp(type, "Instruction") == 0)
            continue;
        snprintf(path, sizeof path, "%s/index%d/size", dir, i);
        if (!tile__read_line(path, size, (int)sizeof size))
            continue;
        v = strtoll(size, &end, 10);    /* (out of range: LLONG_MAX, refused below) */
        unit = strcmp(end, "K") == 0 || strcmp(end, "k") == 0 ? 1024
               : strcmp(end, "M") == 0 ? (int64_t)1 << 20 : *end == '\0' ? 1 : 0;
        if (v <= 0 || unit == 0 || v > ((int64_t)1 << 50) / unit)
            continue;
        snprintf(path, sizeof path, "%s/index%d/shared_cpu_list", dir, i);
        if (sharers != NULL && tile__read_line(path, cpus, (int)sizeof cpus))
            *sharers = tile__cpu_list_count(cpus);
        return (int64_t)v * unit;
    }
    return 0;
}

/* TILEHYBRID_CACHE_DIR when set (a directory laid out as Linux's
 * /sys/devices/system/cpu/cpu0/cache: another machine's caches, for
 * tilectl plan on a login node or for a test), else NULL. */
TILEHYBRID__COLD const char *tile__cache_dir(void)
{
    static int said;
    const char *dir = getenv("TILEHYBRID_CACHE_DIR");
    if (dir == NULL || *dir == '\0')
        return NULL;
    if (!said) {            /* a path that holds no description: said, once */
        char path[4096];
        FILE *f;
        said = 1;
        snprintf(path, sizeof path, "%s/index0/level", dir);
        if ((f = fopen(path, "r")) != NULL)
            fclose(f);
        else
            fprintf(stderr, "tiling.h: warning: TILEHYBRID_CACHE_DIR=%s describes no cache "
                    "(no %s): the plan takes every cache size as unknown\n", dir, path);
    }
    return dir;
}

TILEHYBRID__COLD int64_t tile__sysfs_cache(int level, int64_t *sharers)
{
    const char *dir = tile__cache_dir();
    return tile__sysfs_cache_at(dir != NULL ? dir : "/sys/devices/system/cpu/cpu0/cache", level,
                                sharers);
}

/* The level-3 cache (tile__sysfs_cache(), else sysconf's), else 0; and
 * in *@sharers, when not NULL, the CPUs that share it (its shared_cpu_list,
 * else the online processors, else 1 under TILEHYBRID_CACHE_DIR): a
 * core's share of it is its size over these.  Under TILEHYBRID_CACHE_DIR
 * the directory alone describes the caches: nothing of this machine's. */
TILEHYBRID__COLD int64_t tile__llc(int64_t *sharers)
{
    long c = -1;
    int64_t n = 0, v = tile__sysfs_cache(3, &n);
    if (sharers != NULL)
        *sharers = n > 0 ? n : tile__cache_dir() != NULL ? 1 : (int64_t)tile__online_cpus();
    if (v > 0 || tile__cache_dir() != NULL)
        return v;
#if defined(_SC_LEVEL3_CACHE_SIZE)
    c = sysconf(_SC_LEVEL3_CACHE_SIZE);
#endif
    return c > 0 ? (int64_t)c : 0;
}

/**
 * tile_height_llc_bytes() - the last-level cache: the cache bound's
 * fallback when a window of one plane per tile does not fit the level-2
 * caches, and the bound of a forced Z-inner order.
 * @bytes: receives the level-3 cache the kernel reports for cpu0 (Linux:
 *         /sys/devices/system/cpu/cpu0/cache, or the directory
 *         TILEHYBRID_CACHE_DIR names, laid out the same), else sysconf's
 *         level-3 size (not under TILEHYBRID_CACHE_DIR), else 32 MiB.
 * Return: TILE_OK.
 */
TILEHYBRID__COLD int tile_height_llc_bytes(int64_t *bytes)
{
    *bytes = tile__llc(NULL);
    if (*bytes <= 0)
        *bytes = (int64_t)32 << 20;
    return TILE_OK;
}

/**
 * tile_height_cache_bytes() - the cache of one core, for the Z window
 * (a process of T threads gets T times it; see "The tile height").
 * @bytes: receives TILEHYBRID_CACHE_BYTES if set, else the level-2 cache
 *         (the kernel's figure for cpu0 on Linux, or TILEHYBRID_CACHE_DIR's,
 *         else sysconf's), else one
 *         core's share of the level-3 cache (its size over the processors
 *         that share it, else over the online ones: a shared cache must
 *         not count T times), else 2 MiB (the default stays on error).
 * Return: TILE_OK, or TILE_ERR_RANGE (TILEHYBRID_CACHE_BYTES is not a whole
 * number >= 1).
 */
TILEHYBRID__COLD int tile_height_cache_bytes(int64_t *bytes)
{
    const char *env = getenv("TILEHYBRID_CACHE_BYTES");
    int64_t v = 0, sharers = 1;
    *bytes = (int64_t)2 << 20;
    if (env != NULL) {
        if (tilehybrid_parse_i64(env, 1, INT64_MAX, &v) != TILEHYBRID_OK)
            return TILE_ERR_RANGE;
        *bytes = v;
        return TILE_OK;
    }
    v = tile__sysfs_cache(2, NULL);
#if defined(_SC_LEVEL2_CACHE_SIZE)
    if (v <= 0 && tile__cache_dir() == NULL)
        v = (int64_t)sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
    if (v <= 0 && (v = tile__llc(&sharers)) > 0)
        v /= sharers;
    if (v > 0)
        *bytes = v;
    return TILE_OK;
}

/**
 * tile_height_tsync_env() - TILEHYBRID_TSYNC: the threads' barrier per tile
 * step the model takes instead of timing it (a plan; tilectl plan's
 * --tsync default).
 * @seconds: receives its value when it is set and valid (else unchanged).
 * @found:   receives 1 when it is set, else 0.
 * Return: TILE_OK; TILE_ERR_NULL; TILE_ERR_RANGE (set, but not a number of
 * seconds in [0, 1e6]).
 */
TILEHYBRID__COLD int tile_height_tsync_env(double *seconds, int *found)
{
    const char *env = getenv("TILEHYBRID_TSYNC");
    if (seconds == NULL || found == NULL)
        return TILE_ERR_NULL;
    *found = env != NULL;
    if (env != NULL && tilehybrid_parse_double(env, 0.0, 1e6, seconds) != TILEHYBRID_OK)
        return TILE_ERR_RANGE;
    return TILE_OK;
}

/**
 * tile_height_window_bytes() - the cache a process's Z window may fill.
 * @core_bytes: the cache of one core (tile_height_cache_bytes()).
 * @threads:    T, the process's threads (>= 1).
 * @llc_bytes:  the last-level cache (tile_height_llc_bytes()).
 * @given:      1 if @core_bytes was given (TILEHYBRID_CACHE_BYTES, tilectl
 *              plan --cache-bytes): then T times it, as given.
 * Return: T @core_bytes; with T > 1 threads (and @core_bytes not given) at
 * least a quarter of the threads' share of the last-level cache, T / (the
 * processors that share it: its shared_cpu_list in Linux's sysfs, else the
 * online processors) of @llc_bytes, over 4 (saturated at 2^63 - 1).  Why:
 * the threads end every step at a barrier, whose cost (a few microseconds
 * with the waits it brings, not the 0.2 of an idle barrier) the level-2
 * bound multiplies by Z/z steps, while the level-2 misses of a taller
 * window cost less: ADI 64x256x16384, funneled 1 x 2 on this project's
 * test machine (an Intel Xeon, 1 MiB of level 2 per core, 36 MiB of level
 * 3), 3 rounds: z = 2 (the level-2 bound) 0.19 s, z = 8 0.16-0.17,
 * z = 12-16 0.15-0.16, z = 24 0.16-0.17, z = 32 0.18-0.24; one thread is
 * flat from z = 1 to 16 and 2 processes are fastest at z = 2
 * (docs/RESULTS.md, "The tile height of threaded plans").  The quarter
 * keeps the window well inside a shared level-3 cache, which other
 * processes use too (the times rise from z = 32, windows of 13-17 MB).
 */
TILEHYBRID__COLD int64_t tile_height_window_bytes(int64_t core_bytes, int threads,
                                                  int64_t llc_bytes,
                                                  int given)
{
    int64_t w = INT64_MAX, share, cpus;
    if (core_bytes < 1 || threads < 1)
        return core_bytes;
    if (!tilehybrid_mul_ok(core_bytes, (int64_t)threads, &w))
        w = INT64_MAX;
    if (given || threads == 1 || llc_bytes < 1)
        return w;
    (void)tile__llc(&cpus);
    if (cpus < threads)
        cpus = threads;
    share = llc_bytes / cpus / 4;
    if (!tilehybrid_mul_ok(share, (int64_t)threads, &share))
        share = INT64_MAX;
    return share > w ? share : w;
}

/**
 * tile_height_cache_bound() - the largest z whose Z window fits in a cache.
 * @plane_bytes: one plane of the local block with its ghost layers (>= 1).
 * @skew:        S, the thread skew (>= 0).
 * @depz:        d_Z (>= 0).
 * @cache_bytes: the cache (>= 1).
 * Return: the largest z >= 1 with ((S + 3) z + 2 d_Z) @plane_bytes <=
 * @cache_bytes, or INT64_MAX (no bound) when not even z = 1 fits or an
 * argument is out of range.
 */
TILEHYBRID__COLD int64_t tile_height_cache_bound(int64_t plane_bytes, int64_t skew, int depz,
                                                int64_t cache_bytes)
{
    int64_t planes, z;
    if (plane_bytes < 1 || skew < 0 || depz < 0 || cache_bytes < 1 || skew > INT64_MAX / 4)
        return INT64_MAX;
    planes = cache_bytes / plane_bytes;
    if (planes < 2 * (int64_t)depz)
        return INT64_MAX;
    z = (planes - 2 * (int64_t)depz) / (skew + 3);
    return z >= 1 ? z : INT64_MAX;
}

/**
 * tile_height_zmax() - the bound on the tile height of a model (its zmax):
 * the cache bound of its windows, with the fallbacks a plan takes.
 * @m:           the model (its dims, the process grid, and skew).
 * @plane_bytes: one plane of the largest block with its ghost layers.
 * @depz:        d_Z.
 * @cache_bytes: the cache the window should fit (tile_height_window_bytes()).
 * @llc_bytes:   the last-level cache (tile_height_llc_bytes()), or 0.
 * Return: tile_height_cache_bound() in @cache_bytes; when not even z = 1
 * fits there: 1 on one process with one thread (no pipeline: the model's
 * heights all tie, and the smallest window misses least: ADI 128x128,
 * whose 5-plane window passes a 1 MiB level-2 cache, ran at 1.03 G
 * points/s at z = 1 and 0.62 at the last-level bound 32), else the bound in
 * @llc_bytes (a pipeline's fill against its steps), else 1.  At least 2
 * when @m->pairs: the walk pairs a tile's planes (tile_plane_pairs()), and
 * a pair is worth more than the window's misses (one process, -O2
 * -march=native on the Zen 4 test machine: ADI 64x256, whose window fits
 * 1 MiB at z = 1 only, ran 7% faster at z = 2; 128x128, whose window fits
 * at no z, 5%).  Never 0 or INT64_MAX: an argument out of range
 * (@plane_bytes or @cache_bytes below 1, @depz below 0, a negative skew)
 * gives 1 (or 2 with pairs), as tile_height_cache_bound() gives no bound
 * for it.
 */
TILEHYBRID__COLD int64_t tile_height_zmax(const tile_height_model *m, int64_t plane_bytes, int depz,
                                          int64_t cache_bytes, int64_t llc_bytes)
{
    int64_t const skew = m != NULL ? m->skew : 0;
    int64_t z = tile_height_cache_bound(plane_bytes, skew, depz, cache_bytes);
    int i, pipeline = m == NULL || skew > 0;
    for (i = 0; m != NULL && i < m->nest.n && i < TILE_MAX_DIMS; i++)
        pipeline |= m->dims[i] > 1;
    if (z == INT64_MAX && pipeline && llc_bytes > 0)
        z = tile_height_cache_bound(plane_bytes, skew, depz, llc_bytes);
    if (z == INT64_MAX)
        z = 1;
    return m != NULL && m->pairs && z < 2 ? 2 : z;
}

/**
 * tile_plane_pairs() - do a tile's planes go in pairs?  In the hyperplane
 * order (@order, as tile_plane_layout() chose it) of a plan that does not
 * skew (@skewed 0) with N = 2 (@n), the walk interleaves the diagonals of
 * planes z and z + 1 of a tile (struct tile__walk): a plane's diagonal
 * waits for the stores of the one before it, and the other plane's runs
 * in the meantime.  With N > 2 the pairs are slices along an X dimension,
 * and any height has them.  A plan takes the pairs into its height bound
 * only where a height of 2 fits its memory limit (plan.height.pairs).
 * Return: 1 or 0.
 */
TILEHYBRID__COLD int tile_plane_pairs(int order, int skewed, int n)
{
    tile__order_traits t = tile__order_traits_of(order);
    return !skewed && t.pairs != 0 && n == t.pairs;
}
#else
TILEHYBRID__COLD int tile__zeval(tile__zsearch *s, int64_t z);
TILEHYBRID__COLD int tile__zpruned(const tile__zsearch *s, int64_t z);
TILEHYBRID__COLD double tile__sqrt(double x);
TILEHYBRID__COLD int64_t tile__zstart(tile__zsearch *s);
TILEHYBRID__COLD int tile_height_best(const tile_height_model *m, int64_t *z, double *seconds,
                                     tilehybrid_status *st);
TILEHYBRID__COLD int tile_height_efficiency(const tile_height_model *m, double seconds,
                                            double *eff);
TILEHYBRID__COLD long tile__online_cpus(void);
TILEHYBRID__COLD int tile__read_line(const char *path, char *buf, int size);
TILEHYBRID__COLD int64_t tile__cpu_list_count(const char *list);
TILEHYBRID__COLD int64_t tile__sysfs_cache_at(const char *dir, int level, int64_t *sharers);
TILEHYBRID__COLD const char *tile__cache_dir(void);
TILEHYBRID__COLD int64_t tile__sysfs_cache(int level, int64_t *sharers);
TILEHYBRID__COLD int64_t tile__llc(int64_t *sharers);
TILEHYBRID__COLD int tile_height_llc_bytes(int64_t *bytes);
TILEHYBRID__COLD int tile_height_cache_bytes(int64_t *bytes);
TILEHYBRID__COLD int tile_height_tsync_env(double *seconds, int *found);
TILEHYBRID__COLD int64_t tile_height_window_bytes(int64_t core_bytes, int threads,
                                                  int64_t llc_bytes,
                                                  int given);
TILEHYBRID__COLD int64_t tile_height_cache_bound(int64_t plane_bytes, int64_t skew, int depz,
                                                int64_t cache_bytes);
TILEHYBRID__COLD int64_t tile_height_zmax(const tile_height_model *m, int64_t plane_bytes, int depz,
                                          int64_t cache_bytes, int64_t llc_bytes);
TILEHYBRID__COLD int tile_plane_pairs(int order, int skewed, int n);
#endif
