/* tests/unit_scatterlb.c -- the pure functions of scatterlb.h.
 *
 * Exactness: slb_exact vs the paper's Algorithms 1 and 2 (and brute force on
 * tiny instances) on thousands of random instances -- affine with integer or
 * real parameters, tabled non-affine costs, callbacks, zero-cost processors,
 * identical processors, random sending orders -- compared bitwise (integer
 * ticks).  The heuristic within eq. 4 of the optimum, the rounding scheme,
 * the closed form vs the search for rational solutions, the ordering theorem
 * against every permutation, the paper's seismic instance, bad input. */
#define TILEHYBRID_NO_MPI
#include "scatterlb.h"
#include "slb_reference.h"

#include "check.h"

#include <math.h>
#include <stdio.h>

/* ---- deterministic random numbers ---- */
static double runif(void)
{
    return (double)(check_rnd() >> 11) / 9007199254740992.0;
}
static void shuffle(int64_t *a, int64_t n)
{
    int64_t i;
    for (i = n - 1; i > 0; i--) {
        int64_t j = check_rnd_in(0, i), t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

#define PMAX 8
#define NMAX 48

/* ---- random instances ---- */
enum { FAM_AFF_INT, FAM_AFF_REAL, FAM_TABLE, FAM_CALLBACK, FAM_COUNT };
static const char *fam_name[FAM_COUNT] = {"affine integer", "affine real", "tabled non-affine",
                                          "callback non-affine"};

typedef struct inst {
    int64_t p, n;
    slb_affine aff[PMAX];
    double comp[PMAX * NMAX], comm[PMAX * NMAX];
    slb_problem pb;
    int64_t order[PMAX];
} inst;

static double cb_comp(void *ctx, int64_t i, int64_t x)
{
    const inst *in = (const inst *)ctx;
    return in->comp[i * NMAX + x - 1];
}
static double cb_comm(void *ctx, int64_t i, int64_t x)
{
    const inst *in = (const inst *)ctx;
    return in->comm[i * NMAX + x - 1];
}

static void random_affine(inst *in, int integer)
{
    int64_t i;
    for (i = 0; i < in->p; i++) {
        slb_affine *a = &in->aff[i];
        int r = (int)check_rnd_in(0, 9);
        if (i > 0 && r == 0) { /* an identical processor: ties */
            *a = in->aff[check_rnd_in(0, i - 1)];
            continue;
        }
        if (r == 1) { /* costs nothing at all */
            a->comp0 = a->mu = a->comm0 = a->lambda = 0;
            continue;
        }
        if (integer) {
            a->mu = (double)check_rnd_in(0, 12);
            a->lambda = (double)check_rnd_in(0, 6);
            a->comp0 = check_rnd_in(0, 2) == 0 ? (double)check_rnd_in(0, 10) : 0.0;
            a->comm0 = check_rnd_in(0, 2) == 0 ? (double)check_rnd_in(0, 10) : 0.0;
        } else {
            a->mu = runif();
            a->lambda = runif() * 0.4;
            a->comp0 = check_rnd_in(0, 2) == 0 ? runif() * 3 : 0.0;
            a->comm0 = check_rnd_in(0, 2) == 0 ? runif() * 3 : 0.0;
        }
    }
    in->pb = slb_problem_affine(in->p, in->aff);
}

static void random_table(inst *in, int callback)
{
    int64_t i, x;
    for (i = 0; i < in->p; i++) {
        double c = 0, m = 0;
        int kind = (int)check_rnd_in(0, 5);
        if (i > 0 && kind == 0) { /* identical */
            int64_t j = check_rnd_in(0, i - 1);
            memcpy(&in->comp[i * NMAX], &in->comp[j * NMAX], NMAX * sizeof(double));
            memcpy(&in->comm[i * NMAX], &in->comm[j * NMAX], NMAX * sizeof(double));
            continue;
        }
        for (x = 1; x <= NMAX; x++) {
            if (kind == 1) { /* zero cost */
                c = m = 0;
            } else {
                /* increments: often 0 or small, sometimes large (packets,
                 * caches), a first-item latency */
                int r = (int)check_rnd_in(0, 9);
                c += r < 3 ? 0.0 : (r < 8 ? (double)check_rnd_in(1, 8) : (double)check_rnd_in(9, 40));
                if (x == 1)
                    c += (double)check_rnd_in(0, 15);
                r = (int)check_rnd_in(0, 9);
                m += r < 4 ? 0.0 : (r < 8 ? (double)check_rnd_in(1, 4) : (double)check_rnd_in(5, 20));
                if (x == 1)
                    m += (double)check_rnd_in(0, 8);
                if (kind == 2) { /* real-valued */
                    c += runif();
                    m += runif() * 0.5;
                }
            }
            in->comp[i * NMAX + x - 1] = c;
            in->comm[i * NMAX + x - 1] = m;
        }
    }
    if (callback)
        in->pb = slb_problem_callback(in->p, cb_comp, cb_comm, in);
    else
        in->pb = slb_problem_table(in->p, NMAX, in->comp, in->comm);
}

static void random_inst(inst *in, int fam)
{
    int64_t i;
    in->p = check_rnd_in(1, 6);
    in->n = check_rnd_in(0, 40);
    if (fam == FAM_AFF_INT || fam == FAM_AFF_REAL)
        random_affine(in, fam == FAM_AFF_INT);
    else
        random_table(in, fam == FAM_CALLBACK);
    for (i = 0; i < in->p; i++)
        in->order[i] = i;
    if (check_rnd_in(0, 1) == 0)
        shuffle(in->order, in->p);
    else if (in->pb.kind == SLB_KIND_AFFINE)
        slb_order_bandwidth(&in->pb, in->n, check_rnd_in(0, in->p - 1), in->order, NULL);
}

/* Brute force: every composition of n into p parts. */
static int64_t brute_best;
static void brute_rec(const inst *in, int64_t *cnt, int64_t k, int64_t left)
{
    slb_info info;
    if (k == in->p - 1) {
        cnt[in->order[k]] = left;
        if (slb_evaluate(&in->pb, in->n, in->order, cnt, NULL, &info, NULL) == SLB_OK &&
            (brute_best < 0 || info.makespan_ticks < brute_best))
            brute_best = info.makespan_ticks;
        return;
    }
    for (cnt[in->order[k]] = 0; cnt[in->order[k]] <= left; cnt[in->order[k]]++)
        brute_rec(in, cnt, k + 1, left - cnt[in->order[k]]);
}

static int sums_to(const int64_t *c, int64_t p, int64_t n)
{
    int64_t i, s = 0;
    for (i = 0; i < p; i++) {
        if (c[i] < 0)
            return 0;
        s += c[i];
    }
    return s == n;
}

/* One distribution: counts add up, finish times/makespan agree with
 * slb_evaluate bitwise. */
static int consistent(const inst *in, const int64_t *c, const double *fin, const slb_info *info)
{
    double f2[PMAX];
    slb_info e;
    int64_t i;
    double mx = 0;
    if (!sums_to(c, in->p, in->n))
        return 0;
    if (slb_evaluate(&in->pb, in->n, in->order, c, f2, &e, NULL) != SLB_OK)
        return 0;
    for (i = 0; i < in->p; i++) {
        if (f2[i] != fin[i])
            return 0;
        if (fin[i] > mx)
            mx = fin[i];
    }
    return e.makespan_ticks == info->makespan_ticks && mx == info->makespan;
}

static void test_exact_random(void)
{
    int fam;
    for (fam = 0; fam < FAM_COUNT; fam++) {
        int cases = fam == FAM_CALLBACK ? 800 : 2500, t, bad = 0, brute = 0, ties = 0;
        int64_t worst_nodes = 0;
        for (t = 0; t < cases; t++) {
            static inst in;
            int64_t c1[PMAX], c2[PMAX], c3[PMAX], c4[PMAX], cb[PMAX];
            double f1[PMAX], f2[PMAX], f3[PMAX], f4[PMAX];
            slb_info i1, i2, i3, i4;
            int r1, r2, r3, r4, ok;
            random_inst(&in, fam);
            r1 = ref_alg1(&in.pb, in.n, in.order, c1, f1, &i1, NULL);
            r2 = ref_alg2(&in.pb, in.n, in.order, c2, f2, &i2, NULL);
            /* the search alone (no node limit, no hand-over to Algorithm 2) */
            r3 = slb__exact(&in.pb, in.n, in.order, c3, f3, &i3, NULL, 0);
            r4 = slb_exact(&in.pb, in.n, in.order, c4, f4, &i4, NULL);
            ok = r1 == SLB_OK && r2 == SLB_OK && r3 == SLB_OK && r4 == SLB_OK &&
                 i1.makespan_ticks == i2.makespan_ticks && i2.makespan_ticks == i3.makespan_ticks &&
                 i3.makespan_ticks == i4.makespan_ticks && i1.makespan == i3.makespan &&
                 consistent(&in, c1, f1, &i1) && consistent(&in, c2, f2, &i2) &&
                 consistent(&in, c3, f3, &i3) && consistent(&in, c4, f4, &i4);
            if (ok && memcmp(c1, c3, sizeof(int64_t) * (size_t)in.p) != 0)
                ties++; /* several optimal distributions: any one is fine */
            if (ok && in.p <= 4 && in.n <= 12) {
                brute_best = -1;
                brute_rec(&in, cb, 0, in.n);
                ok = brute_best == i1.makespan_ticks;
                brute++;
            }
            if (i3.work > worst_nodes)
                worst_nodes = i3.work;
            if (!ok) {
                if (bad++ < 3)
                    check_note("%s case %d: p=%lld n=%lld rc %d %d %d makespans %lld %lld %lld",
                               fam_name[fam], t, (long long)in.p, (long long)in.n, r1, r2, r3,
                               (long long)i1.makespan_ticks, (long long)i2.makespan_ticks,
                               (long long)i3.makespan_ticks);
            }
        }
        check(bad == 0,
              "exact search = exact = Algorithm 2 = Algorithm 1 (bitwise, ticks), %s costs: "
              "%d random cases "
              "(%d also by brute force, %d with another optimal distribution)",
              fam_name[fam], cases, brute, ties);
        check_note("%s: at most %lld search nodes in one exact search", fam_name[fam],
                   (long long)worst_nodes);
    }
}

/* Algorithm 1 accepts non-monotone costs; exact and dp refuse them. */
static void test_non_monotone(void)
{
    int t, bad = 0;
    for (t = 0; t < 300; t++) {
        static inst in;
        int64_t c[PMAX], i, x, cb[PMAX];
        double f[PMAX];
        slb_info info;
        in.p = check_rnd_in(1, 4);
        in.n = check_rnd_in(0, 9);
        for (i = 0; i < in.p; i++)
            for (x = 0; x < NMAX; x++) {
                in.comp[i * NMAX + x] = (double)check_rnd_in(0, 30);
                in.comm[i * NMAX + x] = (double)check_rnd_in(0, 10);
            }
        in.pb = slb_problem_table(in.p, NMAX, in.comp, in.comm);
        for (i = 0; i < in.p; i++)
            in.order[i] = i;
        shuffle(in.order, in.p);
        if (ref_alg1(&in.pb, in.n, in.order, c, f, &info, NULL) != SLB_OK ||
            !consistent(&in, c, f, &info)) {
            bad++;
            continue;
        }
        brute_best = -1;
        brute_rec(&in, cb, 0, in.n);
        if (brute_best != info.makespan_ticks)
            bad++;
    }
    check(bad == 0, "Algorithm 1 = brute force on 300 random non-monotone tabled instances");
}

/* ---- the paper's Table 1 ---- */
static const char *seis_name[16] = {"dinadan", "pellinore", "caseb", "sekhmet", "merlin#1",
                                    "merlin#2", "seven#1", "seven#2", "leda#1", "leda#2",
                                    "leda#3", "leda#4", "leda#5", "leda#6", "leda#7", "leda#8"};
#include "seismic.h"

static void test_seismic(void)
{
    slb_affine a[16];
    slb_problem pb;
    int64_t order[16], given[16], ce[16], ch[16], cu[16], i;
    double fe[16], x[16], T;
    slb_info ie, ih, iu, ig, ir, i2, i3;
    const int64_t n = 817101;
    int ok, rc;
    seismic(a);
    pb = slb_problem_affine(16, a);
    rc = slb_order_bandwidth(&pb, n, 0, order, NULL);
    check(rc == SLB_OK && order[15] == 0 && order[0] == 2 && order[14] == 5,
          "seismic: bandwidth order starts with caseb (lambda 1.00e-5), merlin last but "
          "the root dinadan");
    for (i = 0; i < 15; i++)
        given[i] = i + 1;
    given[15] = 0;
    rc = slb_exact(&pb, n, order, ce, fe, &ie, NULL);
    check(rc == SLB_OK && sums_to(ce, 16, n), "seismic: exact solves n=817101 on p=16, counts "
                                              "add up (%lld search nodes)", (long long)ie.work);
    rc = slb_heuristic(&pb, n, order, ch, NULL, &ih, NULL);
    check(rc == SLB_OK && ih.guaranteed && ih.makespan >= ie.makespan &&
              ih.makespan <= ie.makespan + ih.bound && ih.rational <= ie.makespan,
          "seismic: rational %.6f <= exact %.6f <= heuristic %.6f <= exact + eq.4 bound %.6f",
          ih.rational, ie.makespan, ih.makespan, ie.makespan + ih.bound);
    check_note("seismic: heuristic relative error %.2g (the paper reports < 6e-6 for its "
               "run; eq. 4 allows %.2g)", (ih.makespan - ie.makespan) / ie.makespan,
               ih.bound / ie.makespan);
    rc = slb_uniform(&pb, n, order, cu, NULL, &iu, NULL);
    check(rc == SLB_OK && iu.makespan > 1.9 * ie.makespan,
          "seismic: uniform %.1f s is about twice the balanced %.1f s (paper: 853 s vs 430 s)",
          iu.makespan, ie.makespan);
    check(ie.makespan > 380 && ie.makespan < 440, "seismic: predicted balanced makespan %.1f s "
                                                  "near the paper's measured 405-430 s",
          ie.makespan);
    rc = slb_exact(&pb, n, given, NULL, NULL, &ig, NULL);
    check(rc == SLB_OK && ig.makespan >= ie.makespan,
          "seismic: file order (exact %.3f s) is not better than bandwidth order (%.3f s)",
          ig.makespan, ie.makespan);
    rc = slb_rational(&pb, n, order, x, &T, &ir, NULL);
    ok = rc == SLB_OK && fabs(T - ih.rational) <= 1e-12 * T;
    for (i = 0; i < 16 && ok; i++)
        ok = fabs((double)ch[i] - x[i]) < 1.0;
    check(ok, "seismic: heuristic counts within 1 of the rational solution (T = %.6f)", T);
    /* Algorithm 2 on a smaller n: the same optimum */
    rc = ref_alg2(&pb, 4000, order, NULL, NULL, &i2, NULL);
    rc |= slb_exact(&pb, 4000, order, NULL, NULL, &i3, NULL);
    check(rc == SLB_OK && i2.makespan_ticks == i3.makespan_ticks,
          "seismic at n=4000: Algorithm 2 = exact (%.6f s)", i3.makespan);
    /* (what `tilectl scatter --method dp` checked until 0.2.0) */
    rc = ref_alg2(&pb, 3000, order, NULL, NULL, &i2, NULL);
    rc |= slb_exact(&pb, 3000, order, NULL, NULL, &i3, NULL);
    check(rc == SLB_OK && i2.makespan == i3.makespan,
          "seismic at n=3000: Algorithm 2 = exact bitwise (%.6f s)", i3.makespan);
    check_note("seismic exact: makespan %.6f s, counts %s %lld ... %s %lld", ie.makespan,
               seis_name[order[0]], (long long)ce[order[0]], seis_name[0], (long long)ce[0]);
}

/* ---- heuristic ---- */
static void test_heuristic_random(void)
{
    int t, bad = 0, notg = 0, cases = 3000;
    double worst = 0;
    for (t = 0; t < cases; t++) {
        static inst in;
        int64_t ch[PMAX], ce[PMAX], i;
        double fh[PMAX], x[PMAX], T, tol;
        slb_info ih, ie, ir;
        int ok;
        memset(&ih, 0, sizeof ih);
        memset(&ie, 0, sizeof ie);
        random_inst(&in, check_rnd_in(0, 1) ? FAM_AFF_INT : FAM_AFF_REAL);
        ok = slb_heuristic(&in.pb, in.n, in.order, ch, fh, &ih, NULL) == SLB_OK &&
             slb_exact(&in.pb, in.n, in.order, ce, NULL, &ie, NULL) == SLB_OK &&
             slb_rational(&in.pb, in.n, in.order, x, &T, &ir, NULL) == SLB_OK &&
             consistent(&in, ch, fh, &ih);
        /* ticks round parameters by a relative 2^-50 or so: allow 1e-9 */
        tol = 1e-9 * (ie.makespan + ih.bound) + 1e-12;
        if (ok)
            ok = ih.makespan >= ie.makespan && ih.makespan <= ie.makespan + ih.bound + tol &&
                 ih.rational <= ie.makespan + tol && T == ih.rational;
        for (i = 0; ok && i < in.p; i++)
            ok = fabs((double)ch[i] - x[i]) < 1.0 + 1e-9 && (x[i] != 0.0 || ch[i] == 0);
        if (ok && !ih.guaranteed)
            notg++;
        if (ok && ie.makespan > 0 && (ih.makespan - ie.makespan) / ih.bound > worst)
            worst = (ih.makespan - ie.makespan) / ih.bound;
        if (!ok && bad++ < 3)
            check_note("heuristic case %d: p=%lld n=%lld heur %.9g exact %.9g bound %.9g "
                       "rational %.9g",
                       t, (long long)in.p, (long long)in.n, ih.makespan, ie.makespan, ih.bound,
                       ih.rational);
    }
    check(bad == 0 && notg == 0,
          "heuristic: exact <= heuristic <= exact + eq.4 bound, rational <= exact, "
          "|n_i - x_i| < 1, zeros stay zero: %d random affine cases in random orders", cases);
    check_note("heuristic: worst (heuristic - exact) / bound = %.3f", worst);
}

/* Closed form of Theorems 1-2 vs the general search, linear costs. */
static void test_rational_closed_form(void)
{
    int t, bad = 0;
    for (t = 0; t < 2000; t++) {
        int64_t p = check_rnd_in(1, 8), k;
        double d[4 * PMAX], x1[PMAX], x2[PMAX], T1, T2, n = (double)check_rnd_in(1, 100000), s1 = 0;
        int g1, g2;
        for (k = 0; k < p; k++) {
            d[4 * k] = d[4 * k + 2] = 0;
            d[4 * k + 1] = 0.001 + runif();
            d[4 * k + 3] = check_rnd_in(0, 3) == 0 ? 0.0 : runif() * (check_rnd_in(0, 1) ? 0.01 : 2.0);
        }
        slb__rational(p, d, n, x1, &T1, 1, &g1, NULL);
        slb__rational(p, d, n, x2, &T2, 0, &g2, NULL);
        for (k = 0; k < p; k++)
            s1 += x1[k];
        if (!(fabs(T1 - T2) <= 1e-9 * T1 && fabs(s1 - n) <= 1e-9 * n && g1 && g2)) {
            if (bad++ < 3)
                check_note("closed form %.12g vs search %.12g (p=%lld n=%g)", T1, T2,
                           (long long)p, n);
        }
    }
    check(bad == 0, "rational, linear costs: closed form of Theorems 1-2 = bisection search "
                    "(2000 random cases, any order, dropped processors)");
}

/* Theorem 3: for linear costs the bandwidth order (root last) is optimal
 * among all orders for rational distributions; for integer ones it is
 * within the eq. 4 bound of the best order. */
static int next_perm(int64_t *a, int64_t n)
{
    int64_t i = n - 2, j, t;
    while (i >= 0 && a[i] >= a[i + 1])
        i--;
    if (i < 0)
        return 0;
    j = n - 1;
    while (a[j] <= a[i])
        j--;
    t = a[i];
    a[i] = a[j];
    a[j] = t;
    for (i++, j = n - 1; i < j; i++, j--) {
        t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
    return 1;
}

static void test_ordering_theorem(void)
{
    int t, bad = 0, badint = 0, perms = 0;
    for (t = 0; t < 300; t++) {
        slb_affine a[6];
        slb_problem pb;
        int64_t p = check_rnd_in(2, 6), n = check_rnd_in(1, 60), root = check_rnd_in(0, p - 1), k;
        int64_t ord[6], perm[6];
        double x[6], Tb, Tp, bound = 0, maxmu = 0;
        slb_info ib, ip;
        for (k = 0; k < p; k++) {
            a[k].comp0 = a[k].comm0 = 0;
            a[k].mu = (double)check_rnd_in(1, 40);
            a[k].lambda = (double)check_rnd_in(0, 8) + runif();
            bound += a[k].lambda;
            if (a[k].mu > maxmu)
                maxmu = a[k].mu;
        }
        bound += maxmu;
        pb = slb_problem_affine(p, a);
        slb_order_bandwidth(&pb, n, root, ord, NULL);
        slb_rational(&pb, n, ord, x, &Tb, NULL, NULL);
        slb_exact(&pb, n, ord, NULL, NULL, &ib, NULL);
        for (k = 0; k < p - 1; k++)
            perm[k] = k < root ? k : k + 1;
        perm[p - 1] = root;
        do {
            slb_rational(&pb, n, perm, x, &Tp, NULL, NULL);
            slb_exact(&pb, n, perm, NULL, NULL, &ip, NULL);
            if (Tb > Tp * (1 + 1e-12))
                bad++;
            if (ib.makespan > ip.makespan + bound)
                badint++;
            perms++;
        } while (next_perm(perm, p - 1));
    }
    check(bad == 0, "Theorem 3: bandwidth order never worse than any of %d orders (rational, "
                    "exhaustive over permutations, 300 random linear instances)", perms);
    check(badint == 0, "integer optimum in bandwidth order within eq. 4 bound of every order "
                       "(%d orders)", perms);
}

static void test_round(void)
{
    int t, bad = 0;
    for (t = 0; t < 3000; t++) {
        int64_t p = check_rnd_in(1, 12), n = check_rnd_in(0, 1000), i, c[12];
        double x[12], s = 0;
        for (i = 0; i < p; i++) {
            x[i] = check_rnd_in(0, 4) == 0 ? (double)check_rnd_in(0, 5) : runif();
            s += x[i];
        }
        for (i = 0; i < p; i++)
            x[i] = s > 0 ? x[i] * (double)n / s : (i == 0 ? (double)n : 0.0);
        if (slb_round(p, x, n, c, NULL) != SLB_OK || !sums_to(c, p, n)) {
            bad++;
            continue;
        }
        for (i = 0; i < p; i++)
            if (!(fabs((double)c[i] - x[i]) < 1.0 + 1e-9) ||
                (x[i] == floor(x[i]) && (double)c[i] != x[i]))
                bad++;
    }
    check(bad == 0, "rounding scheme: sum = n, |n'_i - n_i| < 1, integers kept (3000 cases)");
}

static void test_choose_root(void)
{
    /* Three machines.  From candidate 2 (the fastest, mu = 1) every link is
     * fast; from 0 and 1 the links are slow.  Candidate 2 wins unless the
     * data must first travel to it (move cost 5000). */
    slb_affine c0[3] = {{0, 2, 0, 0}, {0, 2, 0, 1.5}, {0, 1, 0, 1.5}};
    slb_affine c1[3] = {{0, 2, 0, 1.5}, {0, 2, 0, 0}, {0, 1, 0, 1.5}};
    slb_affine c2[3] = {{0, 2, 0, 0.1}, {0, 2, 0, 0.1}, {0, 1, 0, 0}};
    slb_problem cand[3];
    double move[3] = {0, 0, 5000}, tot[3], nomove[3] = {0, 0, 0};
    int64_t best = -1;
    slb_info info;
    int rc;
    cand[0] = slb_problem_affine(3, c0);
    cand[1] = slb_problem_affine(3, c1);
    cand[2] = slb_problem_affine(3, c2);
    rc = slb_choose_root(3, cand, nomove, 1000, SLB_METHOD_EXACT, &best, tot, &info, NULL);
    check(rc == SLB_OK && best == 2 && info.makespan == tot[2] && tot[2] < tot[0],
          "choose root: the fast, well-connected machine wins (%.1f vs %.1f)", tot[2], tot[0]);
    rc = slb_choose_root(3, cand, move, 1000, SLB_METHOD_EXACT, &best, tot, &info, NULL);
    check(rc == SLB_OK && best != 2 && tot[2] > 5000,
          "choose root: but not when the data must first travel to it (best %lld: %.1f vs "
          "%.1f)", (long long)best, tot[best], tot[2]);
}

static double cb_bad(void *ctx, int64_t i, int64_t x)
{
    (void)ctx;
    return i == 1 && x == 3 ? -1.0 : (double)x;
}

/* Problems rejected: n < 0, no processors, a NULL problem, costs that are
 * negative, NaN or infinite (set in a[1], which pb reads; 2 again at the
 * end), a decreasing or short table tb, a negative callback cost. */
static void test_problem_errors(slb_affine *a, const slb_problem *pb,
                                const slb_problem *tb)
{
    slb_problem nb, cbp = slb_problem_callback(3, cb_bad, cb_bad, NULL);
    int64_t c[3];
    slb_info info;
    tilehybrid_status st;
    int rc;

    rc = slb_exact(pb, -1, NULL, c, NULL, &info, &st);
    check(rc == SLB_ERR_ITEMS && strcmp(st.arg, "n") == 0, "n < 0 rejected, 'n' named: %s",
          slb_strerror(rc));
    nb = slb_problem_affine(0, a);
    check(slb_exact(&nb, 5, NULL, c, NULL, &info, NULL) == SLB_ERR_NOPROC,
          "no processors rejected: %s", slb_strerror(SLB_ERR_NOPROC));
    check(slb_exact(NULL, 5, NULL, c, NULL, &info, NULL) == SLB_ERR_ARG, "NULL problem rejected");
    a[1].mu = -1;
    rc = slb_heuristic(pb, 5, NULL, c, NULL, &info, &st);
    check(rc == SLB_ERR_COST && st.index == 1 && strcmp(st.arg, "pb") == 0,
          "negative mu rejected, processor named (%lld): %s", (long long)st.index,
          slb_strerror(rc));
    a[1].mu = 0.0 / 0.0 * 0.0;
    a[1].mu = a[1].mu != a[1].mu ? a[1].mu : -1; /* NaN */
    check(slb_exact(pb, 5, NULL, c, NULL, &info, &st) == SLB_ERR_COST && st.index == 1,
          "NaN cost rejected");
    a[1].mu = 1e308 * 10;
    check(slb_exact(pb, 5, NULL, c, NULL, &info, NULL) == SLB_ERR_COST, "infinite cost rejected");
    a[1].mu = 2;
    rc = slb_exact(tb, 4, NULL, c, NULL, &info, &st);
    check(rc == SLB_ERR_MONOTONE && st.index == 2 && info.bad_items == 3,
          "decreasing table rejected by exact, processor %lld at %lld items: %s",
          (long long)st.index, (long long)info.bad_items, slb_strerror(rc));
    check(ref_alg2(tb, 4, NULL, c, NULL, &info, NULL) == SLB_ERR_MONOTONE,
          "decreasing table rejected by Algorithm 2");
    check(ref_alg1(tb, 4, NULL, c, NULL, &info, NULL) == SLB_OK,
          "Algorithm 1 accepts non-monotone costs (as the paper says)");
    rc = slb_exact(&cbp, 5, NULL, c, NULL, &info, &st);
    check(rc == SLB_ERR_COST && st.index == 1 && info.bad_items == 3,
          "negative callback cost rejected, processor and item count named");
    check(slb_exact(tb, 5, NULL, c, NULL, &info, NULL) == SLB_ERR_TABLE,
          "table shorter than n rejected: %s", slb_strerror(SLB_ERR_TABLE));
}

/* Arguments rejected: an order with a repeated processor, a root outside
 * the processors, the heuristic on tabled costs, an unknown method, counts
 * that do not add up, n beyond 2^61; n = 0 is no error. */
static void test_argument_errors(const slb_problem *pb, const slb_problem *tb)
{
    int64_t c[3], ord[3] = {0, 0, 2}, good[3] = {2, 1, 0};
    double x[3], T;
    slb_info info;
    tilehybrid_status st;
    int rc;

    rc = slb_exact(pb, 5, ord, c, NULL, &info, &st);
    check(rc == SLB_ERR_ORDER && st.index == 1 && strcmp(st.arg, "order") == 0,
          "order with a repeated processor rejected, position %lld named", (long long)st.index);
    check(slb_order_bandwidth(pb, 5, 3, ord, NULL) == SLB_ERR_ROOT &&
              slb_order_bandwidth(pb, 5, -1, ord, &st) == SLB_ERR_ROOT &&
              strcmp(st.arg, "root") == 0,
          "root outside the processors rejected: %s", slb_strerror(SLB_ERR_ROOT));
    check(slb_heuristic(tb, 3, NULL, c, NULL, &info, NULL) == SLB_ERR_AFFINE &&
              slb_rational(tb, 3, NULL, x, &T, &info, NULL) == SLB_ERR_AFFINE,
          "heuristic on tabled costs rejected: %s", slb_strerror(SLB_ERR_AFFINE));
    check(slb_solve(pb, 3, NULL, 42, c, NULL, &info, &st) == SLB_ERR_METHOD &&
              strcmp(st.arg, "method") == 0,
          "unknown method rejected, 'method' named");
    c[0] = 2;
    c[1] = 2;
    c[2] = 0;
    check(slb_evaluate(pb, 3, NULL, c, NULL, &info, NULL) == SLB_ERR_COUNTS,
          "counts adding up to more than n rejected");
    c[1] = -1;
    c[2] = 2;
    rc = slb_evaluate(pb, 3, NULL, c, NULL, &info, &st);
    check(rc == SLB_ERR_COUNTS && st.index == 1 && strcmp(st.arg, "counts") == 0,
          "negative count rejected, processor named");
    check(slb_exact(pb, (int64_t)1 << 62, NULL, c, NULL, &info, NULL) == SLB_ERR_OVERFLOW,
          "n beyond 2^61 rejected: %s", slb_strerror(SLB_ERR_OVERFLOW));
    rc = slb_exact(pb, 0, good, c, NULL, &info, &st);
    check(rc == SLB_OK && st.code == SLB_OK && st.index == -1 && c[0] == 0 && c[1] == 0 &&
              c[2] == 0 && info.makespan == 0,
          "n = 0: nothing to do, makespan 0, status says success");
}

/* The error codes' convention, the version and the method names. */
static void test_error_codes(void)
{
    int code, distinct = 1;

    /* the convention: SLB_OK = 0, every error positive, a distinct text */
    for (code = SLB_OK; code <= SLB_ERR_TIME && distinct; code++) {
        int other;
        for (other = code + 1; other <= SLB_ERR_TIME; other++)
            if (strcmp(slb_strerror(code), slb_strerror(other)) == 0)
                distinct = 0;
    }
    check(SLB_OK == 0 && SLB_ERR_ARG > 0 && distinct &&
              strcmp(slb_strerror(-1), "unknown scatterlb error code") == 0 &&
              strcmp(slb_strerror(SLB_ERR_TIME + 1), "unknown scatterlb error code") == 0,
          "slb_strerror: positive codes, a distinct message for each, never NULL");
    check(strcmp(SLB_VERSION, TILEHYBRID_VERSION) == 0 &&
              strcmp(slb_method_name(SLB_METHOD_HEURISTIC), "heuristic") == 0 &&
              slb_method_name(3) == NULL,
          "version %s (= TILEHYBRID_VERSION), method names", SLB_VERSION);
}

static void test_errors(void)
{
    slb_affine a[3] = {{0, 1, 0, 0}, {0, 2, 0, 0.5}, {0, 1, 0, 0.1}};
    double tc[3 * 4] = {1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4};
    double tm[3 * 4] = {1, 1, 1, 1, 0, 1, 2, 3, 1, 2, 1, 2}; /* row 2 decreases at x=3 */
    slb_problem pb = slb_problem_affine(3, a), tb = slb_problem_table(3, 4, tc, tm);

    test_problem_errors(a, &pb, &tb);
    test_argument_errors(&pb, &tb);
    test_error_codes();
}

/* Times beyond a double are an overflow that names the processor, not a
 * "bad cost"; times beyond the ticks' range but within a double are
 * reported, not capped. */
static void test_overflow(void)
{
    slb_affine a[3] = {{0, 1e307, 0, 0}, {0, 1e307, 0, 1e-5}, {0, 1e300, 0, 1e-5}};
    slb_problem pb = slb_problem_affine(3, a);
    int64_t c[3], order[3] = {1, 2, 0}, n = 1000000000000000ll; /* 10^15 */
    double f[3];
    slb_info info;
    tilehybrid_status st;
    int rc, m, ok = 1;
    for (m = SLB_METHOD_EXACT; m <= SLB_METHOD_UNIFORM; m++) {
        rc = slb_solve(&pb, n, order, m, c, f, &info, &st);
        ok = ok && rc == SLB_ERR_TIME && strcmp(st.arg, "pb") == 0 && st.index == 2;
    }
    check(ok, "every processor alone overflows a double: SLB_ERR_TIME for every method, the "
              "fastest processor named (%lld): %s", (long long)st.index,
          slb_strerror(SLB_ERR_TIME));
    a[2].mu = 1e-6; /* now processor 2 alone takes 1e9 s */
    rc = slb_exact(&pb, n, order, c, f, &info, &st);
    check(rc == SLB_OK && c[2] == n && info.makespan > 1.09e10 && info.makespan < 1.11e10,
          "one processor in range: exact gives it everything (makespan %.4g s = 1e10 s to "
          "send + 1e9 s to compute)", info.makespan);
    rc = slb_uniform(&pb, n, order, c, f, &info, &st);
    check(rc == SLB_ERR_TIME && st.index == 1,
          "uniform share on a processor whose time overflows: SLB_ERR_TIME names it (%lld)",
          (long long)st.index);
    a[0].mu = a[1].mu = 1e200;
    rc = slb_uniform(&pb, n, order, c, f, &info, &st);
    check(rc == SLB_OK && f[0] > 3e214 && f[1] > f[0] && info.makespan == f[1] &&
              info.makespan_ticks == (int64_t)1 << 61,
          "uniform beyond the ticks' range: finish %.4g s computed in double, not capped",
          f[0]);
}

/* The example of the header comment. */
static void test_header_example(void)
{
    slb_affine cost[3] = {{0, 0.009288, 0, 0}, {0, 0.004629, 0, 1.00e-5}, {0, 0.009677, 0, 3.53e-5}};
    slb_problem pb = slb_problem_affine(3, cost);
    int64_t order[3] = {0, 0, 0}, counts[3] = {0, 0, 0};
    double finish[3] = {0, 0, 0};
    slb_info info;
    int rc;
    memset(&info, 0, sizeof info);
    rc = slb_order_bandwidth(&pb, 1000, 0, order, NULL);
    if (rc == SLB_OK)
        rc = slb_exact(&pb, 1000, order, counts, finish, &info, NULL);
    check(rc == SLB_OK && order[0] == 1 && order[1] == 2 && order[2] == 0 &&
              sums_to(counts, 3, 1000) && info.makespan >= finish[0] &&
              info.makespan >= finish[1] && info.makespan >= finish[2] &&
              (info.makespan == finish[0] || info.makespan == finish[1] ||
               info.makespan == finish[2]),
          "header example: %lld/%lld/%lld items, makespan %.3f s = the latest finish",
          (long long)counts[1], (long long)counts[2], (long long)counts[0], info.makespan);
}

int main(void)
{
    check_rng_seed(0x9E3779B97F4A7C15ull);
    test_exact_random();
    test_non_monotone();
    test_seismic();
    test_heuristic_random();
    test_rational_closed_form();
    test_ordering_theorem();
    test_round();
    test_choose_root();
    test_errors();
    test_overflow();
    test_header_example();
    return check_exit();
}
