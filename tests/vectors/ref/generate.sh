#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Regenerates tests/vectors/ref/<curve>/<circuit>/proof_rs{1,2}.json with the JavaScript
# reference prover (tools/ref_prover.mjs) from the committed snarkjs vectors in
# tests/vectors/groth16/, for the two fixed (r, s) pairs of README.md. Each proof is also
# checked against snarkjs's own prover run with the same r, s (--via-snarkjs) and with
# `snarkjs groth16 verify`. Run from anywhere; needs node and the repository's
# node_modules. Deterministic: a rerun must reproduce the files byte for byte.
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
cd "$root"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/czk-ref-gen.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

rs_pair() { # curve index -> "R S"
    local r
    case "$1" in
    bn254) r=21888242871839275222246405745257275088548364400416034343698204186575808495617 ;;
    bls12_381) r=52435875175126190479447740508185965837690552500527637822603658699938581184513 ;;
    esac
    case "$2" in
    1) echo "514631507721405312519378913364952599439317176483405283752361400573829067280" \
            "19073418959183295181574299429881679062151092745154572570959326140849789028425" ;;
    2) node -e "console.log((BigInt('$r') - 1n).toString(), (BigInt('$r') - 2n).toString())" ;;
    esac
}

for curve in bn254 bls12_381; do
    for circuit in mulchain cubic poly5; do
        src="tests/vectors/groth16/$curve/$circuit"
        dst="tests/vectors/ref/$curve/$circuit"
        mkdir -p "$dst"
        for k in 1 2; do
            read -r R S <<<"$(rs_pair "$curve" "$k")"
            node tools/ref_prover.mjs --r1cs "$src/circuit.r1cs" "$src/circuit.zkey" \
                "$src/witness.wtns" "$R" "$S" "$dst/proof_rs$k.json" "$tmp/public.json"
            node tools/ref_prover.mjs --via-snarkjs "$src/circuit.zkey" "$src/witness.wtns" \
                "$R" "$S" "$tmp/snarkjs.json"
            cmp "$dst/proof_rs$k.json" "$tmp/snarkjs.json"
            cmp "$tmp/public.json" "$src/public.json"
            node node_modules/.bin/snarkjs groth16 verify "$src/verification_key.json" \
                "$src/public.json" "$dst/proof_rs$k.json" >/dev/null
            echo "$dst/proof_rs$k.json"
        done
    done
done
