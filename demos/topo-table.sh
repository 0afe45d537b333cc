echo "(the topology table demo lands with topology.h)"
