#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# `czk prove` and `czk zkey export-vkey` end to end on every committed vector:
#  - the proof is accepted by `snarkjs groth16 verify` (node_modules) and `czk verify`;
#    public.json is byte-identical to the committed one; --check and --r1cs pass;
#  - with --test-fixed-rs R,S the proof.json is byte-identical to what snarkjs's own
#    prover (groth16_prove.js, with Fr.random replaced by R then S) writes;
#  - a witness with one private element changed: the proof is rejected by both
#    verifiers, --check exits 1 and writes nothing, --r1cs names a violated constraint;
#  - export-vkey writes the committed verification_key.json byte for byte;
#  - --format bellman writes a 192-byte proof.bin (BLS12-381) and is refused on BN254;
#  - bad input (missing/garbage files, key/witness mismatch, bad options) exits 2
#    with a message naming the file.
# Tampered witnesses are written with python3 into a temporary directory.
#
# Usage: tests/cli/test_prove_cli.sh <path-to-czk> <vectors-dir> <repo-root>
#   <vectors-dir> is tests/vectors or tests/vectors/groth16; <repo-root> holds node_modules.
# Prints "N passed, N failed" last and exits non-zero if anything failed. Checks that need
# node/snarkjs are reported as "skip" (not passed) when node is missing.
set -u

if [[ $# -ne 3 ]]; then
    echo "usage: $0 <path-to-czk> <vectors-dir> <repo-root>" >&2
    exit 2
fi
czk="$1"
vdir="$2"
root="$(cd "$3" && pwd)"
[[ -d "$vdir/groth16" ]] && vdir="$vdir/groth16"
[[ -x "$czk" ]] || { echo "not executable: $czk" >&2; exit 2; }
if [[ ! -f "$vdir/bn254/mulchain/circuit.zkey" ]]; then
    echo "no Groth16 vectors under $vdir" >&2
    exit 2
fi
command -v python3 >/dev/null || { echo "python3 is required" >&2; exit 2; }
snarkjs="$root/node_modules/.bin/snarkjs"
have_node=1
if ! command -v node >/dev/null || [[ ! -e "$snarkjs" ]]; then
    have_node=0
fi

tmp="$(mktemp -d "${TMPDIR:-/tmp}/czk-prove-cli.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

pass=0
fail=0
skip=0

ok() { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }
skipped() { echo "skip $1"; skip=$((skip + 1)); }

# run WANT_RC NAME TEXT -- ARGS...: run czk ARGS, check the exit status and that
# stdout+stderr contains TEXT (when TEXT is not empty).
run() {
    local want="$1" name="$2" text="$3"
    shift 4
    local out rc
    out="$("$czk" "$@" 2>&1)"
    rc=$?
    if [[ $rc -ne $want ]]; then
        bad "$name: exit $rc, expected $want; output: $out"
    elif [[ -n "$text" && "$out" != *"$text"* ]]; then
        bad "$name: output lacks '$text': $out"
    else
        ok "$name"
    fi
}

# snarkjs_verify WANT(0 accept / 1 reject) NAME VK PUB PROOF
snarkjs_verify() {
    local want="$1" name="$2" out rc
    if [[ $have_node -eq 0 ]]; then
        skipped "$name (node/snarkjs not available)"
        return
    fi
    out="$(node "$snarkjs" groth16 verify "$3" "$4" "$5" 2>&1)"
    rc=$?
    if [[ $want -eq 0 && $rc -eq 0 && "$out" == *"OK!"* ]]; then
        ok "$name"
    elif [[ $want -ne 0 && $rc -ne 0 && "$out" == *"Invalid proof"* ]]; then
        ok "$name"
    else
        bad "$name: snarkjs exit $rc: $out"
    fi
}

# same NAME A B: byte-identical files
same() {
    if cmp -s "$2" "$3"; then ok "$1"; else bad "$1: $2 and $3 differ"; fi
}

# flip_wtns SRC DST INDEX: DST = SRC with the low bit of witness[INDEX] changed (the
# value stays < r: r is odd, so only r - 1 could overflow, and then bit 1 is cleared).
flip_wtns() {
    python3 - "$1" "$2" "$3" <<'EOF'
import struct, sys
src, dst, idx = sys.argv[1], sys.argv[2], int(sys.argv[3])
b = bytearray(open(src, "rb").read())
assert b[:4] == b"wtns"
nsec = struct.unpack_from("<I", b, 8)[0]
pos, n8, q, data = 12, None, None, None
for _ in range(nsec):
    typ, size = struct.unpack_from("<IQ", b, pos)
    body = pos + 12
    if typ == 1:
        n8 = struct.unpack_from("<I", b, body)[0]
        q = int.from_bytes(b[body + 4:body + 4 + n8], "little")
    elif typ == 2:
        data = body
    pos = body + size
off = data + idx * n8
v = int.from_bytes(b[off:off + n8], "little") ^ 1
if v >= q:
    v ^= 3
b[off:off + n8] = v.to_bytes(n8, "little")
open(dst, "wb").write(bytes(b))
EOF
}

# The snarkjs reference prover with fixed blinding (prints proof.json as snarkjs's CLI).
cat >"$tmp/ref.mjs" <<'EOF'
const root = process.env.CZK_ROOT;
const { default: prove } = await import(root + "/node_modules/snarkjs/src/groth16_prove.js");
const { getCurveFromName } = await import(root + "/node_modules/snarkjs/src/curves.js");
const [zkey, wtns, cname, r, s] = process.argv.slice(2);
const curve = await getCurveFromName(cname);
const vals = [BigInt(r), BigInt(s)];
let i = 0;
curve.Fr.random = () => curve.Fr.e(vals[i++]);
const { proof } = await prove(zkey, wtns);
process.stdout.write(JSON.stringify(proof, null, 1));
process.exit(0);
EOF

for curve_dir in "$vdir"/*/; do
    curve="$(basename "$curve_dir")"
    case "$curve" in
    bn254) cname=bn128 ;;
    bls12_381) cname=bls12381 ;;
    *) continue ;;
    esac
    for cdir in "$curve_dir"*/; do
        c="$(basename "$cdir")"
        zk="$cdir/circuit.zkey" wt="$cdir/witness.wtns" vk="$cdir/verification_key.json"
        [[ -f "$zk" && -f "$wt" && -f "$vk" ]] || continue
        t="$curve/$c"
        o="$tmp/$curve-$c"
        mkdir -p "$o"

        run 0 "$t: prove" "" -- prove --threads 2 "$zk" "$wt" "$o/proof.json" "$o/public.json"
        snarkjs_verify 0 "$t: snarkjs accepts" "$vk" "$o/public.json" "$o/proof.json"
        run 0 "$t: czk verify accepts" "OK" -- verify "$vk" "$o/public.json" "$o/proof.json"
        same "$t: public.json as committed" "$o/public.json" "$cdir/public.json"
        run 0 "$t: --check --threads 1" "" -- prove --check --threads 1 --backend cpu \
            "$zk" "$wt" "$o/p1.json" "$o/u1.json"
        run 0 "$t: --r1cs accepts the witness" "" -- prove --r1cs "$cdir/circuit.r1cs" \
            --trust-key "$zk" "$wt" "$o/p2.json" "$o/u2.json"

        # exact proof for fixed r, s against snarkjs's prover
        for rs in 0,0 1,2 98765432109876543210,123456789; do
            run 0 "$t: fixed r,s $rs" "" -- prove --test-fixed-rs "$rs" "$zk" "$wt" \
                "$o/pf.json" "$o/uf.json"
            if [[ $have_node -eq 1 ]]; then
                if CZK_ROOT="$root" node "$tmp/ref.mjs" "$zk" "$wt" "$cname" "${rs%%,*}" \
                    "${rs##*,}" >"$o/ref.json" 2>"$o/ref.err"; then
                    same "$t: fixed r,s $rs equals snarkjs" "$o/pf.json" "$o/ref.json"
                else
                    bad "$t: snarkjs reference prover failed: $(cat "$o/ref.err")"
                fi
            else
                skipped "$t: fixed r,s $rs equals snarkjs (node not available)"
            fi
        done

        # a changed private signal (index nPublic + 1)
        npub="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["nPublic"])' "$vk")"
        flip_wtns "$wt" "$o/flipped.wtns" "$((npub + 1))"
        run 0 "$t: prove flipped witness" "" -- prove "$zk" "$o/flipped.wtns" \
            "$o/pb.json" "$o/ub.json"
        snarkjs_verify 1 "$t: snarkjs rejects flipped" "$vk" "$o/ub.json" "$o/pb.json"
        run 1 "$t: czk verify rejects flipped" "INVALID" -- verify "$vk" "$o/ub.json" "$o/pb.json"
        run 1 "$t: --check rejects flipped" "does not verify" -- prove --check "$zk" \
            "$o/flipped.wtns" "$o/pc.json" "$o/uc.json"
        if [[ -e "$o/pc.json" || -e "$o/uc.json" ]]; then
            bad "$t: --check failure wrote files"
        else
            ok "$t: --check failure wrote nothing"
        fi
        run 1 "$t: --r1cs names the violated constraint" "violates constraint" -- prove \
            --r1cs "$cdir/circuit.r1cs" "$zk" "$o/flipped.wtns" "$o/pd.json" "$o/ud.json"

        run 0 "$t: export-vkey" "" -- zkey export-vkey "$zk" "$o/vk.json"
        same "$t: export-vkey equals verification_key.json" "$o/vk.json" "$vk"

        if [[ "$curve" == bls12_381 ]]; then
            run 0 "$t: --format bellman" "" -- prove --format bellman "$zk" "$wt" \
                "$o/pe.json" "$o/ue.json"
            if [[ -f "$o/pe.bin" && "$(wc -c <"$o/pe.bin")" -eq 192 ]]; then
                ok "$t: proof.bin is 192 bytes"
            else
                bad "$t: proof.bin missing or not 192 bytes"
            fi
            snarkjs_verify 0 "$t: bellman run's proof.json accepted" "$vk" "$o/ue.json" "$o/pe.json"
        else
            run 2 "$t: --format bellman refused" "BLS12-381" -- prove --format bellman \
                "$zk" "$wt" "$o/pe.json" "$o/ue.json"
        fi
    done
done

# ---- bad input -------------------------------------------------------------------
b="$vdir/bn254" l="$vdir/bls12_381"
run 2 "other circuit's witness" "witness" -- prove "$b/cubic/circuit.zkey" \
    "$b/mulchain/witness.wtns" "$tmp/x.json" "$tmp/y.json"
run 2 "other curve's witness" "curve" -- prove "$b/cubic/circuit.zkey" \
    "$l/cubic/witness.wtns" "$tmp/x.json" "$tmp/y.json"
run 2 "--r1cs of another circuit" "circuit.r1cs" -- prove --r1cs "$b/poly5/circuit.r1cs" \
    "$b/cubic/circuit.zkey" "$b/cubic/witness.wtns" "$tmp/x.json" "$tmp/y.json"
run 2 "missing zkey" "$tmp/none.zkey" -- prove "$tmp/none.zkey" "$b/cubic/witness.wtns" \
    "$tmp/x.json" "$tmp/y.json"
run 2 "missing witness" "$tmp/none.wtns" -- prove "$b/cubic/circuit.zkey" "$tmp/none.wtns" \
    "$tmp/x.json" "$tmp/y.json"
run 2 "garbage zkey" "verification_key.json" -- prove "$b/cubic/verification_key.json" \
    "$b/cubic/witness.wtns" "$tmp/x.json" "$tmp/y.json"
head -c 100 "$b/cubic/circuit.zkey" >"$tmp/trunc.zkey"
run 2 "truncated zkey" "trunc.zkey" -- prove "$tmp/trunc.zkey" "$b/cubic/witness.wtns" \
    "$tmp/x.json" "$tmp/y.json"
run 2 "garbage witness" "circuit.zkey" -- prove "$b/cubic/circuit.zkey" \
    "$b/cubic/circuit.zkey" "$tmp/x.json" "$tmp/y.json"
run 2 "unknown backend" "nope" -- prove --backend nope "$b/cubic/circuit.zkey" \
    "$b/cubic/witness.wtns" "$tmp/x.json" "$tmp/y.json"
out="$("$czk" prove --backend cuda "$b/cubic/circuit.zkey" "$b/cubic/witness.wtns" \
    "$tmp/x.json" "$tmp/y.json" 2>&1)"
rc=$?
if [[ $rc -eq 0 || ($rc -eq 2 && "$out" == *cuda*) ]]; then
    ok "--backend cuda proves on a GPU or exits 2 naming cuda"
else
    bad "--backend cuda: exit $rc: $out"
fi
run 2 "bad --threads" "--threads" -- prove --threads many "$b/cubic/circuit.zkey" \
    "$b/cubic/witness.wtns" "$tmp/x.json" "$tmp/y.json"
run 2 "bad --test-fixed-rs" "test-fixed-rs" -- prove --test-fixed-rs 5 \
    "$b/cubic/circuit.zkey" "$b/cubic/witness.wtns" "$tmp/x.json" "$tmp/y.json"
run 2 "too few arguments" "usage" -- prove "$b/cubic/circuit.zkey" "$b/cubic/witness.wtns"
run 2 "unknown option" "--frobnicate" -- prove --frobnicate "$b/cubic/circuit.zkey" \
    "$b/cubic/witness.wtns" "$tmp/x.json" "$tmp/y.json"
run 2 "unwritable output" "$tmp/no/such/dir" -- prove "$b/cubic/circuit.zkey" \
    "$b/cubic/witness.wtns" "$tmp/no/such/dir/p.json" "$tmp/y.json"
run 0 "prove --help" "usage" -- prove --help
# one progress line per stage on a terminal (script(1) provides one), none otherwise
if command -v script >/dev/null; then
    out="$(script -qec "'$czk' prove '$b/cubic/circuit.zkey' '$b/cubic/witness.wtns' \
        '$tmp/t.json' '$tmp/tu.json'" /dev/null 2>&1 | tr -d '\r')"
    stages='synth|ntt_a|ntt_b|ntt_c|quotient|msm_a|msm_b1|msm_c|msm_h|msm_b2|finish'
    n="$(grep -cE "^czk prove: ($stages) +[0-9.]+ ms\$" <<<"$out")"
    if [[ "$n" -eq 11 ]]; then
        ok "11 stage lines on a terminal"
    else
        bad "stage lines on a tty ($n): $out"
    fi
else
    skipped "stage lines on a terminal (no script(1))"
fi
out="$("$czk" prove "$b/cubic/circuit.zkey" "$b/cubic/witness.wtns" "$tmp/t.json" \
    "$tmp/tu.json" 2>&1)"
if [[ -z "$out" ]]; then
    ok "quiet when stderr is not a terminal"
else
    bad "output without a tty: $out"
fi
# The checked-key cache: a key whose subgroup checks passed is remembered by its
# key id (one hex line per key) and not listed with --no-key-cache or --trust-key.
kc="$tmp/keycache"
mkdir -p "$kc"
key="$b/cubic/circuit.zkey"
# the key id of src/io/formats.h, computed independently
hash="$(python3 -c '
import hashlib, sys
data = open(sys.argv[1], "rb").read()
h = hashlib.sha256(b"czk-zkey-id-v1".ljust(16, b"\0") + len(data).to_bytes(8, "little"))
for i in range(0, len(data), 4 << 20):
    h.update(hashlib.sha256(data[i:i + (4 << 20)]).digest())
print(h.hexdigest())' "$key")"
XDG_CACHE_HOME="$kc/off" "$czk" prove --no-key-cache "$key" "$b/cubic/witness.wtns" \
    "$tmp/kc.json" "$tmp/kcu.json" >/dev/null 2>&1
XDG_CACHE_HOME="$kc/trust" "$czk" prove --trust-key "$key" "$b/cubic/witness.wtns" \
    "$tmp/kc.json" "$tmp/kcu.json" >/dev/null 2>&1
if [[ ! -e "$kc/off/czk/trusted-keys" && ! -e "$kc/trust/czk/trusted-keys" ]]; then
    ok "no checked-key cache with --no-key-cache or --trust-key"
else
    bad "checked-key cache written with --no-key-cache or --trust-key"
fi
for i in 1 2; do
    XDG_CACHE_HOME="$kc/on" "$czk" prove "$key" "$b/cubic/witness.wtns" "$tmp/kc$i.json" \
        "$tmp/kcu$i.json" >/dev/null 2>&1 || bad "prove with the key cache, run $i"
done
if [[ "$(cat "$kc/on/czk/trusted-keys" 2>/dev/null)" == "$hash" ]]; then
    ok "checked key remembered once by its key id"
else
    bad "trusted-keys: '$(cat "$kc/on/czk/trusted-keys" 2>/dev/null)', expected $hash"
fi
"$czk" verify "$b/cubic/verification_key.json" "$tmp/kcu2.json" "$tmp/kc2.json" >/dev/null 2>&1 &&
    ok "proof with a remembered key verifies" || bad "proof with a remembered key rejected"
run 2 "export-vkey of a missing key" "$tmp/none.zkey" -- zkey export-vkey "$tmp/none.zkey" \
    "$tmp/v.json"
run 2 "zkey without subcommand" "usage" -- zkey
if ls "$tmp"/*.tmp.* >/dev/null 2>&1; then
    bad "temporary files left behind"
else
    ok "no temporary files left behind"
fi

[[ $skip -gt 0 ]] && echo "($skip skipped)"
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
