#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# MSM exploration run of 2026-12-03 (docs/GPU_RUNS.md): accumulation variants (CZK_MSM_ACC) and
# threads per slot (CZK_MSM_TPS) were switches of that run's working tree only (the committed
# kernel has the chosen variant per group and no switches), stage times, and Nsight Compute on
# the accumulation kernel. Kept as the record of how the figures were taken.
# Usage: tools/device_msm_explore.sh [BUILD_DIR]   (binaries: czk + libjansson)
set -u
B="${1:-$PWD/build-dev-x}"
O="${OUT:-$PWD/out-explore}"
mkdir -p "$O"
chmod +x "$B"/czk
export LD_LIBRARY_PATH="$B${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
line() { grep -h "^bench: msm" "$1" | sed -e 's/bench: msm //' -e 's/scratch_bytes=[0-9]* //' -e 's/general=[0-9]* ones=[0-9]* //' | cut -c1-260; }
for v in 0 1 2 3; do
  CZK_MSM_ACC=$v timeout 60 "$B/czk" bench msm --backend cuda --curve bls12_381 --group 1 --log-n 24 --reps 3 --compare-cpu >"$O/bls24_v$v.log" 2>&1
  echo "V=$v $(line "$O/bls24_v$v.log")"
done
for v in 0 1 2 3; do
  CZK_MSM_ACC=$v timeout 60 "$B/czk" bench msm --backend cuda --curve bn254 --group 1 --log-n 24 --reps 3 --compare-cpu >"$O/bn24_v$v.log" 2>&1
  echo "V=$v $(line "$O/bn24_v$v.log")"
done
for t in 2 4 16; do
  CZK_MSM_ACC=2 CZK_MSM_TPS=$t timeout 60 "$B/czk" bench msm --backend cuda --curve bls12_381 --group 1 --log-n 24 --reps 3 >"$O/bls24_t$t.log" 2>&1
  echo "V=2 TPS=$t $(line "$O/bls24_t$t.log")"
done
timeout 90 "$B/czk" bench msm --backend cuda --curve bls12_381 --group 2 --log-n 24 --reps 2 >"$O/g2.log" 2>&1
echo "G2 $(line "$O/g2.log")"
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
if [ -n "$NCU" ]; then
  for v in 0 2; do
    CZK_MSM_ACC=$v timeout 120 "$NCU" --clock-control none -k regex:accumulate_first -c 1 --section SpeedOfLight --section WarpStateStats --section Occupancy --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis "$B/czk" bench msm --backend cuda --curve bls12_381 --group 1 --log-n 22 --reps 1 >"$O/ncu_v$v.log" 2>&1
    echo "== ncu V=$v"; grep -E "Duration|Compute \(SM\) Throughput|Memory Throughput|Achieved Occupancy|Theoretical Occupancy|Registers Per|Stall|Issue Slots Busy|Executed Ipc A|L1/TEX Hit|L2 Hit|DRAM Throughput|Warp Cycles Per Issued|Issued Warp|No Eligible|Active Warps Per" "$O/ncu_v$v.log" | sed 's/  */ /g' | head -30
  done
else
  echo "no ncu"
fi
