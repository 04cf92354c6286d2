#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# The Fp2 lazy-reduction check on the GPU machine: the device field suite and every MSM edge
# case (test_cuda_msm: Fp2 mul and the earlier three-reduction shape against the host oracle),
# the field benchmark of both curves (the two Fp2 shapes side by side in one run), the G2 MSM
# benchmarks at 2^24, the backend-ops suite and the CUDA prove test. Binaries as for
# tools/device_gpu_all.sh (DIR or DIR.tar.xz). Logs in $OUT; a short table last.
# Usage: tools/device_fp2.sh [DIR]
set -u
B="${1:-$PWD/build-dev-all}"
O="${OUT:-$PWD/out-dev-fp2}"
STEP_WIDTH=12
STEP_PATTERN='PASSED|FAILED|passed|skipped|^\| (median|fp2 mul)'
. "$(dirname "$0")/device_lib.sh"
device_setup "$B" summary.txt
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee -a "$summary"
MSM="$B/czk bench msm --backend cuda"
step msm_small 300 "$B/test_cuda_msm"
step field_bls 60 "$B/czk" bench field --curve bls12_381 --reps 5
step field_bn 60 "$B/czk" bench field --curve bn254 --reps 5
step bls_g2_24 90 $MSM --curve bls12_381 --group 2 --log-n 24 --reps 3
step bn_g2_24 60 $MSM --curve bn254 --group 2 --log-n 24 --reps 3
step backend_ops 200 "$B/test_backend_ops"
step prove_cuda 60 bash tests/cli/test_prove_cuda_cli.sh "$B/czk"
echo "==== details"
grep -h -E "FAILED|differs|mismatch|error|Error" "$O"/*.log | head -20 | cut -c1-250
echo "==== table"
for f in field_bls field_bn; do
    echo "-- $f"
    grep -h -E '^\| ' "$O/$f.log" | cut -c1-140
done
for f in bls_g2_24 bn_g2_24; do
    echo "-- $f"
    grep -h -E '^\| (stages|median|plan)' "$O/$f.log" | cut -c1-140
done
echo "==== summary"
cat "$summary"
