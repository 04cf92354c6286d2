#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# The czk writers against snarkjs: runs the test_io suite with CZK_IO_WRITE_DIR so
# that it keeps every file it writes (round-tripped copies of the committed vectors,
# zkeys written without contributions, random circuits and witnesses), then has
# snarkjs read them:
#   - `r1cs info` on every written .r1cs (with and without the wire map) prints the
#     same statistics as on the original;
#   - `wtns check` accepts every round-tripped witness against its written circuit;
#   - written zkeys are byte-identical to the originals (cmp), and for the zkeys
#     written with an empty contributions section `zkey export verificationkey` gives
#     the original verification_key.json, and `groth16 prove` with them produces a
#     proof that `groth16 verify` accepts under the original verification key;
#   - `wtns export json` reads the random witnesses, with the values written.
# Needs node and snarkjs (node_modules/ of the repository, no network).
#
# Usage: tests/cli/test_io_snarkjs.sh <path-to-test_io> <repository-root>
# Prints "N passed, N failed" last and exits non-zero if anything failed (77 if node
# or snarkjs is missing, which ctest can treat as skipped).
set -u

if [[ $# -ne 2 ]]; then
    echo "usage: $0 <path-to-test_io> <repository-root>" >&2
    exit 2
fi
test_io="$1"
root="$2"
snarkjs="$root/node_modules/.bin/snarkjs"
vdir="$root/tests/vectors/groth16"
if [[ ! -x "$test_io" ]]; then
    echo "not executable: $test_io" >&2
    exit 2
fi
if ! command -v node >/dev/null || [[ ! -e "$snarkjs" ]]; then
    echo "skipped: node or $snarkjs missing"
    exit 77
fi
command -v python3 >/dev/null || { echo "python3 is required" >&2; exit 2; }

tmp="$(mktemp -d "${TMPDIR:-/tmp}/czk-io-snarkjs.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
out="$tmp/out"
mkdir "$out"

pass=0
fail=0
ok() { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }

# snarkjs prints colour codes and log prefixes; keep the text.
sj() { node "$snarkjs" "$@" 2>&1 | sed 's/\x1b\[[0-9;]*m//g'; return "${PIPESTATUS[0]}"; }

if CZK_IO_WRITE_DIR="$out" "$test_io" >"$tmp/test_io.log" 2>&1; then
    ok "test_io with CZK_IO_WRITE_DIR"
else
    bad "test_io with CZK_IO_WRITE_DIR (log follows)"
    cat "$tmp/test_io.log"
fi

for curve in bn254 bls12_381; do
    for circ in mulchain cubic poly5; do
        v="$vdir/$curve/$circ"
        n="${curve}_${circ}"
        for f in r1cs wtns zkey; do
            orig="$v/circuit.$f"
            [[ $f == wtns ]] && orig="$v/witness.wtns"
            if cmp -s "$orig" "$out/$n.$f"; then ok "$n.$f byte-identical"; else bad "$n.$f differs"; fi
        done

        want="$(sj r1cs info "$v/circuit.r1cs")"
        for r in "$n.r1cs" "${n}_nomap.r1cs"; do
            got="$(sj r1cs info "$out/$r")"
            if [[ $? -eq 0 && "$got" == "$want" ]]; then
                ok "r1cs info $r"
            else
                bad "r1cs info $r: $got"
            fi
        done

        got="$(sj wtns check "$out/$n.r1cs" "$out/$n.wtns")"
        if [[ $? -eq 0 && "$got" == *"WITNESS IS CORRECT"* ]]; then
            ok "wtns check $n"
        else
            bad "wtns check $n: $got"
        fi

        zk="$out/${n}_nocontrib.zkey"
        got="$(sj zkey export verificationkey "$zk" "$tmp/vk.json")"
        if [[ $? -eq 0 ]] && python3 - "$v/verification_key.json" "$tmp/vk.json" <<'EOF'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
sys.exit(0 if a == b else 1)
EOF
        then
            ok "zkey export verificationkey ${n}_nocontrib"
        else
            bad "zkey export verificationkey ${n}_nocontrib: $got"
        fi

        got="$(sj groth16 prove "$zk" "$out/$n.wtns" "$tmp/proof.json" "$tmp/public.json")"
        if [[ $? -eq 0 ]]; then
            got="$(sj groth16 verify "$v/verification_key.json" "$tmp/public.json" "$tmp/proof.json")"
        fi
        if [[ "$got" == *"OK!"* ]] && cmp -s <(python3 -c 'import json,sys;print(json.load(open(sys.argv[1])))' "$tmp/public.json") \
            <(python3 -c 'import json,sys;print(json.load(open(sys.argv[1])))' "$v/public.json"); then
            ok "groth16 prove/verify with ${n}_nocontrib"
        else
            bad "groth16 prove/verify with ${n}_nocontrib: $got"
        fi
    done
done

# random circuits and witnesses written by the suite
for r in "$out"/random_*.r1cs; do
    got="$(sj r1cs info "$r")"
    if [[ $? -eq 0 && "$got" == *"# of Wires"* ]]; then ok "r1cs info $(basename "$r")"; else bad "r1cs info $r: $got"; fi
done
for w in "$out"/random_*.wtns; do
    got="$(sj wtns export json "$w" "$tmp/w.json")"
    if [[ $? -eq 0 ]] && python3 - "$w" "$tmp/w.json" <<'EOF'
import json, struct, sys
d = open(sys.argv[1], 'rb').read()
n = struct.unpack_from('<I', d, 24 + 4 + 32)[0]
vals = [int.from_bytes(d[76 + 32 * i:108 + 32 * i], 'little') for i in range(n)]
sys.exit(0 if [int(x) for x in json.load(open(sys.argv[2]))] == vals else 1)
EOF
    then ok "wtns export json $(basename "$w")"; else bad "wtns export json $w: $got"; fi
done

echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
