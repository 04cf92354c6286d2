#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Regenerate the Groth16 test vectors in tests/vectors/groth16/<curve>/<circuit>/
# from the project's own circuits in tests/circuits/, with circom2 (circom 2
# compiled to wasm) and snarkjs from node_modules/. For each curve (bn254 =
# snarkjs "bn128", bls12_381 = snarkjs "bls12381") it runs a small powers of tau
# ceremony with fixed entropy strings, then for each circuit: compile (r1cs +
# wasm), groth16 setup, one zkey contribution, export the verification key,
# compute the witness, prove, and check the proof with `snarkjs groth16 verify`.
#
# Committed outputs per circuit: input.json, verification_key.json, proof.json,
# public.json, and circuit.r1cs / witness.wtns / circuit.zkey when each is under
# 100 KB. Intermediates (ptau files, wasm) live in a temporary directory that is
# removed on exit (set KEEP_TMP=1 to keep it). snarkjs mixes OS randomness into
# every contribution and into the proof's blinding, so a rerun produces new but
# equally valid vectors: rerunning is safe, the bytes are not reproducible.
#
# Usage: tools/gen_groth16_vectors.sh [circuit ...]   (default: all circuits)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="$root/node_modules/.bin"
circom="$bin/circom2"
snarkjs="$bin/snarkjs"
out_base="$root/tests/vectors/groth16"
power=6            # 2^6 = 64 >= constraints + public inputs + 1 for every circuit
max_commit=102400  # commit binary artefacts only below 100 KB

for tool in "$circom" "$snarkjs"; do
    [[ -x "$tool" ]] || { echo "missing $tool (node_modules not installed?)" >&2; exit 1; }
done

tmp="$(mktemp -d "${TMPDIR:-/tmp}/czk-groth16-vectors.XXXXXX")"
cleanup() {
    if [[ "${KEEP_TMP:-0}" == 1 ]]; then echo "kept $tmp"; else rm -rf "$tmp"; fi
}
trap cleanup EXIT

# Inputs of each circuit (decimal strings; large values so the public signals
# use the full width of the scalar field).
input_of() {
    case "$1" in
    mulchain)
        echo '{"a": "123456789012345678901234567890123456789",
               "b": "987654321098765432109876543210987654321",
               "w": "31415926535897932384626433832795028841971"}' ;;
    poly5)
        echo '{"x": ["1", "22222222222222222222222222222222",
                     "333333333333333333333333333333333333333333",
                     "4444444444444444444444444444444444444444444444444"],
               "k": "271828182845904523536028747135266249775724709369995"}' ;;
    cubic)
        echo '{"x": "1618033988749894848204586834365638117720309179805762862135"}' ;;
    *)
        echo "no input for circuit $1" >&2; return 1 ;;
    esac
}

circuits=("$@")
if [[ ${#circuits[@]} -eq 0 ]]; then
    circuits=()
    for f in "$root"/tests/circuits/*.circom; do
        circuits+=("$(basename "$f" .circom)")
    done
fi

run() {
    # Quiet on success, full log on failure.
    local log="$tmp/last.log"
    if ! "$@" >"$log" 2>&1; then
        echo "FAILED: $*" >&2
        cat "$log" >&2
        exit 1
    fi
}

for curve in bn254 bls12_381; do
    case "$curve" in
    bn254) sj=bn128 ;;
    bls12_381) sj=bls12381 ;;
    esac
    cdir="$tmp/$curve"
    mkdir -p "$cdir"

    echo "== $curve: powers of tau 2^$power"
    run "$snarkjs" powersoftau new "$sj" "$power" "$cdir/pot_0000.ptau"
    run "$snarkjs" powersoftau contribute "$cdir/pot_0000.ptau" "$cdir/pot_0001.ptau" \
        --name="czk ptau 1" -e="czk powers of tau entropy $curve"
    run "$snarkjs" powersoftau prepare phase2 "$cdir/pot_0001.ptau" "$cdir/pot_final.ptau"

    for c in "${circuits[@]}"; do
        src="$root/tests/circuits/$c.circom"
        [[ -f "$src" ]] || { echo "no circuit $src" >&2; exit 1; }
        echo "== $curve/$c"
        w="$cdir/$c"
        mkdir -p "$w"
        run "$circom" "$src" --r1cs --wasm --prime "$sj" -o "$w"
        input_of "$c" >"$w/input.json"
        run "$snarkjs" groth16 setup "$w/$c.r1cs" "$cdir/pot_final.ptau" "$w/c_0000.zkey"
        run "$snarkjs" zkey contribute "$w/c_0000.zkey" "$w/c_0001.zkey" \
            --name="czk zkey 1" -e="czk zkey entropy $curve $c"
        run "$snarkjs" zkey export verificationkey "$w/c_0001.zkey" "$w/verification_key.json"
        run "$snarkjs" wtns calculate "$w/${c}_js/$c.wasm" "$w/input.json" "$w/witness.wtns"
        run "$snarkjs" groth16 prove "$w/c_0001.zkey" "$w/witness.wtns" \
            "$w/proof.json" "$w/public.json"
        run "$snarkjs" groth16 verify "$w/verification_key.json" "$w/public.json" "$w/proof.json"
        grep -q "OK" "$tmp/last.log" || { echo "snarkjs did not verify $curve/$c" >&2; exit 1; }

        dst="$out_base/$curve/$c"
        rm -rf "$dst"
        mkdir -p "$dst"
        cp "$w/input.json" "$w/verification_key.json" "$w/proof.json" "$w/public.json" "$dst/"
        cp "$w/$c.r1cs" "$w/circuit.r1cs"
        cp "$w/c_0001.zkey" "$w/circuit.zkey"
        for f in circuit.r1cs witness.wtns circuit.zkey; do
            size=$(stat -c %s "$w/$f")
            if (( size < max_commit )); then
                cp "$w/$f" "$dst/"
            else
                echo "   (not committing $f: $size bytes)"
            fi
        done
        echo "   -> ${dst#"$root"/}: $(cd "$dst" && ls | tr '\n' ' ')"
    done
done
echo "done"
