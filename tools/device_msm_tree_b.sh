#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The tree accumulation's items per inversion (CZK_MSM_TREE_B) against XYZZ on the GPU machine, G1
# and G2, both curves; binaries in build-dev-all.tar.xz (see device_gpu_all.sh). One line per run.
B=build-dev-all; mkdir -p $B && tar -xJf $B.tar.xz -C $B; export LD_LIBRARY_PATH=$PWD/$B
M="$B/czk bench msm --backend cuda"
r() { n=$1; shift; timeout 120 "$@" > $OUT/$n.log 2>&1; echo "$n rc=$? $(grep -h '^bench: msm' $OUT/$n.log | tail -1 | grep -oE '(median_ms|scratch_bytes|levels|accumulate_ms|reduce_ms)=[0-9.]*' | tr '\n' ' ')"; }
r bn24_x $M --curve bn254 --group 1 --log-n 24 --reps 5 --acc xyzz
r bn24_t4096 env CZK_MSM_TREE_B=4096 $M --curve bn254 --group 1 --log-n 24 --reps 5 --acc tree
r bn24_t2048 env CZK_MSM_TREE_B=2048 $M --curve bn254 --group 1 --log-n 24 --reps 5 --acc tree
r bls26_x $M --curve bls12_381 --group 1 --log-n 26 --reps 3 --acc xyzz
r bls26_t4096 env CZK_MSM_TREE_B=4096 $M --curve bls12_381 --group 1 --log-n 26 --reps 3 --acc tree
r bls24_t8192 env CZK_MSM_TREE_B=8192 $M --curve bls12_381 --group 1 --log-n 24 --reps 3 --acc tree
r g2bls24_t4096 env CZK_MSM_TREE_B=4096 $M --curve bls12_381 --group 2 --log-n 24 --reps 3 --acc tree
r g2bn24_t512 $M --curve bn254 --group 2 --log-n 24 --reps 3 --acc tree
r g2bn24_t4096 env CZK_MSM_TREE_B=4096 $M --curve bn254 --group 2 --log-n 24 --reps 3 --acc tree
r bls20_t4096 env CZK_MSM_TREE_B=4096 $M --curve bls12_381 --group 1 --log-n 20 --reps 5 --acc tree --compare-cpu
grep -h "2^20\|equal\|differ" $OUT/bls20_t4096.log | head -3
