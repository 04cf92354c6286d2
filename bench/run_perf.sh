#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
#
# Reproduce the figures of docs/PERF.md: configure Release builds with CZK_NATIVE
# OFF and ON, build the benchmarks, run each RUNS times (default 5) and print the
# Markdown tables (median over the runs) with the date, commit, machine and
# compiler. Output goes to stdout; raw logs stay in build-perf-*/perf-*.log.
#
#   bench/run_perf.sh [RUNS]        from the repository root
#
# Needs cmake, a C compiler, node (node_modules/ffiasm) and nasm for the ffiasm
# comparison, and python3 for the tables.
set -eu

RUNS=${1:-5}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"

commit=$(git rev-parse --short HEAD 2>/dev/null || echo uncommitted)
dirty=$(git status --porcelain -- src include bench 2>/dev/null || true)
if [ "$commit" != uncommitted ] && [ -n "$dirty" ]; then
    commit="$commit (+ uncommitted changes)"
fi
cpu=$(lscpu | sed -n 's/^Model name: *//p' | head -n 1)
cores=$(nproc)
cc=$(cc --version | head -n 1)

echo "- date: $(date -u +%F)"
echo "- commit: $commit"
echo "- machine: $cpu, $cores cores ($(uname -m), $(uname -r))"
echo "- compiler: $cc"
echo

for native in OFF ON; do
    b=build-perf-native-$native
    cmake -S . -B "$b" -DCMAKE_BUILD_TYPE=Release -DCZK_CUDA=OFF -DCZK_BUILD_BENCH=ON \
        -DCZK_BUILD_TESTS=OFF -DCZK_NATIVE=$native >/dev/null
    cmake --build "$b" -j"$cores" --target czk_bench_ff czk_bench_ec >/dev/null
    for bench in ff ec; do
        logs=""
        i=1
        while [ "$i" -le "$RUNS" ]; do
            log=$b/perf-$bench-$i.log
            "$b/bench/czk_bench_$bench" >"$log"
            logs="$logs $log"
            i=$((i + 1))
        done
        # shellcheck disable=SC2086
        python3 bench/perf_table.py $bench $logs --label "**czk_bench_$bench, CZK_NATIVE=$native**"
    done
done
