#!/bin/sh
# `make bench` draws its figures with gnuplot: install it through apt-get
# when we are allowed to (root, or password-less sudo), otherwise stop with
# the exact command to run.
set -u
command -v gnuplot >/dev/null 2>&1 && exit 0
if command -v apt-get >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then sudo=""
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo="sudo"
    else sudo=none; fi
    if [ "$sudo" != none ]; then
        echo "tilehybrid: installing gnuplot-nox (apt-get)" >&2
        DEBIAN_FRONTEND=noninteractive $sudo apt-get update -qq >/dev/null &&
            DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq gnuplot-nox >/dev/null 2>&1
        command -v gnuplot >/dev/null 2>&1 && exit 0
    fi
    echo "tilehybrid: gnuplot is missing. Run:  sudo apt-get install -y gnuplot-nox" >&2
    exit 1
fi
echo "tilehybrid: gnuplot is missing; install it (e.g. 'sudo dnf install gnuplot', 'brew install gnuplot')." >&2
exit 1
