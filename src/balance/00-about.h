/* balance.h -- master-thread load balancing for the funneled hybrid model.
 * Part of tilehybrid (MIT licence), version BAL_VERSION (=
 * TILEHYBRID_VERSION).  Header-only C99, also valid C++; needs tilehybrid.h
 * beside it.
 *
 * WHAT IT IS
 *   Under MPI_THREAD_FUNNELED only the master thread of a process may call
 *   MPI, so in the coarse-grain hybrid model (threads spawned once, each
 *   tile step = receive, compute, send) the master does all of its process's
 *   message passing on top of its share of the computation.  With an even
 *   split the other T-1 threads wait for it at the end of every step.  This
 *   header computes the balancing factor bal in [0,1]: the master computes
 *   bal/T of the process's tile, each other thread (T-bal)/(T(T-1)), so that
 *   all threads finish a step together (Drosinos & Koziris, "Efficient hybrid
 *   parallelization of tiled algorithms on SMP clusters", Lemma 1 and 2).
 *   It provides
 *     - the cost model  t_comp(x) = x * tcomp,
 *                       t_comm(x) = tstartup + x * elem_bytes / bandwidth
 *       for x iterations / an x-element message (bandwidth in BYTES per
 *       second, messages counted in ELEMENTS of elem_bytes bytes), with
 *       parameters given directly, read from the environment or calibrated
 *       (a least-squares fit of timed samples, an MPI ping-pong);
 *     - constant and variable (per-process) static factors, eq. 1;
 *     - adaptive balancing: a deterministic state machine fed with measured
 *       times that applies Lemma 2 (eq. 2) after a sampling period and then
 *       periodically, with smoothing;
 *     - the integer split of a step's work between the threads;
 *     - the policy of a run (bal_config, bal_policy): the one hook through
 *       which the funneled model of tiling.h/hybrid.h asks for the master's
 *       factor, whatever the policy (see THE POLICY OF A RUN).
 *   Everything except the MPI calibration is pure arithmetic on plain
 *   structs: no global state, no I/O, no clock, thread-safe and re-entrant.
 *
 *   Arrays are indexed from 0 (pdims[i] is P_{i+1} of the equations, which
 *   number dimensions from 1 like the paper); the index in a
 *   tilehybrid_status, and the i of "pdims[i]" in a message, is that
 *   0-based i.
 *
 * EQUATIONS (X = X_1*...*X_N, P = P_1*...*P_N, z = tile height, T threads)
 *   eq. 1  bal = 1 - (T-1) / t_comp(Xz/P)
 *                  * sum over sending dimensions i of t_comm(d_i P_i X z / (X_i P))
 *   eq. 2  bal' = 1 - bal (T-1)/T * tcomm_master / tcomp_master
 *   Xz/P is the number of points a process updates per step and
 *   d_i P_i X z / (X_i P) = d_i * z * prod_{j != i} X_j/P_j is the size (in
 *   elements) of the message it sends along dimension i.
 *
 * USAGE (a complete program; build with mpicc, or define TILEHYBRID_NO_MPI)
 *
 *   #include <stdio.h>
 *   #include "balance.h"
 *
 *   int main(void)
 *   {
 *       bal_model m = {288e-9, 107e-6, 12.5e6, 8.0};  // tcomp, tstartup, B, bytes/elem
 *       int pdims[2] = {4, 2}, coords[2] = {0, 1};
 *       int64_t extent[2] = {256, 64}, dep[2] = {1, 1}, counts[2];
 *       double con, var;
 *       int clamped, rc;
 *       rc = bal_model_from_env(&m, NULL);           // TILEHYBRID_* override, if set
 *       if (rc == BAL_OK)
 *           rc = bal_factor(&m, 2, pdims, NULL, 2, extent, 100, dep, &con, &clamped);
 *       if (rc == BAL_OK)
 *           rc = bal_factor(&m, 2, pdims, coords, 2, extent, 100, dep, &var, &clamped);
 *       if (rc == BAL_OK)
 *           rc = bal_split(64 * 32, 2, var, counts); // master, other thread
 *       if (rc != BAL_OK) {
 *           fprintf(stderr, "balance: %s\n", bal_strerror(rc));
 *           return 1;
 *       }
 *       // prints: constant 0.8922, variable 0.9635, split 987 + 1061
 *       printf("constant %.4f, variable %.4f, split %lld + %lld\n",
 *              con, var, (long long)counts[0], (long long)counts[1]);
 *       return 0;
 *   }
 *
 *   Adaptive balancing, inside the step loop of the master thread:
 *
 *       bal_adaptive st;
 *       int64_t w;
 *       bal_sampling_steps(nprocs, nthreads, &w);            // 2PT, the paper's period
 *       bal_adaptive_init(&st, bal0, nthreads, w, w, 0.5);   // re-evaluate every w steps
 *       for (step = 0; step < nsteps; step++) {
 *           ... split with st.bal, compute, communicate, timing both ...
 *           if (bal_adaptive_step(&st, t_comp, t_comm) == BAL_OK && st.changed)
 *               ... st.bal has changed: re-split from the next step on ...
 *       }
 *
 * THE POLICY OF A RUN (bal_config, bal_policy)
 *   tile_config.balance is a bal_config: the policy (BAL_POLICY_FIXED,
 *   CONSTANT, VARIABLE, ADAPTIVE or CUSTOM) and its settings.  The funneled
 *   model turns it into a bal_policy and drives it through one hook of five
 *   calls; everything policy-specific (eq. 1, Lemma 2, the cost model, the
 *   custom callback) stays behind them.  The same calls balance a pipeline
 *   of your own (comm, ntiles, tile_points, compute, comm_work and done as
 *   in your loop):
 *
 *       bal_config cfg;
 *       bal_where w;                  // this process: fixed for the run
 *       bal_policy pol;
 *       tilehybrid_status st;
 *       int64_t k, counts[2];
 *       bal_config_init(&cfg);        // BAL_POLICY_FIXED, bal = 1
 *       cfg.policy = BAL_POLICY_VARIABLE;
 *       memset(&w, 0, sizeof w);      // n, rank, procs, threads, pdims,
 *       ...                           // pcoords, extent, dep, tile_height,
 *                                     // elem_bytes
 *       rc = bal_policy_init(&pol, &cfg, &w);            // no MPI
 *       if (rc == BAL_OK)             // collective: environment, ping-pong
 *           rc = bal_policy_setup_ex(&pol, comm, &st);
 *       bal_policy_start(&pol);       // at the start of every run
 *       for (k = 0; k < ntiles; k++) {
 *           double f = bal_policy_tile(&pol, k);         // before tile k
 *           bal_split(tile_points, 2, f, counts);        // master, other
 *           ... compute and communicate, timing the master ...
 *           bal_policy_step(&pol, compute, comm_work, done); // running totals
 *       }
 *       // after the run: pol.first, pol.now, pol.clamped, pol.uncalibrated,
 *       // pol.adapt.changes
 *
 *   bal_policy_step() returns 1 when the factor changed; tiling.h then
 *   drains the pipeline before the new split applies.  Only
 *   bal_policy_setup_ex() communicates; the other calls are arithmetic.
 *
 * ERRORS (the convention of every tilehybrid header)
 *   A function that can fail returns BAL_OK (0) or a positive BAL_ERR_*
 *   code; bal_strerror() names the offending argument and the rule it broke,
 *   and never returns NULL.  bal_factor_check() also fills an optional
 *   tilehybrid_status with the dimension at fault, bal_policy_setup_ex()
 *   with the variable and the rank at fault (for BAL_ERR_MPI, the MPI call
 *   and its code).  Nothing prints, nothing aborts; the collective
 *   functions (bal_calibrate_comm_all, bal_policy_setup_ex) return the same
 *   code on every rank, except BAL_ERR_MPI: the rank where an MPI call
 *   failed returns at once, and the caller must end the job (MPI_Abort) or
 *   revoke the communicator, or the others wait for it forever.
 *
 * OPTIONS (#define before including)
 *   TILEHYBRID_NO_MPI   omit the MPI calibration (bal_calibrate_comm*) and
 *                       <mpi.h>; everything else is MPI-free anyway.
 *   TILEHYBRID_MALLOC(size), TILEHYBRID_FREE(ptr)
 *                       replace malloc/free (tilehybrid.h): the ping-pong
 *                       buffer is the only allocation.
 *   TILEHYBRID_TAG_BASE the ping-pong uses tag TILEHYBRID_TAG_PINGPONG.
 *   TILEHYBRID_SEPARATE, TILEHYBRID_IMPLEMENTATION
 *                       compile the calibrations, the environment
 *                       readers and the policy's setup once per program, in the file
 *                       that defines TILEHYBRID_IMPLEMENTATION (tilehybrid.h,
 *                       "COMPILING THE COLD CODE ONCE").
 *
 * ENVIRONMENT (read only by bal_model_from_env, in SI base units, e.g.
 * 288e-9; numbers as tilehybrid_parse_double() reads them: no spaces, '+',
 * units, hex, inf or nan)
 *   TILEHYBRID_TCOMP       seconds per iteration (one point update), > 0
 *   TILEHYBRID_TSTARTUP    seconds per message, >= 0
 *   TILEHYBRID_BANDWIDTH   bytes per second, > 0
 *   TILEHYBRID_ELEM_BYTES  bytes per message element, > 0
 *
 * API (each function is declared and documented in the part "API" below,
 * src/balance/05-api.h, ahead of the private helpers)
 *   const char *bal_strerror(int code);
 *   int    bal_model_check(const bal_model *m);
 *   double bal_tcomp(const bal_model *m, double iterations);
 *   double bal_tcomm(const bal_model *m, double elements);
 *   int    bal_model_from_env(bal_model *m, int *found);
 *   int    bal_fit_tcomp(const double *seconds, const double *iterations, int n,
 *                        double *tcomp, tilehybrid_fit *fit);
 *   int    bal_model_set_comm(bal_model *m, const tilehybrid_fit *fit);
 *   int    bal_factor_check(int n, const int *pdims, const int *coords, int threads,
 *                           const int64_t *extent, int64_t tile_height,
 *                           const int64_t *dep, tilehybrid_status *status);
 *   int    bal_factor(const bal_model *m, int n, const int *pdims, const int *coords,
 *                     int threads, const int64_t *extent, int64_t tile_height,
 *                     const int64_t *dep, double *bal, int *clamped);
 *   int    bal_tile_times(<bal_factor's arguments up to dep>, double bal,
 *                         double *t_master, double *t_other);
 *   int    bal_split(int64_t total, int parts, double bal, int64_t *counts);
 *   int    bal_split_part(int64_t total, int parts, double bal, int part,
 *                         int64_t *first, int64_t *count);
 *   int    bal_lemma2(double bal, int threads, double tcomp_master,
 *                     double tcomm_master, double *next);
 *   int    bal_sampling_steps(int procs, int threads, int64_t *steps);
 *   int    bal_adaptive_init(bal_adaptive *st, double bal0, int threads,
 *                            int64_t sample_steps, int64_t period, double smoothing);
 *   int    bal_adaptive_step(bal_adaptive *st, double tcomp_master, double tcomm_master);
 *   int    bal_calibrate_comm(MPI_Comm comm, int peer, int max_bytes, int reps,
 *                             tilehybrid_fit *fit);                  (MPI)
 *   int    bal_calibrate_comm_all(MPI_Comm comm, int max_bytes, int reps,
 *                                 tilehybrid_fit *fit);              (MPI, collective)
 *   int    bal_calibrate_comm_all_ex(MPI_Comm comm, int max_bytes, int reps,
 *                                    tilehybrid_fit *fit,
 *                                    tilehybrid_status *st);  (MPI, collective)
 *   The affine fit and the ping-pong are tilehybrid.h's tilehybrid_fit_affine()
 *   and tilehybrid_pingpong().
 *   The policy of a run:
 *   void   bal_config_init(bal_config *cfg);
 *   int    bal_config_check(const bal_config *cfg);
 *   int    bal_policy_init(bal_policy *pol, const bal_config *cfg,
 *                          const bal_where *where);
 *   int    bal_policy_setup_ex(bal_policy *pol, MPI_Comm comm,
 *                              tilehybrid_status *st);      (MPI, collective)
 *   void   bal_policy_start(bal_policy *pol);
 *   double bal_policy_tile(bal_policy *pol, int64_t tile);
 *   int    bal_policy_step(bal_policy *pol, double compute, double comm,
 *                          int64_t points);
 *
 * VERSION
 *   0.2.0  tilehybrid.h's error convention: positive BAL_ERR_* codes (were
 *          negative BAL_E*); bal_adaptive_step() returns BAL_OK and sets
 *          st->changed; bal_factor_check() fills a tilehybrid_status;
 *          bal_fit / bal_fit_affine / bal_parse_double are tilehybrid.h's
 *          tilehybrid_fit / tilehybrid_fit_affine / tilehybrid_parse_double;
 *          the ping-pong uses TILEHYBRID_TAG_PINGPONG (was 31011); the
 *          policy of a run, bal_config and bal_policy (was inside tiling.h:
 *          TILE_BAL_* are BAL_POLICY_*, tile_bal_fn is bal_tile_fn);
 *          bal_policy_setup_ex() reports through a tilehybrid_status, the
 *          same code on every rank (the message form bal_policy_setup()
 *          is gone: tiling.h calls bal_policy_setup_ex()).
 *   0.1.0  first version: cost model, calibration, eq. 1 and 2, adaptive
 *          state machine, split.
 */
