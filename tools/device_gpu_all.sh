#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# The CUDA backend's run on the GPU machine in one call: the MSM benchmarks with both bucket
# accumulations side by side (batch-affine and XYZZ) and a batch-affine tuning sweep, then the
# gpu-labelled MSM suites (edge cases under both accumulations, large sizes, the backend ops
# matrix with batch-affine forced) and the CUDA prove test. Binaries come in DIR (or
# DIR.tar.xz, unpacked first: the device call carries at most 64 MiB): czk, test_backend_ops,
# test_cuda_msm, test_backend_msm_large, libcmocka.so.0, libjansson.so.4. Logs in $OUT; a
# short table last.
# Usage: tools/device_gpu_all.sh [DIR]
set -u
B="${1:-$PWD/build-dev-all}"
O="${OUT:-$PWD/out-dev-all}"
mkdir -p "$O"
if [ ! -d "$B" ] && [ -f "$B.tar.xz" ]; then
    mkdir -p "$B" && tar -xJf "$B.tar.xz" -C "$B"
fi
chmod +x "$B"/czk "$B"/test_* 2>/dev/null
export LD_LIBRARY_PATH="$B${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
summary="$O/summary.txt"
: >"$summary"
STEP_WIDTH=12
STEP_PATTERN='PASSED|FAILED|passed|skipped|^bench: (msm|field) '
. "$(dirname "$0")/device_lib.sh"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee -a "$summary"
MSM="$B/czk bench msm --backend cuda"
step bls_g1_24 40 $MSM --curve bls12_381 --group 1 --log-n 24 --reps 5 --compare-cpu
step bls_g1_24_x 40 $MSM --curve bls12_381 --group 1 --log-n 24 --reps 5 --acc xyzz
step bls_g1_26 60 $MSM --curve bls12_381 --group 1 --log-n 26 --reps 3
step bn_g1_24 40 $MSM --curve bn254 --group 1 --log-n 24 --reps 5 --compare-cpu
step bn_g1_24_x 40 $MSM --curve bn254 --group 1 --log-n 24 --reps 5 --acc xyzz
step bls_g2_24 90 $MSM --curve bls12_381 --group 2 --log-n 24 --reps 3
step bls_g2_24_x 90 $MSM --curve bls12_381 --group 2 --log-n 24 --reps 3 --acc xyzz
for v in "LANES=128" "LANES=512" "TPS=128" "TPS=512"; do
    step "bls24_${v/=/}" 40 env "CZK_MSM_BA_$v" $MSM --curve bls12_381 --group 1 --log-n 24 --reps 3 --acc affine
done
step msm_small 240 "$B/test_cuda_msm"
step msm_large 120 "$B/test_backend_msm_large"
step backend_ops 200 env CZK_MSM_ACC=affine "$B/test_backend_ops"
step prove_cuda 60 bash tests/cli/test_prove_cuda_cli.sh "$B/czk"
echo "==== details"
grep -h -E "^(ntt|sparse|quotient|to_canon|msm)" "$O/backend_ops.log" | head -30 | cut -c1-200
grep -h -E "FAILED|differs|error|Error" "$O"/*.log | head -20 | cut -c1-250
echo "==== table"
for f in bls_g1_24 bls_g1_24_x bls_g1_26 bn_g1_24 bn_g1_24_x bls_g2_24 bls_g2_24_x; do
    echo "-- $f"
    grep -h -E '^\| (stages|median|plan|2\^20)' "$O/$f.log" | cut -c1-140
done
echo "==== summary"
cat "$summary"
