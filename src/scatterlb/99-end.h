/* ------------------------------------------------------------------------ */
/* The end: C++ linkage and the include guard                               */

#ifdef __cplusplus
}
#endif

#endif /* TILEHYBRID_SCATTERLB_H */
