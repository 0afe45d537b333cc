/* ------------------------------------------------------------------------ */
/* The fence: where the fast loops send an offset the plan does not deliver */

/*
 * The checked loop tests every TILE_AT against the plan's offsets
 * (tile__at_ok) and refuses what the plan does not deliver.  The fast loops
 * (the contiguous loop and the SIMD loop of TILE__POINTS) cannot afford a
 * test per access that notices the access: where the plan delivers a
 * TILE_AT's offset (and the type's size and the offset count are right),
 * its address is the offset's element; where it does not, that element
 * moved by the fence's distance (tile__atset.trap), into the fence, for an
 * offset within +-7 along every dimension, and for a farther one (which
 * could land past the fence's margin: a read 60 planes back faulted
 * outside it, or read whatever was mapped there) the point's own element
 * moved so.  The offsets are constants, so the compiler picks the form at
 * each site (the first keeps the SIMD loop a vector loop, which the second
 * did not in GCC 12) and hoists the test out of the loop over the points
 * (the plan's table is a local): a few instructions per site and run
 * (docs/RESULTS.md, "The fence").
 *
 * The fence is address space mapped with no access, a mirror of the
 * window: the window's byte b + trap is in it for every byte of the window
 * and 16 planes either side, or more where an offset within +-7 moves
 * farther (a plan that skews: tile__fence_near).  The margin takes the
 * offsets within +-7, and a site whose type is larger than the plan's
 * element, whose point i lies i times its size into the run; where the
 * window wraps, a window more.  So every undeclared site faults, at
 * whichever point first reaches it (but a larger type's, past the
 * margin).  The handler (installed by
 * tile_run_start with sigaction, the one before it put back by
 * tile_run_finish, tile_plan_destroy or a return out of the body) opens
 * the fence and sets its hit; the access completes (a read gives 0), the
 * thread finishes its tile, sees the hit, and walks the tile again with
 * every run through the checked loop (tile__walk_again), which names the
 * offset, the point and the source line (tile__at_refuse).  A fault outside the fence goes to the handler the
 * run found (called from this one), or, where that was the default or
 * ignore, to the default again.
 *
 * Where the fence cannot be had, the fast loops do not run: every run goes
 * through the checked loop (slower; rank 0 says why once): not a POSIX
 * system; no sigaction declared (-std=c99 without _POSIX_C_SOURCE and
 * without the _REENTRANT of GCC's -fopenmp: ISO C's signal() cannot put
 * back a handler's flags, nor keep itself installed while threads fault at
 * once); the address space refused (ulimit -v); another plan's run
 * holding the handler.
 */

#if (defined(__unix__) || defined(__unix) || (defined(__APPLE__) && defined(__MACH__))) && \
    defined(SA_SIGINFO)
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

/* Has the fence been hit since the walk began?  Asked once, at the end of
 * the walk's tile (tile__walk_next_level), not after every run: a run
 * costs its points and this. */
TILE__ALWAYS_INLINE int tile__fence_hit(const tile__walk *w)
{
    return tile__fence_get(&w->plan->store.fence) != w->hit0;
}

#if TILEHYBRID__DEFINE
#if TILE__FENCE
/* The fence of the run that holds the handler, and the dispositions the
 * run found (SIGSEGV, SIGBUS: where a page with no access faults). */
static tile__fence *volatile tile__fence_on;
static struct sigaction tile__fence_old[2];

/* The handler: a fault in the fence opens it (all of it: a page at a time
 * would split the mapping at every fault, up to the system's limit), or
 * the page where the whole cannot be had; any other fault goes to the
 * handler the run found, or (the default, ignore) faults again there. */
static void tile__fence_fault(int sig, siginfo_t *si, void *uc)
{
    tile__fence *f = tile__fence_on;
    struct sigaction *old = &tile__fence_old[sig == SIGBUS];
    uintptr_t a = (uintptr_t)si->si_addr;
    if (f != NULL && a - (uintptr_t)f->mem < f->len &&
        (mprotect(f->mem, f->len, PROT_READ | PROT_WRITE) == 0 ||
         mprotect((void *)(a - a % f->page), f->page, PROT_READ | PROT_WRITE) == 0)) {
        tile__fence_set(f, 1);
        return;
    }
    if (old->sa_flags & SA_SIGINFO)
        old->sa_sigaction(sig, si, uc);
    else if (old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN)
        old->sa_handler(sig);
    else
        sigaction(sig, old, NULL);
}

/* Install the handler for sig, keeping what was there. */
TILEHYBRID__COLD int tile__fence_install(int sig)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = tile__fence_fault;
    sa.sa_flags = SA_SIGINFO;
#ifdef SA_ONSTACK
    sa.sa_flags |= SA_ONSTACK;      /* a stack overflow's handler runs too */
#endif
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

/* The bytes an offset within +-7 along every dimension moves at most, a
 * plane more, in *bytes: 7 sum_i |ust_i| elements (tile__user_stride; on
 * a plan that skews, more than 7 planes).  0 on
 * overflow. */
static inline int tile__fence_near(const tile_plan *p, int64_t *bytes)
{
    int i;
    int64_t e = 0;
    for (i = 0; i <= p->cfg.n; i++) {
        int64_t u = tile__user_stride(p, i), t;
        if (!tilehybrid_mul_ok(u < 0 ? -u : u, 7, &t) || !tilehybrid_add_ok(e, t, &e))
            return 0;
    }
    return tilehybrid_mul_ok(e, (int64_t)p->cfg.elem_size, bytes) &&
           tilehybrid_add_ok(*bytes, (int64_t)p->store.plane_bytes, bytes);
}

/* The window's fence (after tile__storage's allocation of ring_bytes at
 * store.ring): none where it cannot be had (the checked loop runs every
 * run).  Its reach beyond the window: 16 planes or, where more, what an
 * offset within +-7 moves (tile__fence_near: a plan that skews), and with
 * a window that wraps (not TILE_STORE_FULL) a window more.  trap: the
 * bytes from the window to its mirror. */
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
        int64_t reach, near, span, page = (int64_t)sysconf(_SC_PAGESIZE);
        uintptr_t base, r = (uintptr_t)p->store.ring;
        if (page <= 0 || p->deps.at_all || !tile__fence_near(p, &near) ||
            !tilehybrid_mul_ok((int64_t)p->store.plane_bytes, 16, &reach) ||
            ((reach = reach > near ? reach : near) < 0) ||
            (p->cfg.storage != TILE_STORE_FULL && !tilehybrid_add_ok(reach, ring_bytes, &reach)) ||
            !tilehybrid_add_ok(ring_bytes, 2 * reach + 2 * page, &span) ||
            (uint64_t)span > (uint64_t)SIZE_MAX)
            return;
        span -= span % page;
        f->mem = tile__fence_map((size_t)span);
        if (f->mem == NULL)
            return;
        f->len = (size_t)span;
        f->page = (size_t)page;
        base = (uintptr_t)f->mem + (uintptr_t)reach;
        f->trap = base >= r ? (int64_t)(base - r) : -(int64_t)(r - base);
    }
#else
    (void)ring_bytes;
#endif
}

/* Why plan p's fast loops do not run (rank 0, once per process): the
 * checked loop runs every run. */
TILEHYBRID__COLD void tile__fence_note(const tile_plan *p, const char *why)
{
    static int said;
    if (said || p->rank != 0)
        return;
    said = 1;
    fprintf(stderr, "tiling.h: rank 0: note: every run goes through the checked loop (slower: "
            "no fast loops), because %s\n", why);
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
    f->armed = p->deps.at_all;      /* every offset passes: no fence needed */
    if (f->armed)
        return;
#if TILE__FENCE
    if (f->mem == NULL) {
        tile__fence_note(p, "the fence's address space was refused (ulimit -v?): it takes "
                         "the window, 32 planes and, unless TILE_STORE_FULL, two windows more");
        return;
    }
    if (tile__fence_on != NULL && tile__fence_on != f) {
        tile__fence_note(p, "another plan's run holds the fence's handler");
        return;
    }
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
#else
    tile__fence_note(p, "this file sees no sigaction (-std=c99 without -D_POSIX_C_SOURCE=200809L, "
                     "and without GCC's -fopenmp, which defines _REENTRANT), or the system is not "
                     "POSIX: add -D_POSIX_C_SOURCE=200809L or use -std=gnu99");
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
TILEHYBRID__COLD void tile__fence_note(const tile_plan *p, const char *why);
TILEHYBRID__COLD void tile__fence_release(tile__fence *f);
TILEHYBRID__COLD void tile__fence_make(tile_plan *p, int64_t ring_bytes);
TILEHYBRID__COLD void tile__fence_free(tile_plan *p);
TILEHYBRID__COLD void tile__fence_arm(tile_plan *p);
TILEHYBRID__COLD int tile__fence_disarm(tile_plan *p);
#endif
