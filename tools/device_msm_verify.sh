#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# One self-contained GPU-machine call for a change to the MSM's reduction or combine step:
# the edge-case suite (test_cuda_msm) under the default reduction and under CZK_MSM_RED_F=1
# (other level plans), the gpu-labelled suites (tools/device_gpu_all.sh DIR suites), the
# CZK_MSM_RED_F sweep with ALT (an earlier build's czk) side by side
# (tools/device_msm_variants.sh), then Nsight Compute on the reduction's first levels. Binaries in
# DIR or DIR.tar.xz as tools/device_gpu_all.sh takes them; logs in $OUT.
# Usage: tools/device_msm_verify.sh DIR [ALT_CZK]
set -u
B="${1:-$PWD/build-dev-all}"
ALT="${2:-}"
O="${OUT:-$PWD/out-dev-verify}"
. "$(dirname "$0")/device_lib.sh"
device_setup "$B" summary-verify.txt
step msm_small 240 "$B/test_cuda_msm"
step msm_small_red1 240 env CZK_MSM_RED_F=1 "$B/test_cuda_msm"
bash "$(dirname "$0")/device_gpu_all.sh" "$B" suites 2>&1 | tail -8
REDS="${REDS:-4 16}" bash "$(dirname "$0")/device_msm_variants.sh" "$B" ${ALT:+"$ALT"} 2>&1 | tail -14
timeout 150 bash "$(dirname "$0")/device_msm_profile.sh" "$B" 24 reduce_level 2>&1 | tail -30
echo "==== verify"
cat "$summary"
