#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# `czk verify` end to end: exit status 0 ("OK") on the committed snarkjs
# vectors, 1 ("INVALID: ...") on well-formed tampered inputs, 2 with a message
# on stderr naming the file on malformed or inconsistent input and on usage or
# I/O errors. Tampered copies are written with python3 into a temporary
# directory.
#
# Usage: tests/cli/test_verify_cli.sh <path-to-czk> <vectors-dir>
#   <vectors-dir> is tests/vectors or tests/vectors/groth16.
# Prints "N passed, N failed" last and exits non-zero if anything failed.
set -u

if [[ $# -ne 2 ]]; then
    echo "usage: $0 <path-to-czk> <vectors-dir>" >&2
    exit 2
fi
czk="$1"
vdir="$2"
[[ -d "$vdir/groth16" ]] && vdir="$vdir/groth16"
if [[ ! -x "$czk" ]]; then
    echo "not executable: $czk" >&2
    exit 2
fi
if [[ ! -f "$vdir/bn254/mulchain/proof.json" ]]; then
    echo "no Groth16 vectors under $vdir" >&2
    exit 2
fi
command -v python3 >/dev/null || { echo "python3 is required" >&2; exit 2; }

tmp="$(mktemp -d "${TMPDIR:-/tmp}/czk-verify-cli.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

pass=0
fail=0

# check NAME WANT_RC WANT_TEXT(substring of stdout+stderr, may be empty) -- ARGS...
check() {
    local name="$1" want="$2" text="$3"
    shift 4
    local out rc
    out="$("$czk" verify "$@" 2>"$tmp/stderr")"
    rc=$?
    out="$out$(cat "$tmp/stderr")"
    if [[ $rc -ne $want ]]; then
        echo "FAIL $name: exit $rc, expected $want; output: $out"
        fail=$((fail + 1))
    elif [[ -n "$text" && "$out" != *"$text"* ]]; then
        echo "FAIL $name: output lacks '$text': $out"
        fail=$((fail + 1))
    else
        echo "ok   $name"
        pass=$((pass + 1))
    fi
}

# edit SRC DST PYTHON: DST = SRC loaded as `j`, modified by PYTHON, dumped.
edit() {
    python3 - "$1" "$2" "$3" <<'EOF'
import json, sys
src, dst, code = sys.argv[1], sys.argv[2], sys.argv[3]
with open(src) as f:
    j = json.load(f)
R = {"bn128": 21888242871839275222246405745257275088548364400416034343698204186575808495617,
     "bls12381": 52435875175126190479447740508185965837690552500527637822603658699938581184513}
exec(code)
with open(dst, "w") as f:
    json.dump(j, f, indent=1)
EOF
}

for curve_dir in "$vdir"/*/; do
    curve="$(basename "$curve_dir")"
    for cdir in "$curve_dir"*/; do
        c="$(basename "$cdir")"
        vk="$cdir/verification_key.json"
        pub="$cdir/public.json"
        pr="$cdir/proof.json"
        [[ -f "$vk" && -f "$pub" && -f "$pr" ]] || continue
        t="$tmp/$curve-$c"
        mkdir -p "$t"
        sj_curve="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["curve"])' "$vk")"
        other=bn128
        [[ "$sj_curve" == bn128 ]] && other=bls12381

        # valid
        check "$curve/$c valid" 0 "OK" -- "$vk" "$pub" "$pr"

        # tampered, well-formed: exit 1
        edit "$pub" "$t/pub_plus1.json" 'j[0] = str(int(j[0]) + 1)'
        check "$curve/$c public[0]+1" 1 "INVALID" -- "$vk" "$t/pub_plus1.json" "$pr"
        edit "$pr" "$t/proof_ac.json" 'j["pi_a"], j["pi_c"] = j["pi_c"], j["pi_a"]'
        check "$curve/$c pi_a<->pi_c" 1 "INVALID" -- "$vk" "$pub" "$t/proof_ac.json"
        edit "$vk" "$t/vk_gd.json" 'j["vk_gamma_2"], j["vk_delta_2"] = j["vk_delta_2"], j["vk_gamma_2"]'
        check "$curve/$c gamma<->delta" 1 "INVALID" -- "$t/vk_gd.json" "$pub" "$pr"
        edit "$pr" "$t/proof_cinf.json" 'j["pi_c"] = ["0", "1", "0"]'
        check "$curve/$c pi_c=infinity" 1 "INVALID" -- "$vk" "$pub" "$t/proof_cinf.json"

        # malformed or inconsistent: exit 2, message names the file
        edit "$pub" "$t/pub_r.json" "j[-1] = str(R['$sj_curve'])"
        check "$curve/$c signal = r" 2 "value >= r" -- "$vk" "$t/pub_r.json" "$pr"
        edit "$pub" "$t/pub_short.json" 'j.pop()'
        check "$curve/$c one signal less" 2 "public: " -- "$vk" "$t/pub_short.json" "$pr"
        edit "$pub" "$t/pub_long.json" 'j.append("1")'
        check "$curve/$c one signal more" 2 "but the vkey expects" -- "$vk" "$t/pub_long.json" "$pr"
        edit "$pr" "$t/proof_curve.json" "j['curve'] = '$other'"
        check "$curve/$c proof curve $other" 2 "but proof says $other" -- "$vk" "$pub" "$t/proof_curve.json"
        edit "$vk" "$t/vk_proto.json" 'j["protocol"] = "plonk"'
        check "$curve/$c vkey protocol plonk" 2 "vkey: protocol" -- "$t/vk_proto.json" "$pub" "$pr"
        edit "$pr" "$t/proof_off.json" 'j["pi_a"][1] = str(int(j["pi_a"][1]) + 1)'
        check "$curve/$c pi_a off curve" 2 "proof: pi_a is not on the G1 curve" -- "$vk" "$pub" "$t/proof_off.json"
        edit "$vk" "$t/vk_noic.json" 'del j["IC"]'
        check "$curve/$c vkey without IC" 2 "vkey: missing IC" -- "$t/vk_noic.json" "$pub" "$pr"
        head -c 100 "$pr" >"$t/proof_trunc.json"
        check "$curve/$c truncated proof" 2 "proof: invalid JSON" -- "$vk" "$pub" "$t/proof_trunc.json"
        check "$curve/$c arguments swapped" 2 "proof: " -- "$vk" "$pr" "$pub"
    done
done

# The vkey of another circuit (different number of public signals).
b="$vdir/bn254"
check "vkey of another circuit" 2 "but the vkey expects" -- \
    "$b/poly5/verification_key.json" "$b/mulchain/public.json" "$b/mulchain/proof.json"
# A BLS12-381 proof against a BN254 key.
check "proof of the other curve" 2 "proof says bls12381" -- \
    "$b/mulchain/verification_key.json" "$b/mulchain/public.json" "$vdir/bls12_381/mulchain/proof.json"

# Usage and I/O errors.
v="$b/mulchain"
check "--help" 0 "usage: czk verify" -- --help
check "no arguments" 2 "expected 3 files" --
check "two arguments" 2 "expected 3 files" -- "$v/verification_key.json" "$v/public.json"
check "four arguments" 2 "too many arguments" -- "$v/verification_key.json" "$v/public.json" "$v/proof.json" "$v/proof.json"
check "unknown option" 2 "unknown option" -- --frobnicate "$v/verification_key.json" "$v/public.json" "$v/proof.json"
check "missing vkey file" 2 "vkey: cannot open" -- "$tmp/nope.json" "$v/public.json" "$v/proof.json"
check "directory as public" 2 "public: cannot read" -- "$v/verification_key.json" "$tmp" "$v/proof.json"
: >"$tmp/empty.json"
check "empty proof file" 2 "proof: invalid JSON" -- "$v/verification_key.json" "$v/public.json" "$tmp/empty.json"
printf '[\0"1"]' >"$tmp/nul.json"
check "NUL byte in public" 2 "public: " -- "$v/verification_key.json" "$tmp/nul.json" "$v/proof.json"
truncate -s 65M "$tmp/huge.json"
check "file over 64 MiB" 2 "larger than 64 MiB" -- "$tmp/huge.json" "$v/public.json" "$v/proof.json"
check "-- before files" 0 "OK" -- -- "$v/verification_key.json" "$v/public.json" "$v/proof.json"

echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
