/* scatterlb.h -- load-balanced scatter for heterogeneous processors.
 *
 * Part of tilehybrid (MIT licence), version SLB_VERSION (= TILEHYBRID_VERSION);
 * it includes tilehybrid.h, the base header: copy both.
 *
 * WHAT IT IS
 *   A root process holds n independent data items and scatters them; every
 *   process then works on its share.  The root sends to one process after the
 *   other (single port), so the process served k-th can only start receiving
 *   once the k-1 before it are served, and it ends its work at
 *
 *       T_k = Tcomm(1,n_1) + ... + Tcomm(k,n_k) + Tcomp(k,n_k)        (eq. 1)
 *
 *   with Tcomm(i,x) the time to send it x items and Tcomp(i,x) the time it
 *   needs to process them.  The root is served last (it computes only once it
 *   has sent everything).  This header chooses the shares n_1..n_p and the
 *   sending order that minimise the makespan max_k T_k, after Genaud, Giersch
 *   and Vivien, "Load-balancing scatter operations for grid computing", INRIA
 *   RR-4770 (2003), and performs the scatter:
 *
 *     slb_exact      the optimal integer distribution, fast (see EXACTNESS):
 *                    the paper's 817,101 rays on 16 processors take well
 *                    under a millisecond;
 *     slb_heuristic  the paper's guaranteed heuristic for affine costs: the
 *                    optimal rational distribution (slb_rational) rounded
 *                    (slb_round) so that every share moves by less than one
 *                    item; within sum_j Tcomm(j,1) + max_i Tcomp(i,1) of the
 *                    optimum (eq. 4);
 *     slb_uniform    what MPI_Scatter does: n/p each;
 *     slb_solve      one of the three, chosen at run time (SLB_METHOD_*);
 *     slb_evaluate   the finish times of any distribution;
 *     slb_order_bandwidth  the paper's ordering policy (Theorem 3):
 *                    decreasing bandwidth to the root, root last;
 *                    slb_order_by_key any other key;
 *     slb_choose_root      the choice of the root (Sec. 3.4);
 *     slb_plan_create, slb_plan_create_costs   the MPI side: gather the
 *                    costs, solve at the root, share counts, displacements
 *                    and the order;
 *     slb_plan_scatterv    scatter with MPI_Scatterv over a communicator in
 *                    sending order (MPI-4 large counts beyond INT_MAX);
 *     slb_plan_scatter_ordered  the same result with the root's sends issued
 *                    one after another in the plan's order, as the paper's
 *                    MPICH-G2 did (see WHICH SCATTER below);
 *     slb_gatherv, slb_gatherv_type   the results back, in the same layout;
 *     slb_scatterv   plan, buffer check and scatter in one call;
 *     slb_calibrate, slb_calibrate_compute, slb_calibrate_comm   measure the
 *                    costs: mu by timing your per-item function, lambda and
 *                    the latency by timed root-to-rank transfers, each within
 *                    a time budget (SLB_CALIBRATE_BUDGET).
 *   The paper's Algorithms 1 and 2, the references slb_exact is tested
 *   against, are in tests/slb_reference.h; Algorithm 2 stays inside as
 *   slb_exact's fallback.
 *   Each function is declared and documented in the part "API" below
 *   (src/scatterlb/05-api.h), ahead of the private helpers.
 *
 * COST MODEL
 *   Processor i has a computation cost Tcomp(i,x) and a communication cost
 *   Tcomm(i,x) (the time to receive x items from the root), non-negative and
 *   non-decreasing in x (slb_evaluate and slb_uniform accept any
 *   non-negative costs).  A processor given no item costs nothing:
 *   Tcomp(i,0) = Tcomm(i,0) = 0.  The root's own share costs its Tcomm as
 *   given (zero in the paper).  Costs come as
 *     - affine:   Tcomp = comp0 + mu*x,  Tcomm = comm0 + lambda*x  (x > 0);
 *     - tables:   row i holds Tcomp(i,1..len) (and Tcomm likewise);
 *     - callbacks double f(void *ctx, int64_t proc, int64_t items), items >= 1,
 *                 deterministic and thread-safe if you share them.
 *   Every time is in one unit of your choice (seconds in the examples).
 *   Processors are numbered 0..p-1; a sending ORDER is an array order[0..p-1]
 *   of processor numbers, order[p-1] being the root; NULL means 0,1,..,p-1.
 *   Output arrays (counts, finish) are indexed by processor number.
 *   Only the equations count from 1, as the paper does: in eq. 1, the k-th
 *   processor served (T_k, n_k) is order[k-1].  Every index the API takes
 *   or reports (a processor, a position in the order, a tilehybrid_status
 *   index) counts from 0; slb_info.bad_items and the x of Tcomp(i,x) are
 *   item counts, not indices.
 *
 * EXACTNESS
 *   The exact method and slb_evaluate work in integer time: every cost is
 *   rounded to a multiple of a power-of-two tick tau <= U * 2^-59, U being
 *   the time the best single processor needs for all n items, and all sums
 *   are exact 64-bit integer sums (affine costs stay exactly affine: comp0,
 *   mu, comm0 and lambda are each rounded to whole ticks; slb_info.tick
 *   reports tau).  slb_exact binary-searches the smallest feasible makespan
 *   with a search that is exhaustive up to proven bounds, so its makespan is
 *   the optimum, bitwise equal to Algorithms 1 and 2 and to brute force
 *   (the tests check thousands of random instances), and bitwise the
 *   largest finish time.  Should a search exceed 4 (p+1)(n+1)(log2(n+1)+1)
 *   nodes or 2^22 states (adversarial instances) it hands over to
 *   Algorithm 2: the worst case stays O(p n^2) time, 8 p n bytes.  The
 *   proof: docs/scatterlb.md, "Why slb_exact is exact".  The heuristic
 *   works in double precision (its eq. 4 guarantee holds up to that
 *   rounding).  Do not compile with -ffast-math (NaN checks).
 *
 * ERRORS
 *   Every function that can fail returns SLB_OK (0) or a positive SLB_ERR_*
 *   code; slb_strerror(code) says what was wrong and never returns NULL.
 *   The last argument, a tilehybrid_status * (NULL allowed), names the
 *   argument at fault ("pb", "order", "counts", "n", "mine", ...), its
 *   index (a processor, a position in the order) and, for the MPI
 *   functions, the rank that found it; slb_info.bad_items adds the item
 *   count at which a tabled or callback cost is bad.  The plan and
 *   calibration functions return the same code and status on every rank,
 *   also when an argument is bad on one rank only.  An MPI call of theirs
 *   that fails on one rank cannot be agreed on (the other ranks would wait
 *   for it forever): that rank prints the call, its rank and MPI's error
 *   text on stderr ("tilehybrid: rank 1: MPI_Recv failed in
 *   scatterlb.h's calibration's transfers ... (...); aborting the job"),
 *   or hands that message to the hook installed with
 *   tilehybrid_mpi_failure_swap(), then ends the job with MPI_Abort
 *   (MPI_COMM_WORLD, errorcode SLB_ERR_MPI), as tiling.h does
 *   (tilehybrid_mpi_failed()); slb_scatterv() (plan and scatter in one
 *   call) too.  The data movers (slb_plan_scatterv,
 *   slb_plan_scatter_ordered, slb_gatherv*) return SLB_ERR_MPI where MPI
 *   reported it, on that rank only: the other ranks may wait in that
 *   collective forever, so on SLB_ERR_MPI from them end the job
 *   (MPI_Abort).  Nothing prints, nothing aborts on bad input.
 *
 * USAGE (pure functions; compile with -DTILEHYBRID_NO_MPI to skip MPI)
 *
 *   #include <stdio.h>
 *   #define TILEHYBRID_NO_MPI
 *   #include "scatterlb.h"
 *
 *   int main(void)
 *   {
 *       // comp0, mu, comm0, lambda (seconds); processor 0 is the root
 *       slb_affine cost[3] = {{0, 0.009288, 0, 0},
 *                             {0, 0.004629, 0, 1.00e-5},
 *                             {0, 0.009677, 0, 3.53e-5}};
 *       slb_problem pb = slb_problem_affine(3, cost);
 *       int64_t order[3], counts[3];
 *       double finish[3];
 *       slb_info info;
 *       tilehybrid_status st;
 *       int i, rc = slb_order_bandwidth(&pb, 1000, 0, order, &st);
 *       if (rc == SLB_OK)
 *           rc = slb_exact(&pb, 1000, order, counts, finish, &info, &st);
 *       if (rc != SLB_OK) {
 *           fprintf(stderr, "slb: %s (%s %lld)\n", slb_strerror(rc), st.arg,
 *                   (long long)st.index);
 *           return 1;
 *       }
 *       for (i = 0; i < 3; i++)
 *           printf("processor %d: %lld items, ends at %.3f s\n", (int)order[i],
 *                  (long long)counts[order[i]], finish[order[i]]);
 *       printf("makespan %.3f s\n", info.makespan);
 *       return 0;
 *   }
 *
 * USAGE (MPI; every rank calls, rank 0 holds the n items)
 *
 *   #include <stdio.h>
 *   #include <stdlib.h>
 *   #include "scatterlb.h"
 *
 *   static void work(void *ctx, int64_t count) // your per-item work, timed
 *   {
 *       double s = 0;
 *       int64_t i;
 *       for (i = 0; i < 1000 * count; i++)
 *           s += 1.0 / (double)(i + 1);
 *       *(volatile double *)ctx = s;    // a result, so that the loop runs
 *   }
 *
 *   int main(int argc, char **argv)
 *   {
 *       enum { N = 100000 };
 *       double *items = NULL, *mine = NULL, sink = 0;
 *       slb_affine cost;
 *       slb_plan plan;
 *       tilehybrid_status st;
 *       int rank, i, rc;
 *       MPI_Init(&argc, &argv);
 *       MPI_Comm_rank(MPI_COMM_WORLD, &rank);
 *       if (rank == 0 && (items = malloc(N * sizeof *items)) != NULL)
 *           for (i = 0; i < N; i++)
 *               items[i] = i;
 *       // measure this rank's costs (or fill cost yourself), then plan
 *       rc = slb_calibrate(MPI_COMM_WORLD, 0, MPI_DOUBLE, work, &sink, 1000, 10000,
 *                          3, &cost, &st);
 *       if (rc == SLB_OK)
 *           rc = slb_plan_create(MPI_COMM_WORLD, 0, N, MPI_DOUBLE, &cost, NULL,
 *                                &plan, &st);
 *       if (rc == SLB_OK) {
 *           mine = malloc((size_t)(plan.counts[rank] + 1) * sizeof *mine);
 *           // rank r gets items displs[r] .. displs[r] + counts[r] - 1
 *           rc = slb_plan_scatterv(&plan, items, mine, &st);
 *           for (i = 0; rc == SLB_OK && i < plan.counts[rank]; i++)
 *               mine[i] *= 2;
 *           if (rc == SLB_OK) // and back, in the same layout
 *               rc = slb_gatherv(&plan, mine, items, &st);
 *           slb_plan_free(&plan);
 *       }
 *       if (rc != SLB_OK && rank == 0) // the same code on every rank
 *           fprintf(stderr, "slb: %s (argument '%s', rank %d)\n",
 *                   slb_strerror(rc), st.arg, st.rank);
 *       free(items);
 *       free(mine);
 *       MPI_Finalize();
 *       return rc != SLB_OK;
 *   }
 *
 * WHICH SCATTER
 *   slb_plan_scatterv hands the counts to MPI_Scatterv over a communicator
 *   whose rank order is the sending order, and lets the MPI library move
 *   the data as it sees fit (usually every send posted at once, or a tree):
 *   use it by default, on clusters and wherever the root's link is not the
 *   bottleneck.  slb_plan_scatter_ordered issues the root's sends one after
 *   the other in the plan's order (point to point, tag
 *   TILEHYBRID_TAG_SCATTER on the plan's communicator), as eq. 1 assumes:
 *   use it where the root has a single port to slow or unequal links (a
 *   grid, a WAN, a simulated platform), where the order of Theorem 3 is
 *   meant to matter.  Both give every rank the same items, bitwise.
 *
 * OPTIONS (#define before including)
 *   TILEHYBRID_NO_MPI       leave out the MPI part; <mpi.h> is not included.
 *   TILEHYBRID_MALLOC(size), TILEHYBRID_FREE(ptr)   allocator (tilehybrid.h;
 *                           SLB_MALLOC/SLB_FREE are gone: an #error says so).
 *   TILEHYBRID_TAG_BASE     tags (tilehybrid.h): the calibration's transfers
 *                           and slb_plan_scatter_ordered use
 *                           TILEHYBRID_TAG_SCATTER on your communicator.
 *   SLB_NO_LARGE_COUNT      never use the MPI-4 "_c" large-count calls;
 *                           counts beyond INT_MAX are then rejected
 *                           (SLB_ERR_INT).  The same per plan: slb_options.
 *   SLB_CALIBRATE_SECONDS   length of one calibration timing window
 *                           (default 0.02 s; transfers use a quarter).
 *   SLB_CALIBRATE_BUDGET    seconds a computation calibration aims at, and
 *                           the transfer calibration for all ranks together
 *                           (default 1.0): samples shrink to fit, so a slow
 *                           work function ends in about that time (at least
 *                           the time of a few items).
 *
 * VERSION HISTORY
 *   0.2.0  one error convention: positive SLB_ERR_* codes, tilehybrid_status
 *          on every function that can fail (slb_info.bad_proc and
 *          slb_plan.bad_rank gone), SLB_ERR_TIME; tilehybrid.h's allocator,
 *          agreement, ping-pong, fit and tags; slb_plan_scatter_ordered;
 *          calibration within a time budget; Algorithms 1 and 2 (slb_alg1,
 *          slb_dp, SLB_METHOD_DP, SLB_METHOD_ALG1) moved to the tests.
 *   0.1.0  first release: exact, Algorithm 1 and 2, heuristic, ordering,
 *          root choice, MPI plan/scatterv/gatherv, calibration.
 */
