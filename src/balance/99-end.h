#ifdef __cplusplus
}
#endif

#endif /* TILEHYBRID_BALANCE_H */
