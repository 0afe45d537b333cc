#!/bin/sh
# `make demo`: the main job.
set -eu
sh demos/topo-table.sh
