#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# The tree accumulation's two-stream thread (CZK_MSM_TREE_ILP=2) against the one-stream thread
# on the GPU machine: every MSM edge case under both (test_cuda_msm forces the tree on every
# group), then the G1 MSM benchmarks the targets name, both shapes side by side in one run.
# Binaries as for tools/device_gpu_all.sh (DIR or DIR.tar.xz). Logs in $OUT; a short table last.
# Usage: tools/device_msm_ilp.sh [DIR]
set -u
B="${1:-$PWD/build-dev-all}"
O="${OUT:-$PWD/out-dev-ilp}"
STEP_WIDTH=12
STEP_PATTERN='PASSED|FAILED|passed|skipped|^bench: msm'
. "$(dirname "$0")/device_lib.sh"
device_setup "$B" summary.txt
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee -a "$summary"
MSM="$B/czk bench msm --backend cuda"
step msm_ilp1 300 "$B/test_cuda_msm"
step msm_ilp2 300 env CZK_MSM_TREE_ILP=2 "$B/test_cuda_msm"
for s in 1 2; do
    step bls24_$s 90 env CZK_MSM_TREE_ILP=$s $MSM --curve bls12_381 --group 1 --log-n 24 --reps 5
    step bn24_$s 60 env CZK_MSM_TREE_ILP=$s $MSM --curve bn254 --group 1 --log-n 24 --reps 5
done
for s in 1 2; do
    step bls26_$s 120 env CZK_MSM_TREE_ILP=$s $MSM --curve bls12_381 --group 1 --log-n 26 --reps 3
done
echo "==== details"
grep -h -E "FAILED|differs|mismatch|error|Error" "$O"/*.log | head -20 | cut -c1-250
echo "==== table"
for f in bls24_1 bls24_2 bn24_1 bn24_2 bls26_1 bls26_2; do
    echo "-- $f"
    grep -h -E '^\| (stages|median|plan)' "$O/$f.log" | cut -c1-140
done
echo "==== summary"
cat "$summary"
echo "==== registers"
command -v cuobjdump >/dev/null && cuobjdump --dump-resource-usage "$B/czk" 2>/dev/null | grep -A1 'level_kernel' |
    grep -oE 'level_kernel2?[^ ]*Lb[01]|REG:[0-9]+|LOCAL:[0-9]+' | paste - - - | sed -e 's/INS_7group_tIN8czk_cuda4montINS3_//' | cut -c1-120
