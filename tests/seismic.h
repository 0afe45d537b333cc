/* tests/seismic.h -- the paper's Table 1 (16 processors of the 1999 seismic
 * ray-tracing experiment) as affine costs, shared by tests/unit_scatterlb.c
 * and bench/bench_scatterlb.c.  demos/data/seismic-1999.csv holds the same
 * table for tilectl. */
#ifndef TILEHYBRID_TESTS_SEISMIC_H
#define TILEHYBRID_TESTS_SEISMIC_H

static void seismic(slb_affine *a)
{
    static const double mu[7] = {0.009288, 0.009365, 0.004629, 0.004885,
                                 0.003976, 0.016156, 0.009677};
    static const double la[7] = {0, 1.12e-5, 1.00e-5, 1.70e-5, 8.15e-5, 2.10e-5, 3.53e-5};
    static const int cnt[7] = {1, 1, 1, 1, 2, 2, 8};
    int r, j, i = 0;
    for (r = 0; r < 7; r++)
        for (j = 0; j < cnt[r]; j++, i++) {
            a[i].comp0 = a[i].comm0 = 0;
            a[i].mu = mu[r];
            a[i].lambda = la[r];
        }
}

#endif
