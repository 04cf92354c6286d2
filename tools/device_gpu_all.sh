#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# The CUDA backend's run on the GPU machine in one call: the gpu-labelled suites (backend ops
# matrix, device MSM edge cases and large sizes, pinned memory and staged uploads) and the
# MSM / field benchmarks. Binaries come in DIR (or DIR.tar.xz, unpacked first: the device
# call carries at most 64 MiB): czk, test_backend_ops, test_cuda_msm, test_backend_msm_large,
# test_cuda_pinned, libcmocka.so.0, libjansson.so.4. Logs in $OUT; a short table last.
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
step() { # step NAME TIMEOUT CMD...
    local name="$1" t="$2"
    shift 2
    local t0=$(date +%s%N)
    timeout "$t" "$@" >"$O/$name.log" 2>&1
    local rc=$?
    local dt=$(( ($(date +%s%N) - t0) / 1000000 ))
    printf '%-12s rc=%-3s %6sms  %s\n' "$name" "$rc" "$dt" "$(grep -E 'PASSED|FAILED|passed|skipped|^bench: (msm|field) ' "$O/$name.log" | tail -1 | sed -e 's/scratch_bytes=[0-9]* //' -e 's/bases_ms=[0-9.]* //' | cut -c1-250)" | tee -a "$summary"
}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee -a "$summary"
step bls_g1_24 40 "$B/czk" bench msm --backend cuda --curve bls12_381 --group 1 --log-n 24 --reps 5 --compare-cpu
step bls_g1_26 40 "$B/czk" bench msm --backend cuda --curve bls12_381 --group 1 --log-n 26 --reps 3
step bn_g1_24 40 "$B/czk" bench msm --backend cuda --curve bn254 --group 1 --log-n 24 --reps 5 --compare-cpu
step bls_g2_24 60 "$B/czk" bench msm --backend cuda --curve bls12_381 --group 2 --log-n 24 --reps 3
step field_bls 20 "$B/czk" bench field --curve bls12_381
step pinned 60 "$B/test_cuda_pinned"
step msm_small 90 "$B/test_cuda_msm"
step msm_large 90 "$B/test_backend_msm_large"
step backend_ops 150 "$B/test_backend_ops"
step prove_cuda 60 bash tests/cli/test_prove_cuda_cli.sh "$B/czk"
echo "==== details"
grep -h -E "GB/s|staged|pageable" "$O/pinned.log" | head -6 | cut -c1-200
grep -h -E "^(ntt|sparse|quotient|to_canon|msm)" "$O/backend_ops.log" | head -30 | cut -c1-200
grep -h -E "FAILED|differs|error|Error" "$O"/*.log | head -20 | cut -c1-250
echo "==== table"
grep -h -E '^\| (stages|median|plan|2\^20)' "$O"/bls_g1_24.log "$O"/bls_g1_26.log "$O"/bn_g1_24.log "$O"/bls_g2_24.log | cut -c1-140
echo "==== summary"
cat "$summary"
