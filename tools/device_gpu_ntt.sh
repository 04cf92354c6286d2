#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# The CUDA backend's device run (helper gpu-ntt): correctness suites, end-to-end prove,
# then the NTT / eval benchmarks. Runs on the GPU machine from the repository root with the
# binaries carried in build-dev-ntt/ (czk, test_backend_ops, test_backend_ntt_large,
# test_cuda_fault, libcmocka, libjansson). Logs go to $OUT (or ./out-dev-ntt); a short
# table is printed last. Usage: tools/device_gpu_ntt.sh [quick|full]
set -u
B="$PWD/build-dev-ntt"
O="${OUT:-$PWD/out-dev-ntt}"
mkdir -p "$O"
export LD_LIBRARY_PATH="$B${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
mode="${1:-full}"
summary="$O/summary.txt"
: >"$summary"
STEP_PATTERN='PASSED|FAILED|passed|skipped|bench: (ntt|eval) '
. "$(dirname "$0")/device_lib.sh"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv,noheader | tee -a "$summary"
step backend 90 "$B/test_backend_ops"
step fault 20 "$B/test_cuda_fault"
step ntt27_bls 20 "$B/czk" bench ntt --backend cuda --curve bls12_381 --log-n 27 --reps 5
step ntt27_bls_coset 25 "$B/czk" bench ntt --backend cuda --curve bls12_381 --log-n 27 --reps 5 --coset --compare-cpu
step ntt27_bn 20 "$B/czk" bench ntt --backend cuda --curve bn254 --log-n 27 --reps 5
step eval130m 45 "$B/czk" bench eval --backend cuda --curve bls12_381 --rows 130000000 --reps 5 --compare-cpu
if [[ "$mode" == full ]]; then
    step ntt_large 170 "$B/test_backend_ntt_large"
    step prove_cuda 120 bash tests/cli/test_prove_cuda_cli.sh "$B/czk"
fi
echo "==== table"
grep -h -E '^\| ' "$O"/ntt27_bls.log "$O"/ntt27_bls_coset.log "$O"/eval130m.log 2>/dev/null | grep -v -- '---' | cut -c1-110
echo "==== summary"
cat "$summary"
