#ifdef __cplusplus
}
#endif

#endif /* TILEHYBRID_TOPOLOGY_H */
