#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# A change to the MSM against a baseline build, side by side on the GPU machine: the new
# build's device suites (test_cuda_msm: every field op and MSM edge case; test_backend_ops; the
# CUDA prove script), then the MSM benchmarks the issue's targets name under both binaries in
# one run (DIR/czk-base: the baseline's czk), and tools/device_msm_stalls.sh on the new build. Binaries as for tools/device_gpu_all.sh (DIR or DIR.tar.xz). Logs in $OUT; a table last.
# MODE bench skips the suites (for a variant build that only needs its figures and its results
# at 2^20 checked against the CPU, through the tree).
# VARIANTS (default "base new"): the binaries benched, in order; new is DIR/czk, any other name
# V is DIR/czk-V (so more variant builds can be compared in the same run).
# TUNE: NAME=VALUE environment settings, each benched with the new build (BLS12-381, BN254 G1 2^24).
# Usage: [VARIANTS="base new v2"] [TUNE="CZK_X=1 CZK_X=2"] tools/device_msm_ab.sh [DIR [all|bench]]
set -u
B="${1:-$PWD/build-dev-all}"
MODE="${2:-all}"
O="${OUT:-$PWD/out-dev-ab}"
STEP_WIDTH=12
STEP_PATTERN='PASSED|FAILED|passed|skipped|^bench: msm'
. "$(dirname "$0")/device_lib.sh"
device_setup "$B" summary.txt
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee -a "$summary"
[ "$MODE" = bench ] || step msm_suite 300 "$B/test_cuda_msm"
VARIANTS="${VARIANTS:-base new}"
for v in $VARIANTS; do
    bin="$B/czk"
    [ "$v" = new ] || bin="$B/czk-$v"
    M="$bin bench msm --backend cuda"
    step bls24_$v 90 $M --curve bls12_381 --group 1 --log-n 24 --reps 5
    step bn24_$v 60 $M --curve bn254 --group 1 --log-n 24 --reps 5
    step bls26_$v 120 $M --curve bls12_381 --group 1 --log-n 26 --reps 3
    step g2bls24_$v 90 $M --curve bls12_381 --group 2 --log-n 24 --reps 3
    step g2bn24_$v 60 $M --curve bn254 --group 2 --log-n 24 --reps 3
done
# TUNE: space-separated NAME=VALUE settings, each run by the new build at BLS12-381 / BN254 G1 2^24
k=0
for kv in ${TUNE:-}; do
    k=$((k + 1))
    step bls24_t$k 90 env "$kv" "$B/czk" bench msm --backend cuda --curve bls12_381 --group 1 --log-n 24 --reps 5
    step bn24_t$k 60 env "$kv" "$B/czk" bench msm --backend cuda --curve bn254 --group 1 --log-n 24 --reps 5
    echo "tune t$k: $kv" | tee -a "$summary"
done
step bls20_cpu 120 "$B/czk" bench msm --backend cuda --curve bls12_381 --group 1 --log-n 20 --reps 5 --compare-cpu
if [ "$MODE" = bench ]; then
    step bls20_tree 120 "$B/czk" bench msm --backend cuda --curve bls12_381 --group 1 --log-n 20 --reps 3 --compare-cpu --acc tree
    step bn20_tree 120 "$B/czk" bench msm --backend cuda --curve bn254 --group 1 --log-n 20 --reps 3 --compare-cpu --acc tree
else
    step backend_ops 200 "$B/test_backend_ops"
    step prove_cuda 60 bash tests/cli/test_prove_cuda_cli.sh "$B/czk"
    step field_bls 120 "$B/czk" bench field --curve bls12_381 --reps 5
    step field_bn 120 "$B/czk" bench field --curve bn254 --reps 5
fi
echo "==== details"
grep -h -E "FAILED|differs|mismatch|error|Error" "$O"/*.log | head -20 | cut -c1-250
echo "==== table: median_ms accumulate_ms reduce_ms combine_ms ($VARIANTS)"
for c in bls24 bn24 bls26 g2bls24 g2bn24; do
    f() { grep -h '^bench: msm' "$O/${c}_$1.log" | tail -1 | grep -oE '(median_ms|accumulate_ms|reduce_ms|combine_ms|levels)=[0-9.]*' | tr '\n' ' '; }
    line="$c"
    for v in $VARIANTS; do line="$line | $v: $(f "$v")"; done
    echo "$line"
done
grep -h -E "^bench: msm-compare" "$O"/*20_*.log | cut -c1-200
[ "$MODE" = bench ] || grep -h -E "^bench: field" "$O"/field_*.log | cut -c1-200
echo "==== summary"
cat "$summary"
echo "==== stalls (new build)"
OUT="$O" bash "$(dirname "$0")/device_msm_stalls.sh" "$B" 22 | sed -n '/==== table/,/==== summary/p' | head -24
