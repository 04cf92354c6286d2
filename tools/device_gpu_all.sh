#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# The CUDA backend's run on the GPU machine: the MSM benchmarks under the automatic plan with
# XYZZ beside it, the edge-case suite under every accumulation (MODE bench or all), then the
# gpu-labelled large-size and backend-ops suites under the automatic plan (SUITE_ACC=xyzz|affine|tree
# forces one) and the CUDA prove test (MODE suites or all); MODE sweep: the tree's B sweep. Binaries come in DIR (or
# DIR.tar.xz, unpacked first: the device call carries at most 64 MiB): czk, test_backend_ops,
# test_cuda_msm, test_backend_msm_large, libcmocka.so.0, libjansson.so.4. Logs in $OUT; a
# short table last.
# Usage: tools/device_gpu_all.sh [DIR [all|bench|sweep|suites]] (sweep: the G1 tree and XYZZ at
# 2^24, the tree's B sweep, and test_cuda_msm under the settings in MSM_SMALL_ENV, e.g. CZK_MSM_TREE_B=4096)
set -u
B="${1:-$PWD/build-dev-all}"
O="${OUT:-$PWD/out-dev-all}"
STEP_WIDTH=12
STEP_PATTERN='PASSED|FAILED|passed|skipped|^bench: (msm|field) '
. "$(dirname "$0")/device_lib.sh"
device_setup "$B" summary.txt
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee -a "$summary"
MSM="$B/czk bench msm --backend cuda"
MODE="${2:-all}"
benches="bls_g1_24 bls_g1_24_x bls_g1_22 bls_g1_22_x bn_g1_24 bn_g1_24_x bls_g2_24 bn_g2_24 bls_g1_26 bls_g1_26_x"
if [ "$MODE" = sweep ]; then # the tree's tuning sweep alone, and the edge cases under MSM_SMALL_ENV
    step bls_g1_24 40 $MSM --curve bls12_381 --group 1 --log-n 24 --reps 5 --acc tree
    step bls_g1_24_x 40 $MSM --curve bls12_381 --group 1 --log-n 24 --reps 5 --acc xyzz
fi
if [ "$MODE" != suites ] && [ "$MODE" != sweep ]; then # the automatic plan, and XYZZ beside it
    step bls_g1_24 40 $MSM --curve bls12_381 --group 1 --log-n 24 --reps 5 --compare-cpu
    step bls_g1_24_x 40 $MSM --curve bls12_381 --group 1 --log-n 24 --reps 5 --acc xyzz
    step bls_g1_22 40 $MSM --curve bls12_381 --group 1 --log-n 22 --reps 5
    step bls_g1_22_x 40 $MSM --curve bls12_381 --group 1 --log-n 22 --reps 5 --acc xyzz
    step bn_g1_24 40 $MSM --curve bn254 --group 1 --log-n 24 --reps 5 --compare-cpu
    step bn_g1_24_x 40 $MSM --curve bn254 --group 1 --log-n 24 --reps 5 --acc xyzz
    step bls_g2_24 90 $MSM --curve bls12_381 --group 2 --log-n 24 --reps 3
    step bn_g2_24 60 $MSM --curve bn254 --group 2 --log-n 24 --reps 3
    step bls_g1_26 60 $MSM --curve bls12_381 --group 1 --log-n 26 --reps 3
    step bls_g1_26_x 60 $MSM --curve bls12_381 --group 1 --log-n 26 --reps 3 --acc xyzz
fi
if [ "$MODE" = sweep ]; then
    for v in "B=1024" "B=2048" "B=4096" "TPS=256"; do
        t="${v// CZK_MSM_TREE_/_}"
        step "bls24_${t//=/}" 40 env CZK_MSM_TREE_$v $MSM --curve bls12_381 --group 1 --log-n 24 --reps 3 --acc tree
    done
    for v in "B=1024" "B=2048" "B=4096"; do
        t="${v// CZK_MSM_TREE_/_}"
        step "g2_24_${t//=/}" 90 env CZK_MSM_TREE_$v $MSM --curve bls12_381 --group 2 --log-n 24 --reps 3 --acc tree
    done
fi
if [ "$MODE" != suites ]; then
    step msm_small 300 env ${MSM_SMALL_ENV:-} "$B/test_cuda_msm"
fi
if [ "$MODE" = all ] || [ "$MODE" = suites ]; then
    step msm_large 150 env ${SUITE_ACC:+CZK_MSM_ACC=$SUITE_ACC} "$B/test_backend_msm_large"
    step backend_ops 200 env ${SUITE_ACC:+CZK_MSM_ACC=$SUITE_ACC} "$B/test_backend_ops"
    step prove_cuda 60 bash tests/cli/test_prove_cuda_cli.sh "$B/czk"
fi
echo "==== details"
grep -h -E "^(ntt|sparse|quotient|to_canon|msm)" "$O/backend_ops.log" 2>/dev/null | head -30 | cut -c1-200
grep -h -E "FAILED|differs|error|Error" "$O"/*.log | head -20 | cut -c1-250
echo "==== table"
benches="$benches $(cd "$O" && ls bls24_*.log g2_24_*.log 2>/dev/null | sed 's/[.]log$//' | tr '\n' ' ')"
for f in $benches; do
    [ -f "$O/$f.log" ] || continue
    echo "-- $f"
    grep -h -E '^\| (stages|median|plan|2\^20)' "$O/$f.log" | cut -c1-140
done
echo "==== summary"
cat "$summary"
