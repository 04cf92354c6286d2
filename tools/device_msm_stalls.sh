#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Where the warps of the MSM's tree level kernels wait, against the field benchmark's multiply
# kernel (which runs near the IMAD rate), on the GPU machine: Nsight Compute warp-stall reasons
# per issued instruction, issue activity, occupancy and instruction-cache metrics for level 0
# (from the bases) of one BLS12-381 G1 MSM at 2^LG (default 22), and for the BLS12-381 Fp
# bench_mul_kernel (at f19b087 also the two-stream thread, since removed). Binaries in DIR (as
# tools/device_gpu_all.sh). Reports in $OUT/stalls-*.log; a table of the non-zero reasons last.
# Usage: tools/device_msm_stalls.sh [DIR [LG]]
set -u
B="${1:-$PWD/build-dev-all}"
LG="${2:-22}"
O="${OUT:-$PWD/out-dev-stalls}"
. "$(dirname "$0")/device_lib.sh"
device_setup "$B" stalls-summary.txt
command -v ncu >/dev/null || { echo "ncu: not on PATH"; exit 0; }
MET='regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio'
MET="$MET,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__warps_active.avg.per_cycle_active"
MET="$MET,sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active"
MET="$MET,smsp__inst_executed.sum,launch__registers_per_thread,gpu__time_duration.sum"
prof() {
    local tag="$1" k="$2"
    shift 2
    timeout 200 ncu --clock-control none --kernel-name-base demangled --kernel-name "regex:$k" --launch-count 1 --metrics "$MET" "$@" \
        >"$O/stalls-$tag.log" 2>&1
    echo "$tag rc=$?" | tee -a "$summary"
}
prof tree 'level_kernel<' "$B/czk" bench msm --backend cuda --curve bls12_381 --group 1 --log-n "$LG" --reps 1 \
    --acc tree
prof fieldmul 'bench_mul_kernel<czk_cuda::mont<czk_cuda::fp_bls12_381_params>, \(int\)0>' "$B/czk" bench field --curve bls12_381 --reps 1
echo "==== table (metric: tree fieldmul)"
for t in tree fieldmul; do
    grep -E '^ +(smsp__|sm__|launch__|gpu__)' "$O/stalls-$t.log" | awk -v t=$t '{print t, $1, $NF}'
done | awk '{v[$2]=v[$2] " " $3; if ($3+0 != 0) nz[$2]=1} END {for (m in v) if (nz[m]) print m v[m]}' |
    sed -e 's/smsp__average_warps_issue_stalled_//' -e 's/_per_issue_active.ratio//' | sort
echo "==== summary"
cat "$summary"
