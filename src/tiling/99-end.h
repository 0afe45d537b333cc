/* ------------------------------------------------------------------------ */
/* The end: C++ linkage, the options' symbol, tile_plan_create()            */

#ifdef __cplusplus
}
#endif

/* The options that change what the files of a program must agree on
 * (COMPILING THE COLD CODE ONCE, tilehybrid.h), in the name of a symbol:
 * the implementation file defines it, and every file's tile_plan_create()
 * passes its address, so a file built with other options than the
 * implementation's does not link ("undefined reference to
 * tilehybrid__abi_unchecked_omp_noulfm_part": that file's options).  The
 * others (TILEHYBRID_MALLOC, TILE_MSG_MAX, the MPI) cannot be checked so. */
#ifdef TILE_CHECK_ACCESS
#define TILE__ABI_A tilehybrid__abi_checked_
#else
#define TILE__ABI_A tilehybrid__abi_unchecked_
#endif
#ifdef _OPENMP
#define TILE__ABI_B omp_
#else
#define TILE__ABI_B noomp_
#endif
#if TILE__ULFM
#define TILE__ABI_C ulfm_
#else
#define TILE__ABI_C noulfm_
#endif
#if TILE_HAVE_PARTITIONED
#define TILE__ABI_D part
#else
#define TILE__ABI_D nopart
#endif
#define TILE__ABI_PASTE(a, b, c, d) a##b##c##d
#define TILE__ABI_NAME(a, b, c, d) TILE__ABI_PASTE(a, b, c, d)
#define TILE__ABI TILE__ABI_NAME(TILE__ABI_A, TILE__ABI_B, TILE__ABI_C, TILE__ABI_D)
#if TILEHYBRID__MODE != 0
#ifdef __cplusplus
extern "C" {
#endif
extern const char TILE__ABI;
#if TILEHYBRID__MODE == 2
const char TILE__ABI = 0;
#endif
#ifdef __cplusplus
}
#endif
#define TILE__ABI_REF ((const void *)&TILE__ABI)
#else
#define TILE__ABI_REF NULL
#endif

/* tile_plan_create() as called from the user's file: with what that file
 * does to a * b + c (tile_fp_contracts(): a warning on rank 0 where it
 * contracts, a refusal under TILE_STRICT) and, under TILEHYBRID_SEPARATE,
 * the check of its options (TILE__ABI).  (tile_plan_create) without the
 * macro is the function itself. */
#define tile_plan_create(plan, comm, cfg)                                          \
    tile__plan_create_fp((plan), (comm), (cfg),                                   \
                         tile_fp_contracts() | TILE__FP_STRICT_ON, TILE__ABI_REF)

#endif /* TILEHYBRID_TILING_H */
