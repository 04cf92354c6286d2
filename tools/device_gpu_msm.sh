#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# The device MSM's run on the GPU machine (helper gpu-msm): correctness suites, end-to-end
# prove --backend cuda, then the MSM / field benchmarks. Runs from the repository root with the
# binaries carried in build-dev-msm/ (czk, test_cuda_msm, test_backend_msm_large,
# libcmocka, libjansson). Logs go to $OUT (or ./out-dev-msm); a short table is printed last.
# Usage: tools/device_gpu_msm.sh
set -u
B="$PWD/build-dev-msm"
O="${OUT:-$PWD/out-dev-msm}"
mkdir -p "$O"
chmod +x "$B"/czk "$B"/test_* 2>/dev/null
export LD_LIBRARY_PATH="$B${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
summary="$O/summary.txt"
: >"$summary"
STEP_PATTERN='PASSED|FAILED|passed|skipped|bench: (msm|field) |median'
. "$(dirname "$0")/device_lib.sh"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv,noheader | tee -a "$summary"
step field_bls 15 "$B/czk" bench field --curve bls12_381
step msm_large 75 "$B/test_backend_msm_large"
step bls_g1_24 25 "$B/czk" bench msm --backend cuda --curve bls12_381 --group 1 --log-n 24 --reps 5 --compare-cpu
step bls_g1_26 20 "$B/czk" bench msm --backend cuda --curve bls12_381 --group 1 --log-n 26 --reps 3
step bn_g1_24 20 "$B/czk" bench msm --backend cuda --curve bn254 --group 1 --log-n 24 --reps 5 --compare-cpu
step bls_g2_24 30 "$B/czk" bench msm --backend cuda --curve bls12_381 --group 2 --log-n 24 --reps 3
step msm_small 70 "$B/test_cuda_msm"
step prove_cuda 40 bash tests/cli/test_prove_cuda_cli.sh "$B/czk"
echo "==== table"
grep -h -E '^\| ' "$O"/field_bls.log "$O"/bls_g1_24.log "$O"/bls_g1_26.log "$O"/bn_g1_24.log "$O"/bls_g2_24.log 2>/dev/null | grep -v -- '---' | cut -c1-110
grep -h "test_backend_msm_large:" "$O"/msm_large.log | cut -c1-200
grep -h -E "FAILED|differs|error" "$O"/*.log | head -20 | cut -c1-250
echo "==== summary"
cat "$summary"
