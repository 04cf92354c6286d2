#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# `czk prove --backend cuda` end to end: for both curves and both circuit shapes
# (gen-circuit, setup --dev), the CUDA backend's proof with fixed blinding r,s is
# byte-identical to the CPU backend's, and a randomly blinded CUDA proof is accepted by
# `czk verify`. Sizes: 1000 constraints and a 2^16 domain (multi-pass device NTT).
#
# Usage: tests/cli/test_prove_cuda_cli.sh <path-to-czk>
#   exits 77 (skipped) when czk has no CUDA backend or no usable GPU.
# Prints "N passed, N failed" last and exits non-zero if anything failed.
set -u
czk="${1:?usage: $0 <path-to-czk>}"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/czk-prove-cuda.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }

"$czk" gen-circuit --curve bn254 --constraints 5 --shape mul --out "$tmp/p" >/dev/null 2>&1
"$czk" setup --dev "$tmp/p/circuit.r1cs" "$tmp/p/k.zkey" --seed probe >/dev/null 2>&1
if ! "$czk" prove --backend cuda "$tmp/p/k.zkey" "$tmp/p/witness.wtns" "$tmp/p/pf.json" \
    "$tmp/p/pub.json" >"$tmp/out" 2>&1; then
    if grep -q "no usable CUDA GPU\|has no CUDA backend" "$tmp/out"; then
        echo "no CUDA backend here: $(head -c 300 "$tmp/out"): skipped"
        exit 77
    fi
fi

rs="123456789,987654321"
for curve in bn254 bls12_381; do
    for shape in mul porep; do
        for size in "--constraints 1000" "--domain-log 16"; do
            tag="$curve $shape ${size#--}"
            d="$tmp/$curve-$shape-${size##* }"
            # shellcheck disable=SC2086
            if ! "$czk" gen-circuit --curve "$curve" --shape "$shape" $size --seed 5 \
                --out "$d" >"$tmp/out" 2>&1 ||
                ! "$czk" setup --dev "$d/circuit.r1cs" "$d/k.zkey" --seed "$tag" \
                    >"$tmp/out" 2>&1 ||
                ! "$czk" zkey export-vkey "$d/k.zkey" "$d/vk.json" >"$tmp/out" 2>&1; then
                bad "$tag: inputs: $(head -c 400 "$tmp/out")"
                continue
            fi
            if "$czk" prove --backend cuda --test-fixed-rs "$rs" "$d/k.zkey" "$d/witness.wtns" \
                "$d/pg.json" "$d/ug.json" >"$tmp/out" 2>&1 &&
                "$czk" prove --backend cpu --test-fixed-rs "$rs" "$d/k.zkey" "$d/witness.wtns" \
                    "$d/pc.json" "$d/uc.json" >>"$tmp/out" 2>&1; then
                if cmp -s "$d/pg.json" "$d/pc.json" && cmp -s "$d/ug.json" "$d/uc.json"; then
                    ok "$tag: cuda proof (fixed r,s) = cpu proof"
                else
                    bad "$tag: cuda and cpu proofs differ"
                fi
            else
                bad "$tag: prove: $(head -c 400 "$tmp/out")"
                continue
            fi
            if "$czk" prove --backend cuda "$d/k.zkey" "$d/witness.wtns" "$d/pr.json" \
                "$d/ur.json" >"$tmp/out" 2>&1 &&
                "$czk" verify "$d/vk.json" "$d/ur.json" "$d/pr.json" >>"$tmp/out" 2>&1; then
                ok "$tag: cuda proof verifies"
            else
                bad "$tag: cuda proof rejected: $(head -c 400 "$tmp/out")"
            fi
        done
    done
done
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
