#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# czk's prover against the JavaScript reference prover (tools/ref_prover.mjs):
#  - on every committed vector (tests/vectors/groth16/{bn254,bls12_381}/{mulchain,cubic,
#    poly5}) and both fixed (r, s) pairs of tests/vectors/ref/README.md, the reference
#    prover reproduces the committed tests/vectors/ref/.../proof_rs<k>.json, and
#    `czk prove --test-fixed-rs R,S` writes the same proof.json byte for byte;
#  - for pair 1, snarkjs's own prover with the same r, s (--via-snarkjs) agrees too;
#  - with random r, s the reference prover's proof verifies with snarkjs (one circuit per
#    curve);
#  - on a key from `czk setup --dev` for a generated porep circuit: reference prover and
#    czk agree for fixed r, s, and snarkjs verifies the proof.
#
# Usage: tests/cli/test_ref_prover.sh <path-to-czk> <repo-root>
#   needs node and <repo-root>/node_modules; exits 77 (skipped) without them.
# Prints "N passed, N failed" last and exits non-zero if anything failed.
set -u

if [[ $# -ne 2 ]]; then
    echo "usage: $0 <path-to-czk> <repo-root>" >&2
    exit 2
fi
czk="$1"
root="$(cd "$2" && pwd)"
if [[ ! -x "$czk" ]]; then
    echo "not executable: $czk" >&2
    exit 2
fi
snarkjs_js="$root/node_modules/snarkjs/build/cli.cjs"
if ! command -v node >/dev/null || [[ ! -f "$snarkjs_js" ]]; then
    echo "node or $snarkjs_js missing: skipped"
    exit 77
fi
ref="$root/tools/ref_prover.mjs"
vec="$root/tests/vectors"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/czk-ref-prover.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

pass=0
fail=0
ok() { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }

# same NAME A B: files A and B are byte-identical.
same() {
    if cmp -s "$2" "$3"; then ok "$1"; else bad "$1: $2 and $3 differ"; fi
}

sj_verify() {
    local name="$1" out
    shift
    out="$(node "$snarkjs_js" groth16 verify "$@" 2>&1)"
    if [[ $out == *"OK!"* ]]; then ok "$name"; else bad "$name: $(echo "$out" | tail -2)"; fi
}

# The pairs of tests/vectors/ref/README.md (pair 2 is r - 1, r - 2 of the curve's r).
pair() {
    local r
    case "$1" in
    bn254) r=21888242871839275222246405745257275088548364400416034343698204186575808495617 ;;
    bls12_381) r=52435875175126190479447740508185965837690552500527637822603658699938581184513 ;;
    esac
    if [[ $2 == 1 ]]; then
        echo "514631507721405312519378913364952599439317176483405283752361400573829067280" \
            "19073418959183295181574299429881679062151092745154572570959326140849789028425"
    else
        python3 -c "r = $r; print(r - 1, r - 2)"
    fi
}

for curve in bn254 bls12_381; do
    for circuit in mulchain cubic poly5; do
        src="$vec/groth16/$curve/$circuit"
        want="$vec/ref/$curve/$circuit"
        for k in 1 2; do
            read -r R S <<<"$(pair "$curve" "$k")"
            tag="$curve $circuit rs$k"
            if node "$ref" --r1cs "$src/circuit.r1cs" "$src/circuit.zkey" "$src/witness.wtns" \
                "$R" "$S" "$tmp/ref.json" "$tmp/ref_public.json" 2>"$tmp/err"; then
                same "$tag: reference prover reproduces the committed proof" \
                    "$tmp/ref.json" "$want/proof_rs$k.json"
                same "$tag: reference prover's public.json" "$tmp/ref_public.json" \
                    "$src/public.json"
            else
                bad "$tag: reference prover: $(cat "$tmp/err")"
            fi
            if "$czk" prove --test-fixed-rs "$R,$S" "$src/circuit.zkey" "$src/witness.wtns" \
                "$tmp/czk.json" "$tmp/czk_public.json" 2>"$tmp/err"; then
                same "$tag: czk prove --test-fixed-rs equals the reference" "$tmp/czk.json" \
                    "$want/proof_rs$k.json"
            else
                bad "$tag: czk prove: $(cat "$tmp/err")"
            fi
            if [[ $k == 1 ]]; then
                if node "$ref" --via-snarkjs "$src/circuit.zkey" "$src/witness.wtns" "$R" "$S" \
                    "$tmp/sj.json" 2>"$tmp/err"; then
                    same "$tag: snarkjs's prover with the same r, s agrees" "$tmp/sj.json" \
                        "$want/proof_rs$k.json"
                else
                    bad "$tag: snarkjs prover: $(cat "$tmp/err")"
                fi
            fi
        done
    done
    src="$vec/groth16/$curve/mulchain"
    if node "$ref" "$src/circuit.zkey" "$src/witness.wtns" random random "$tmp/rnd.json" \
        "$tmp/rnd_public.json" 2>"$tmp/err"; then
        sj_verify "$curve mulchain: snarkjs verifies the reference proof with random r, s" \
            "$src/verification_key.json" "$tmp/rnd_public.json" "$tmp/rnd.json"
    else
        bad "$curve: reference prover with random r, s: $(cat "$tmp/err")"
    fi
done

# A dev key: reference and czk agree on it, and snarkjs accepts the proof.
d="$tmp/dev"
if "$czk" gen-circuit --curve bls12_381 --constraints 150 --shape porep --seed 4 --out "$d" \
    >/dev/null 2>"$tmp/err" &&
    "$czk" setup --dev "$d/circuit.r1cs" "$d/circuit.zkey" --seed ref >/dev/null 2>"$tmp/err" &&
    node "$snarkjs_js" zkey export verificationkey "$d/circuit.zkey" "$d/vk.json" \
        >/dev/null 2>"$tmp/err"; then
    read -r R S <<<"$(pair bls12_381 1)"
    node "$ref" --r1cs "$d/circuit.r1cs" "$d/circuit.zkey" "$d/witness.wtns" "$R" "$S" \
        "$d/ref.json" "$d/public.json" 2>"$tmp/err" || bad "dev key: reference: $(cat "$tmp/err")"
    "$czk" prove --test-fixed-rs "$R,$S" "$d/circuit.zkey" "$d/witness.wtns" "$d/czk.json" \
        "$d/czk_public.json" 2>"$tmp/err" || bad "dev key: czk prove: $(cat "$tmp/err")"
    same "dev key: czk prove --test-fixed-rs equals the reference" "$d/czk.json" "$d/ref.json"
    sj_verify "dev key: snarkjs verifies the reference proof" "$d/vk.json" "$d/public.json" \
        "$d/ref.json"
else
    bad "dev key: $(cat "$tmp/err")"
fi

echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
