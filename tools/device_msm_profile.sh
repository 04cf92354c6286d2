#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Nsight Compute on the kernels matching KERNELS (a regex, default the tree accumulation's level
# kernels; the first two launches: level 0 from the bases, level 1 from the lists) of one
# BLS12-381 G1 MSM at 2^LG (default 22) on the GPU machine: throughput, occupancy, warp stalls
# and memory. Binaries in DIR (as tools/device_gpu_all.sh); report in $OUT/ncu-TAG.log (TAG: the
# first word of KERNELS), the key lines printed.
# Usage: tools/device_msm_profile.sh [DIR [LG [KERNELS]]]
set -u
B="${1:-$PWD/build-dev-all}"
LG="${2:-22}"
K="${3:-level_kernel}"
TAG="$(echo "$K" | sed 's/[^A-Za-z0-9_].*//')"
O="${OUT:-$PWD/out-dev-all}"
mkdir -p "$O"
export LD_LIBRARY_PATH="$B${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
command -v ncu >/dev/null || { echo "ncu: not on PATH"; exit 0; }
timeout 150 ncu --clock-control none --kernel-name "regex:$K" --launch-count 2 \
    --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
    --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis \
    "$B/czk" bench msm --backend cuda --curve bls12_381 --group 1 --log-n "$LG" --reps 1 --acc tree \
    >"$O/ncu-$TAG.log" 2>&1
echo "ncu rc=$?"
grep -E "$TAG|Duration|Memory Throughput|DRAM Throughput|Compute \(SM\) Throughput|Registers Per|Achieved Occupancy|Theoretical Occupancy|Issue Slots Busy|Warp Cycles Per Issued|Executed Ipc Active|L1/TEX Hit|L2 Hit|Block Limit Reg|Mem Busy|Max Bandwidth|Stall" "$O/ncu-$TAG.log" | cut -c1-150 | head -60
command -v cuobjdump >/dev/null &&
    cuobjdump --dump-resource-usage "$B/czk" 2>/dev/null | grep -A1 "$TAG" | grep -o "Function [^:]*\|REG:[0-9]*\|STACK:[0-9]*\|LOCAL:[0-9]*" |
    paste - - - - | sed "s/Function _ZN[^ ]*$TAG/$TAG/" | cut -c1-120
