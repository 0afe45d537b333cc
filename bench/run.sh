#!/bin/sh
# `make bench`: run every bench/run-*.sh in turn.
set -eu
for s in bench/run-*.sh; do
    [ -f "$s" ] || continue
    echo "== $s"
    sh "$s"
done
