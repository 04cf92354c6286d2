#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# `czk gen-circuit` and `czk setup --dev` end to end, with snarkjs as the oracle:
# for both curves, both shapes and three sizes (10 and 1000 constraints, domain 2^12):
# gen-circuit; setup --dev; `snarkjs zkey export verificationkey` reads the key (and
# equals `czk zkey export-vkey`); `czk prove`; `snarkjs groth16 verify` and
# `czk verify` accept; a witness with one value changed is refused by
# `czk prove --r1cs` and its proof is rejected by both verifiers. At 1000 constraints
# `snarkjs groth16 prove` on the key is verified by both as well. Also: determinism of
# both commands (seed, thread count) and their option errors (exit 2).
#
# Usage: tests/cli/test_setup_cli.sh <path-to-czk> <repo-root>
#   needs node and <repo-root>/node_modules (snarkjs); exits 77 (skipped) without them.
# Prints "N passed, N failed" last and exits non-zero if anything failed.
set -u

if [[ $# -ne 2 ]]; then
    echo "usage: $0 <path-to-czk> <repo-root>" >&2
    exit 2
fi
czk="$1"
root="$2"
if [[ ! -x "$czk" ]]; then
    echo "not executable: $czk" >&2
    exit 2
fi
snarkjs_js="$root/node_modules/snarkjs/build/cli.cjs"
if ! command -v node >/dev/null || [[ ! -f "$snarkjs_js" ]]; then
    echo "node or $snarkjs_js missing: skipped"
    exit 77
fi
command -v python3 >/dev/null || { echo "python3 is required" >&2; exit 2; }

tmp="$(mktemp -d "${TMPDIR:-/tmp}/czk-setup-cli.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

pass=0
fail=0
ok() { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }

snarkjs() { node "$snarkjs_js" "$@"; }

# run NAME WANT_RC CMD...: the command's exit status must be WANT_RC.
run() {
    local name="$1" want="$2"
    shift 2
    "$@" >"$tmp/out" 2>&1
    local rc=$?
    if [[ $rc -eq $want ]]; then
        ok "$name"
    else
        bad "$name: exit $rc, expected $want: $(head -c 600 "$tmp/out")"
    fi
}

# sj_verify NAME WANT(OK|INVALID) VK PUBLIC PROOF: snarkjs prints "OK!" or "Invalid proof".
sj_verify() {
    local name="$1" want="$2"
    shift 2
    local out
    out="$(snarkjs groth16 verify "$@" 2>&1)"
    if [[ $want == OK && $out == *"OK!"* ]]; then
        ok "$name"
    elif [[ $want == INVALID && $out == *"Invalid proof"* ]]; then
        ok "$name"
    else
        bad "$name: snarkjs says: $(echo "$out" | tail -3)"
    fi
}

# bump_witness SRC DST INDEX: DST = SRC with value INDEX replaced by value + 1 mod r.
bump_witness() {
    python3 - "$1" "$2" "$3" <<'EOF'
import struct, sys
src, dst, idx = sys.argv[1], sys.argv[2], int(sys.argv[3])
b = bytearray(open(src, "rb").read())
assert b[:4] == b"wtns"
nsec = struct.unpack_from("<I", b, 8)[0]
p, secs = 12, {}
for _ in range(nsec):
    t, size = struct.unpack_from("<IQ", b, p)
    secs[t] = (p + 12, size)
    p += 12 + size
h = secs[1][0]
n8 = struct.unpack_from("<I", b, h)[0]
q = int.from_bytes(b[h + 4:h + 4 + n8], "little")
n = struct.unpack_from("<I", b, h + 4 + n8)[0]
if idx < 0:
    idx += n
o = secs[2][0] + idx * n8
v = (int.from_bytes(b[o:o + n8], "little") + 1) % q
b[o:o + n8] = v.to_bytes(n8, "little")
open(dst, "wb").write(b)
EOF
}

# ---- option errors -------------------------------------------------------------------
g="$tmp/opt"
run "gen: no --curve" 2 "$czk" gen-circuit --constraints 5 --shape mul --out "$g"
run "gen: bad curve" 2 "$czk" gen-circuit --curve bn256 --constraints 5 --shape mul --out "$g"
run "gen: bad shape" 2 "$czk" gen-circuit --curve bn254 --constraints 5 --shape add --out "$g"
run "gen: no size" 2 "$czk" gen-circuit --curve bn254 --shape mul --out "$g"
run "gen: both sizes" 2 "$czk" gen-circuit --curve bn254 --constraints 5 --domain-log 4 \
    --shape mul --out "$g"
run "gen: zero constraints" 2 "$czk" gen-circuit --curve bn254 --constraints 0 --shape mul \
    --out "$g"
run "gen: junk constraints" 2 "$czk" gen-circuit --curve bn254 --constraints 5x --shape mul \
    --out "$g"
run "gen: too many constraints" 2 "$czk" gen-circuit --curve bn254 --constraints 268435454 \
    --shape mul --out "$g"
run "gen: domain-log above 2-adicity" 2 "$czk" gen-circuit --curve bn254 --domain-log 29 \
    --shape mul --out "$g"
run "gen: domain-log too small for porep" 2 "$czk" gen-circuit --curve bls12_381 \
    --domain-log 8 --shape porep --out "$g"
run "gen: bool-frac with mul" 2 "$czk" gen-circuit --curve bn254 --constraints 5 --shape mul \
    --bool-frac 0.5 --out "$g"
run "gen: bool-frac out of range" 2 "$czk" gen-circuit --curve bn254 --constraints 5 \
    --shape porep --bool-frac 1.5 --out "$g"
run "gen: bad seed" 2 "$czk" gen-circuit --curve bn254 --constraints 5 --shape mul --seed -1 \
    --out "$g"
run "gen: bad threads" 2 "$czk" gen-circuit --curve bn254 --constraints 5 --shape mul \
    --threads 0 --out "$g"
run "gen: no --out" 2 "$czk" gen-circuit --curve bn254 --constraints 5 --shape mul
run "gen: unknown option" 2 "$czk" gen-circuit --curve bn254 --constraints 5 --shape mul \
    --out "$g" --fast
run "gen: option twice" 2 "$czk" gen-circuit --curve bn254 --curve bn254 --constraints 5 \
    --shape mul --out "$g"
run "gen: --help" 0 "$czk" gen-circuit --help
[[ ! -e "$g" ]] && ok "gen: nothing written on errors" || bad "gen: $g was created"
: >"$tmp/file"
run "gen: --out is a file" 1 "$czk" gen-circuit --curve bn254 --constraints 5 --shape mul \
    --out "$tmp/file"

run "gen: small circuit" 0 "$czk" gen-circuit --curve bn254 --constraints 5 --shape mul \
    --out "$tmp/s"
run "setup: no --dev" 2 "$czk" setup "$tmp/s/circuit.r1cs" "$tmp/s/k.zkey"
run "setup: one argument" 2 "$czk" setup --dev "$tmp/s/circuit.r1cs"
run "setup: three arguments" 2 "$czk" setup --dev "$tmp/s/circuit.r1cs" "$tmp/s/k.zkey" extra
run "setup: bad threads" 2 "$czk" setup --dev "$tmp/s/circuit.r1cs" "$tmp/s/k.zkey" \
    --threads x
run "setup: empty seed" 2 "$czk" setup --dev "$tmp/s/circuit.r1cs" "$tmp/s/k.zkey" --seed ""
run "setup: unknown option" 2 "$czk" setup --dev --fast "$tmp/s/circuit.r1cs" "$tmp/s/k.zkey"
run "setup: missing r1cs" 1 "$czk" setup --dev "$tmp/s/none.r1cs" "$tmp/s/k.zkey"
run "setup: not an r1cs" 1 "$czk" setup --dev "$tmp/s/witness.wtns" "$tmp/s/k.zkey"
[[ ! -e "$tmp/s/k.zkey" ]] && ok "setup: nothing written on errors" \
    || bad "setup: k.zkey written"
"$czk" setup --dev "$tmp/s/circuit.r1cs" "$tmp/s/k.zkey" >/dev/null 2>"$tmp/err"
if grep -q "INSECURE" "$tmp/err"; then ok "setup: warns on stderr"; else bad "setup: no warning"; fi

# ---- determinism ---------------------------------------------------------------------
"$czk" gen-circuit --curve bls12_381 --constraints 3000 --shape porep --seed 9 --threads 1 \
    --out "$tmp/d1" >/dev/null
"$czk" gen-circuit --curve bls12_381 --constraints 3000 --shape porep --seed 9 --threads 2 \
    --out "$tmp/d2" >/dev/null
"$czk" gen-circuit --curve bls12_381 --constraints 3000 --shape porep --seed 10 \
    --out "$tmp/d3" >/dev/null
if cmp -s "$tmp/d1/circuit.r1cs" "$tmp/d2/circuit.r1cs" &&
    cmp -s "$tmp/d1/witness.wtns" "$tmp/d2/witness.wtns"; then
    ok "gen: same seed, any thread count, same files"
else
    bad "gen: output depends on the thread count"
fi
cmp -s "$tmp/d1/witness.wtns" "$tmp/d3/witness.wtns" && bad "gen: seed ignored" \
    || ok "gen: another seed, other files"
"$czk" setup --dev "$tmp/d1/circuit.r1cs" "$tmp/d1/a.zkey" --seed abc --threads 1 \
    >/dev/null 2>&1
"$czk" setup --dev "$tmp/d1/circuit.r1cs" "$tmp/d1/b.zkey" --seed abc --threads 2 \
    >/dev/null 2>&1
"$czk" setup --dev "$tmp/d1/circuit.r1cs" "$tmp/d1/c.zkey" >/dev/null 2>&1
cmp -s "$tmp/d1/a.zkey" "$tmp/d1/b.zkey" && ok "setup: same seed, same key" \
    || bad "setup: same seed, different keys"
cmp -s "$tmp/d1/a.zkey" "$tmp/d1/c.zkey" && bad "setup: random setup equals seeded one" \
    || ok "setup: random toxic waste without --seed"

# ---- prove and verify --------------------------------------------------------------------
for curve in bn254 bls12_381; do
    for shape in mul porep; do
        for size in "--constraints 10" "--constraints 1000" "--domain-log 12"; do
            tag="$curve $shape ${size#--}"
            d="$tmp/$curve-$shape-${size##* }"
            # shellcheck disable=SC2086
            if ! "$czk" gen-circuit --curve "$curve" --shape "$shape" $size --seed 3 \
                --out "$d" >"$tmp/out" 2>&1; then
                bad "$tag: gen-circuit: $(cat "$tmp/out")"
                continue
            fi
            if ! "$czk" setup --dev "$d/circuit.r1cs" "$d/circuit.zkey" --seed "$tag" \
                >"$tmp/out" 2>&1; then
                bad "$tag: setup: $(cat "$tmp/out")"
                continue
            fi
            if snarkjs zkey export verificationkey "$d/circuit.zkey" "$d/vk.json" \
                >"$tmp/out" 2>&1 && [[ -s "$d/vk.json" ]]; then
                ok "$tag: snarkjs exports the vkey"
            else
                bad "$tag: snarkjs zkey export verificationkey: $(tail -3 "$tmp/out")"
                continue
            fi
            "$czk" zkey export-vkey "$d/circuit.zkey" "$d/cvk.json" >/dev/null 2>&1
            cmp -s "$d/vk.json" "$d/cvk.json" && ok "$tag: czk vkey equals snarkjs's" \
                || bad "$tag: czk zkey export-vkey differs from snarkjs"
            run "$tag: czk prove --r1cs" 0 "$czk" prove --r1cs "$d/circuit.r1cs" \
                "$d/circuit.zkey" "$d/witness.wtns" "$d/proof.json" "$d/public.json"
            sj_verify "$tag: snarkjs verifies czk's proof" OK "$d/vk.json" "$d/public.json" \
                "$d/proof.json"
            run "$tag: czk verifies czk's proof" 0 "$czk" verify "$d/vk.json" \
                "$d/public.json" "$d/proof.json"
            if [[ $size == "--constraints 1000" ]]; then
                snarkjs groth16 prove "$d/circuit.zkey" "$d/witness.wtns" "$d/sproof.json" \
                    "$d/spublic.json" >/dev/null 2>&1
                sj_verify "$tag: snarkjs verifies snarkjs's proof" OK "$d/vk.json" \
                    "$d/spublic.json" "$d/sproof.json"
                run "$tag: czk verifies snarkjs's proof" 0 "$czk" verify "$d/vk.json" \
                    "$d/spublic.json" "$d/sproof.json"
            fi
            # The last wire: an intermediate of the chain, the output wire of the last
            # porep row; either way in a constraint, so the witness is wrong.
            bump_witness "$d/witness.wtns" "$d/bad.wtns" -1
            run "$tag: czk prove --r1cs refuses a bad witness" 1 "$czk" prove --r1cs \
                "$d/circuit.r1cs" "$d/circuit.zkey" "$d/bad.wtns" "$d/bproof.json" \
                "$d/bpublic.json"
            "$czk" prove "$d/circuit.zkey" "$d/bad.wtns" "$d/bproof.json" "$d/bpublic.json" \
                >/dev/null 2>&1
            sj_verify "$tag: snarkjs rejects the bad witness's proof" INVALID "$d/vk.json" \
                "$d/bpublic.json" "$d/bproof.json"
            run "$tag: czk rejects the bad witness's proof" 1 "$czk" verify "$d/vk.json" \
                "$d/bpublic.json" "$d/bproof.json"
            rm -rf "$d"
        done
    done
done

echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
