/* tests/slb_reference.h -- the paper's Algorithms 1 and 2, the references
 * slb_exact() is checked against (tests/unit_scatterlb.c) and timed beside
 * (bench/bench_scatterlb.c).  Not part of the API: scatterlb.h keeps
 * Algorithm 2 privately as slb_exact's fallback (slb__dp with
 * slb__alg2_cell); Algorithm 1's cell lives only here.
 *
 * Both fill the table cost[d, k] = the best makespan of d items on the
 * processors served k-th and later,
 *     cost[d, k] = min over e in 0..d of
 *                  Tcomm(k, e) + max(Tcomp(k, e), cost[d - e, k+1]),
 * in O(p n) memory (8 p n bytes), with the integer ticks of scatterlb.h, so
 * their makespans compare bitwise with slb_exact's. */
#ifndef TILEHYBRID_TESTS_SLB_REFERENCE_H
#define TILEHYBRID_TESTS_SLB_REFERENCE_H

#include "scatterlb.h"

/* Algorithm 1, lines 11-18: every e in 1..d (any non-negative costs). */
static inline int64_t ref__alg1_cell(const slb__model *m, int64_t k, int64_t d,
                                     const int64_t *next, int64_t *sol, int64_t *work)
{
    int64_t e, best = 0, mn = next[d];
    for (e = 1; e <= d; e++) {
        int64_t t = slb__cost(m, k, e, 0);
        int64_t mm = slb__sat(slb__cost(m, k, e, 1), t > next[d - e] ? t : next[d - e]);
        (*work)++;
        if (mm < mn) {
            best = e;
            mn = mm;
        }
    }
    *sol = best;
    return mn;
}

/**
 * ref_alg1() - the paper's Algorithm 1: an optimal distribution by dynamic
 * programming, O(p n^2) time, for any non-negative costs (they need not be
 * monotone).
 * @pb, @n, @order, @counts, @finish, @info, @st: as for slb_exact();
 *        info->work counts inner iterations.
 *
 * Return: as for slb_exact() (SLB_ERR_MONOTONE never).
 */
static inline int ref_alg1(const slb_problem *pb, int64_t n, const int64_t *order,
                           int64_t *counts, double *finish, slb_info *info,
                           tilehybrid_status *st)
{
    return slb__dp(pb, n, order, counts, finish, info, st, ref__alg1_cell, 0);
}

/**
 * ref_alg2() - the paper's Algorithm 2: Algorithm 1 with the e-loop bounded
 * by a binary search and an early exit, for non-decreasing costs; O(p n) to
 * O(p n^2) time.
 * @pb, @n, @order, @counts, @finish, @info, @st: as for slb_exact();
 *        info->work counts inner iterations.
 *
 * Return: as for slb_exact().
 */
static inline int ref_alg2(const slb_problem *pb, int64_t n, const int64_t *order,
                           int64_t *counts, double *finish, slb_info *info,
                           tilehybrid_status *st)
{
    return slb__dp(pb, n, order, counts, finish, info, st, slb__alg2_cell, 1);
}

#endif
