/* tests/pmpi_failure.h -- the interface of tests/pmpi_failure.c (an MPI
 * call made to fail on one rank through PMPI; the environment chooses it). */
#ifndef TILEHYBRID_TESTS_PMPI_FAILURE_H
#define TILEHYBRID_TESTS_PMPI_FAILURE_H

/** The calls it wraps: MPI_Isend, MPI_Irecv, MPI_Waitall, MPI_Allreduce
 *  (and MPI_Iallreduce, counted as it), MPI_Testall, MPI_Test, MPI_Allgather, MPI_Bcast, MPI_Alltoallw, MPI_Send_init, MPI_Recv_init,
 *  MPI_Startall, MPI_Request_free, with MPI-4 MPI_Psend_init, MPI_Precv_init,
 *  MPI_Pready, MPI_Parrived, and MPI_Send, MPI_Recv, MPI_Sendrecv,
 *  MPI_Cart_create, MPI_Comm_dup, MPI_Comm_split_type, MPI_Reduce,
 *  MPI_Gather, MPI_Scatter, MPI_Comm_split, MPI_Scatterv, and the local
 *  MPI_Type_size, MPI_Comm_size, MPI_Comm_test_inter, and MPI_File_open
 *  (the file is opened, then the call reports a failure and no handle: a
 *  rank whose open failed while the others' succeeded). */
#define PMPI_FAILURE_NCALLS 32

/** What the failing call returns (MPI's text: "Internal MPI error" or
 *  "MPI_ERR_INTERN: internal error"). */
#define PMPI_FAILURE_ERROR MPI_ERR_INTERN

/** How many times this process made @call (-1: not a call wrapped here). */
long pmpi_failure_count(const char *call);

/** 1 once the chosen call has failed on this process. */
int pmpi_failure_failed(void);

#endif
