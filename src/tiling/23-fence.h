/* ------------------------------------------------------------------------ */
/* The fence: where the fast loops send an offset the plan does not deliver */

/*
 * The checked loop tests every TILE_AT against the plan's offsets
 * (tile__at_ok) and refuses what the plan does not deliver.  The fast loops
 * (the contiguous loop and the SIMD loop of TILE__POINTS) cannot afford a
 * test per access that notices the access: they add, to each TILE_AT's
 * element offset, a constant of the call site: 0 where the plan delivers
 * the offset, else the fence's distance (tile__fence.trap).  The compiler
 * hoists that choice out of the loops (the offsets are constants and the
 * plan's table a local), so a body that reads only declared offsets runs
 * the same instructions as without it.
 *
 * The fence is address space mapped with no access, a mirror of the
 * window: the window's element e + trap is in it for every element e of
 * the window and 64 planes either side (and, where the window wraps, a
 * window more: the reads across its wrap), so any undeclared offset
 * within that reach faults, at whichever point first reaches it.  The
 * handler (installed by tile_run_start, the one before it restored by
 * tile_run_finish) opens the page (or, where the C library gives no fault
 * address, the fence) and sets the fence's hit; the access completes, the
 * loop finishes its run, sees the hit, and hands the same run to the
 * checked loop, which names the offset, the point and the source line
 * (tile__at_refuse).  A fault outside the fence goes to the disposition
 * the run found, as if the handler were not there.
 *
 * Where the fence cannot be had (no mmap: not a POSIX system; the
 * address space refused; another plan's run holding the handler), the
 * fast loops do not run: every run goes through the checked loop.
 */

#if defined(__unix__) || defined(__unix) || (defined(__APPLE__) && defined(__MACH__))
#define TILE__FENCE 1
#else
#define TILE__FENCE 0
#endif

/* The fence's hit, as another thread's handler may have set it (an
 * atomic load where the compiler has one: the handler runs in the thread
 * that faulted, and the walks of the others read it). */
TILE__ALWAYS_INLINE sig_atomic_t tile__fence_get(const tile__fence *f)
{
#if defined(__GNUC__) || defined(__clang__)
    return __atomic_load_n(&f->hit, __ATOMIC_RELAXED);
#else
    return f->hit;
#endif
}

/* Set it (the handler; the start of a run). */
TILE__ALWAYS_INLINE void tile__fence_set(tile__fence *f, sig_atomic_t v)
{
#if defined(__GNUC__) || defined(__clang__)
    __atomic_store_n(&f->hit, v, __ATOMIC_RELAXED);
#else
    f->hit = v;
#endif
}

/* Has the fence been hit since the walk began (or its last redo)? */
TILE__ALWAYS_INLINE int tile__fence_hit(const tile__walk *w)
{
    return tile__fence_get(&w->plan->store.fence) != w->hit0;
}

/* After a fast run that hit the fence: the walk hands out the same run
 * again (tile__walk_next), to the checked loop. */
static inline void tile__walk_redo(tile__walk *w)
{
    w->hit0 = tile__fence_get(&w->plan->store.fence);
    w->redo = 1;
    w->checked = 0;
}

#if TILEHYBRID__DEFINE
#if TILE__FENCE
/* The fence of the run that holds the handler, and the dispositions the
 * run found (SIGSEGV, SIGBUS: where a page with no access faults). */
static tile__fence *volatile tile__fence_on;
#ifdef SA_SIGINFO
static struct sigaction tile__fence_old[2];

/* The handler: a fault in the fence opens its page; any other goes to
 * the disposition before (restored: the access faults again, there). */
static void tile__fence_fault(int sig, siginfo_t *si, void *uc)
{
    tile__fence *f = tile__fence_on;
    uintptr_t a = (uintptr_t)si->si_addr;
    (void)uc;
    if (f != NULL && a - (uintptr_t)f->mem < f->len &&
        mprotect((void *)(a - a % f->page), f->page, PROT_READ | PROT_WRITE) == 0) {
        tile__fence_set(f, 1);
        return;
    }
    sigaction(sig, &tile__fence_old[sig == SIGBUS], NULL);
}

/* Install the handler for sig, keeping what was there. */
TILEHYBRID__COLD int tile__fence_install(int sig)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = tile__fence_fault;
    sa.sa_flags = SA_SIGINFO;
#ifdef SA_NODEFER
    sa.sa_flags |= SA_NODEFER;
#endif
    sigemptyset(&sa.sa_mask);
    return sigaction(sig, &sa, &tile__fence_old[sig == SIGBUS]) == 0;
}

/* Put back what was there. */
TILEHYBRID__COLD void tile__fence_restore(int sig)
{
    sigaction(sig, &tile__fence_old[sig == SIGBUS], NULL);
}
#else
/* ISO C's signal() (a strict C mode, where the C library declares no
 * sigaction): the handler has no fault address, so the first fault opens
 * the whole fence; a fault after that cannot be in it. */
static void (*tile__fence_old[2])(int);

static void tile__fence_fault(int sig)
{
    tile__fence *f = tile__fence_on;
    if (f != NULL && !tile__fence_get(f) &&
        mprotect(f->mem, f->len, PROT_READ | PROT_WRITE) == 0) {
        tile__fence_set(f, 1);
        signal(sig, tile__fence_fault);     /* where signal() resets it */
        return;
    }
    signal(sig, tile__fence_old[sig == SIGBUS]);
}

TILEHYBRID__COLD int tile__fence_install(int sig)
{
    void (*old)(int) = signal(sig, tile__fence_fault);
    if (old == SIG_ERR)
        return 0;
    tile__fence_old[sig == SIGBUS] = old;
    return 1;
}

TILEHYBRID__COLD void tile__fence_restore(int sig)
{
    signal(sig, tile__fence_old[sig == SIGBUS]);
}
#endif

/* Map len bytes with no access (NULL if the system refuses). */
TILEHYBRID__COLD unsigned char *tile__fence_map(size_t len)
{
    void *m;
#ifdef MAP_ANON
    int fl = MAP_PRIVATE | MAP_ANON;
#ifdef MAP_NORESERVE
    fl |= MAP_NORESERVE;
#endif
    m = mmap(NULL, len, PROT_NONE, fl, -1, 0);
#else
    int fd = open("/dev/zero", O_RDWR);
    if (fd < 0)
        return NULL;
    m = mmap(NULL, len, PROT_NONE, MAP_PRIVATE, fd, 0);
    close(fd);
#endif
    return m == MAP_FAILED ? NULL : (unsigned char *)m;
}
#endif

/* The window's fence (after tile__storage's allocation of ring_bytes at
 * store.ring): none where it cannot be had (the checked loop runs every
 * run).  Its reach beyond the window: 64 planes, and with a window that
 * wraps (not TILE_STORE_FULL) two windows more. */
TILEHYBRID__COLD void tile__fence_make(tile_plan *p, int64_t ring_bytes)
{
    tile__fence *f = &p->store.fence;
    f->mem = NULL;
    f->len = 0;
    f->trap = 0;
    tile__fence_set(f, 0);
    f->armed = 0;
#if TILE__FENCE
    {
        int64_t pb = (int64_t)p->store.plane_bytes, esz = (int64_t)p->cfg.elem_size;
        int64_t reach, span, page = (int64_t)sysconf(_SC_PAGESIZE);
        uintptr_t base, r = (uintptr_t)p->store.ring;
        if (page <= 0 || p->deps.at_all || !tilehybrid_mul_ok(pb, 64, &reach) ||
            (p->cfg.storage != TILE_STORE_FULL &&
             !tilehybrid_add_ok(reach, 2 * ring_bytes, &reach)) ||
            !tilehybrid_add_ok(ring_bytes, 2 * reach + esz + page, &span) ||
            (uint64_t)span > (uint64_t)SIZE_MAX)
            return;
        span -= span % page;
        f->mem = tile__fence_map((size_t)span);
        if (f->mem == NULL)
            return;
        f->len = (size_t)span;
        f->page = (size_t)page;
        base = (uintptr_t)f->mem + (uintptr_t)reach;    /* base - r: whole elements */
        base += ((uintptr_t)esz - (base % (uintptr_t)esz + (uintptr_t)esz - r % (uintptr_t)esz) %
                 (uintptr_t)esz) % (uintptr_t)esz;
        f->trap = (base >= r ? (int64_t)(base - r) : -(int64_t)(r - base)) / esz;
    }
#else
    (void)ring_bytes;
#endif
}

/* The dispositions put back, if f's run holds the handler. */
TILEHYBRID__COLD void tile__fence_release(tile__fence *f)
{
#if TILE__FENCE
    if (f->armed && tile__fence_on == f) {
        tile__fence_restore(SIGSEGV);
        tile__fence_restore(SIGBUS);
        tile__fence_on = NULL;
    }
#endif
    f->armed = 0;
}

/* Unmap the fence (with the window). */
TILEHYBRID__COLD void tile__fence_free(tile_plan *p)
{
    tile__fence *f = &p->store.fence;
    tile__fence_release(f);
#if TILE__FENCE
    if (f->mem != NULL)
        munmap(f->mem, f->len);
#endif
    f->mem = NULL;
    f->len = 0;
}

/* The start of a run: the fence closed again, the handler installed.  Not
 * armed (the fast loops do not run) without a fence, or while another
 * plan's run holds the handler. */
TILEHYBRID__COLD void tile__fence_arm(tile_plan *p)
{
    tile__fence *f = &p->store.fence;
    f->armed = 0;
#if TILE__FENCE
    if (f->mem == NULL || (tile__fence_on != NULL && tile__fence_on != f))
        return;
    if (tile__fence_get(f)) {
        if (mprotect(f->mem, f->len, PROT_NONE) != 0)
            return;
        tile__fence_set(f, 0);
    }
    if (tile__fence_on == NULL) {
        if (!tile__fence_install(SIGSEGV))
            return;
        if (!tile__fence_install(SIGBUS)) {
            tile__fence_restore(SIGSEGV);
            return;
        }
        tile__fence_on = f;
    }
    f->armed = 1;
#endif
}

/* The end of a run: the dispositions put back.  Return: 1 if a fast loop
 * hit the fence during the run (then the run fails: the checked loop has
 * named the offset, or the caller says none could be). */
TILEHYBRID__COLD int tile__fence_disarm(tile_plan *p)
{
    tile__fence *f = &p->store.fence;
    tile__fence_release(f);
    return tile__fence_get(f) != 0;
}
#else
TILEHYBRID__COLD void tile__fence_release(tile__fence *f);
TILEHYBRID__COLD void tile__fence_make(tile_plan *p, int64_t ring_bytes);
TILEHYBRID__COLD void tile__fence_free(tile_plan *p);
TILEHYBRID__COLD void tile__fence_arm(tile_plan *p);
TILEHYBRID__COLD int tile__fence_disarm(tile_plan *p);
#endif
