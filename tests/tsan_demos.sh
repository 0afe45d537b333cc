#!/bin/sh
# tests/tsan_demos.sh DIR -- make check-tsan's runs of the demos: DIR/adi,
# DIR/de and DIR/lu (NPB LU's class S, 3 steps: two sweeps over fields and
# a map), built by tests/run.sh --tsan with clang -fsanitize=thread
# -fopenmp, in the fine, funneled and multiple models at 1-3 processes x
# 2-3 threads; a data race makes a run exit 66 and fail.
set -u
. tests/lib.sh
D=${1:?usage: sh tests/tsan_demos.sh DIR}
for demo in adi de; do
    for cfg in "1 fine 3 5" "2 fine 2 4" "3 fine 2 6 --order z" "2 funneled 2 4" \
               "3 funneled 3 3 --bal 0.5" "2 funneled 3 3 --balance adaptive --bal 0.3 --adapt-period 2" \
               "2 funneled 2 5 --balance variable" "1 multiple 3 4" "2 multiple 2 3" \
               "3 multiple 2 7 --order z"; do
        set -- $cfg
        np=$1 model=$2 th=$3 z=$4; shift 4
        expect_output "tsan $demo np=$np: $model model, $th threads, tile height $z${*:+, $*}: no data race, every point verified" \
            120 '^verify: ok' $MPIEXEC -n $np "$D/$demo" --space 11x37x45 --tile-height $z \
            --model $model --threads $th "$@" --verify
    done
done
for cfg in "1 fine 3 2" "2 funneled 2 3" "3 multiple 2 1" "2 fine 2 4"; do
    set -- $cfg
    np=$1 model=$2 th=$3 z=$4
    expect_output "tsan lu np=$np: $model model, $th threads, tile height $z: no data race, u and rsd bitwise lu_plain's" \
        300 '^ verify: ok' $MPIEXEC -n $np "$D/lu" --class S --iterations 3 --tile-height $z \
        --model $model --threads $th --verify
done
done_testing
