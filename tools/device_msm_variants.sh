#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Side-by-side MSM tuning on the GPU machine: the automatic plan of DIR's czk at 2^24 (BLS12-381
# and BN254 G1, BLS12-381 G2) and BLS12-381 G1 2^26, under the reduction's threads per SM slot
# CZK_MSM_RED_F = 4 (default), 8, 16, then the same benches with a second czk (ALT, a build with
# other compile-time settings, e.g. -DCZK_TREE_MINB_FP12=4, or an earlier commit's). REDS (default
# "4 8 16") lists the CZK_MSM_RED_F values. Logs in $OUT; a short table last.
# Usage: [REDS="4 16"] tools/device_msm_variants.sh DIR [ALT_CZK]
set -u
B="${1:-$PWD/build-dev-all}"
ALT="${2:-}"
O="${OUT:-$PWD/out-dev-var}"
STEP_WIDTH=16
STEP_PATTERN='^bench: msm '
. "$(dirname "$0")/device_lib.sh"
device_setup "$B" summary-variants.txt
[ -n "$ALT" ] && [ ! -f "$ALT" ] && [ -f "$ALT.xz" ] && xz -dk "$ALT.xz"
[ -n "$ALT" ] && chmod +x "$ALT"
benches() { # PREFIX CZK ENV...
    local p="$1" z="$2"
    shift 2
    step "${p}_bls24" 40 env "$@" "$z" bench msm --backend cuda --curve bls12_381 --group 1 --log-n 24 --reps 5
    step "${p}_bn24" 40 env "$@" "$z" bench msm --backend cuda --curve bn254 --group 1 --log-n 24 --reps 5
    step "${p}_g2_24" 90 env "$@" "$z" bench msm --backend cuda --curve bls12_381 --group 2 --log-n 24 --reps 3
    step "${p}_bls26" 60 env "$@" "$z" bench msm --backend cuda --curve bls12_381 --group 1 --log-n 26 --reps 3
}
for f in ${REDS:-4 8 16}; do
    benches "red$f" "$B/czk" CZK_MSM_RED_F=$f
done
[ -n "$ALT" ] && benches alt "$ALT" CZK_MSM_RED_F=4
echo "==== table (median ms, accumulate ms, reduce ms)"
for f in "$O"/*.log; do
    printf "%-16s %s\n" "$(basename "$f" .log)" \
        "$(grep -h -o -E 'median_ms=[0-9.]+|accumulate_ms=[0-9.]+|reduce_ms=[0-9.]+' "$f" | tr '\n' ' ')"
done
(cd "$O" && tar -czf logs.tar.gz ./*.log && rm -f ./*.log)
