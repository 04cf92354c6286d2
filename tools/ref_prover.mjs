// SPDX-License-Identifier: Apache-2.0
//
// A small reference Groth16 prover for snarkjs keys, written for exact comparison with
// czk's prover: for given blinding factors r and s it computes the proof by the textbook
// definition, independently of snarkjs's prover code. It parses the .zkey and .wtns
// binfiles itself, does all scalar-field arithmetic with BigInt (its own roots of unity,
// cross-checked against ffjavascript's), evaluates A·w and B·w on the constraint domain
// from the zkey's coefficient section (c·R² decoded back to c), sets c = a∘b there (or
// evaluates C·w from an .r1cs with --r1cs and checks it equals a∘b), interpolates
// A, B, C with a radix-2 inverse NTT, computes the quotient h = (A·B − C)/Z by long
// division when the domain is small and checks the remainder is zero, evaluates
// A·B − C on snarkjs's odd coset (shift ω_2N, or 25 when the domain is 2^s), and forms
// the MSMs as naive sums of scalar multiples with ffjavascript's G1/G2 (buildBn128,
// buildBls12381):
//   pi_a = alpha1 + Σ w_i·A_i + r·delta1
//   pi_b = beta2  + Σ w_i·B2_i + s·delta2
//   pib1 = beta1  + Σ w_i·B1_i + s·delta1
//   pi_c = Σ_{i>nPublic} w_i·C_i + Σ_j h_j·H_j + s·pi_a + r·pib1 − (r·s)·delta1
// The proof is written as snarkjs writes proof.json (JSON.stringify(.., null, 1), no
// final newline).
//
// usage: node tools/ref_prover.mjs [--r1cs circuit.r1cs] circuit.zkey witness.wtns R S
//            proof.json [public.json]
//        node tools/ref_prover.mjs --via-snarkjs circuit.zkey witness.wtns R S proof.json
//   R, S: decimal or 0x-hex integers < r, or "random" for fresh random values.
//   --via-snarkjs does not use the code above: it runs snarkjs's own groth16 prover with
//   its curve's Fr.random patched to return R then S, as an oracle for cross-checking
//   this file's proofs (tests/cli/test_ref_prover.sh).
// Exit status 0 on success, 1 on any error (message on stderr).

import { readFileSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { buildBn128, buildBls12381 } from "ffjavascript";

const CURVES = {
    bn128: {
        q: 0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47n,
        r: 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001n,
        build: buildBn128,
    },
    bls12381: {
        q: BigInt("0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf" +
                  "6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab"),
        r: 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n,
        build: buildBls12381,
    },
};

function die(msg) {
    process.stderr.write(`ref_prover: ${msg}\n`);
    process.exit(1);
}

// ---- binfile parsing (iden3 binfileutils layout) -------------------------------------

function readBinFile(path, magic) {
    const buf = readFileSync(path);
    const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    if (buf.length < 12 || buf.toString("latin1", 0, 4) !== magic)
        die(`${path}: not a ${magic} file`);
    const version = dv.getUint32(4, true);
    const nSections = dv.getUint32(8, true);
    const sections = {};
    let p = 12;
    for (let i = 0; i < nSections; i++) {
        if (p + 12 > buf.length) die(`${path}: truncated section header`);
        const type = dv.getUint32(p, true);
        const size = Number(dv.getBigUint64(p + 4, true));
        p += 12;
        if (p + size > buf.length) die(`${path}: section ${type} overruns the file`);
        if (sections[type]) die(`${path}: duplicate section ${type}`);
        sections[type] = { p, size };
        p += size;
    }
    return { buf, dv, version, sections, path };
}

function section(f, id) {
    const s = f.sections[id];
    if (!s) die(`${f.path}: missing section ${id}`);
    return s;
}

function leToBig(buf, off, n) {
    let v = 0n;
    for (let i = n - 1; i >= 0; i--) v = (v << 8n) | BigInt(buf[off + i]);
    return v;
}

function bigToLe(v, n) {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
        out[i] = Number(v & 0xffn);
        v >>= 8n;
    }
    return out;
}

// ---- scalar field (BigInt) ---------------------------------------------------------

function makeFr(r) {
    const mod = (a) => ((a % r) + r) % r;
    const pow = (b, e) => {
        let acc = 1n;
        b = mod(b);
        while (e > 0n) {
            if (e & 1n) acc = (acc * b) % r;
            b = (b * b) % r;
            e >>= 1n;
        }
        return acc;
    };
    const inv = (a) => {
        if (mod(a) === 0n) throw new Error("inverse of zero");
        return pow(a, r - 2n);
    };
    let s = 0;
    let t = r - 1n;
    while ((t & 1n) === 0n) {
        t >>= 1n;
        s++;
    }
    // ffjavascript's convention: the roots come from the smallest non-residue, 5 on both.
    const nqr = 5n;
    if (pow(nqr, (r - 1n) / 2n) !== r - 1n) throw new Error("5 is a residue");
    const w = new Array(s + 1);
    w[s] = pow(nqr, t);
    for (let i = s - 1; i >= 0; i--) w[i] = (w[i + 1] * w[i + 1]) % r;
    return { r, mod, pow, inv, s, w, shift: (nqr * nqr) % r };
}

// In-place radix-2 NTT of a (length 2^k): a_i <- Σ_j a_j·om^(ij).
function ntt(Fr, a, om) {
    const n = a.length;
    const r = Fr.r;
    for (let i = 1, j = 0; i < n; i++) {
        let bit = n >> 1;
        for (; j & bit; bit >>= 1) j ^= bit;
        j ^= bit;
        if (i < j) [a[i], a[j]] = [a[j], a[i]];
    }
    for (let len = 2; len <= n; len <<= 1) {
        const wl = Fr.pow(om, BigInt(n / len));
        for (let i = 0; i < n; i += len) {
            let wk = 1n;
            for (let k = 0; k < len / 2; k++) {
                const u = a[i + k];
                const v = (a[i + k + len / 2] * wk) % r;
                a[i + k] = (u + v) % r;
                a[i + k + len / 2] = (u - v + r) % r;
                wk = (wk * wl) % r;
            }
        }
    }
}

function intt(Fr, a, om) {
    ntt(Fr, a, Fr.inv(om));
    const ninv = Fr.inv(BigInt(a.length));
    for (let i = 0; i < a.length; i++) a[i] = (a[i] * ninv) % Fr.r;
}

// ---- inputs ----------------------------------------------------------------------------

function readZkey(path) {
    const f = readBinFile(path, "zkey");
    const { buf, dv } = f;
    const s1 = section(f, 1);
    if (dv.getUint32(s1.p, true) !== 1) die(`${path}: not a Groth16 zkey`);
    const s2 = section(f, 2);
    let p = s2.p;
    const n8q = dv.getUint32(p, true);
    const q = leToBig(buf, p + 4, n8q);
    p += 4 + n8q;
    const n8r = dv.getUint32(p, true);
    const r = leToBig(buf, p + 4, n8r);
    p += 4 + n8r;
    const name = Object.keys(CURVES).find((k) => CURVES[k].q === q && CURVES[k].r === r);
    if (!name) die(`${path}: unknown curve`);
    const nVars = dv.getUint32(p, true);
    const nPublic = dv.getUint32(p + 4, true);
    const domainSize = dv.getUint32(p + 8, true);
    p += 12;
    const sG1 = 2 * n8q;
    const sG2 = 4 * n8q;
    const take = (n) => {
        const b = buf.subarray(p, p + n);
        p += n;
        return new Uint8Array(b);
    };
    const z = { name, n8q, n8r, q, r, nVars, nPublic, domainSize, sG1, sG2 };
    z.alpha1 = take(sG1);
    z.beta1 = take(sG1);
    z.beta2 = take(sG2);
    z.gamma2 = take(sG2);
    z.delta1 = take(sG1);
    z.delta2 = take(sG2);
    if (domainSize === 0 || (domainSize & (domainSize - 1)) !== 0)
        die(`${path}: domain size ${domainSize} is not a power of two`);

    const s4 = section(f, 4);
    const nCoefs = dv.getUint32(s4.p, true);
    const sCoef = 12 + n8r;
    if (s4.size !== 4 + nCoefs * sCoef) die(`${path}: section 4 size`);
    // Stored value: c·R² mod r (R = 2^(8·n8r)), see zkey_new.js; decode back to c.
    const R = (1n << BigInt(8 * n8r)) % r;
    const Fr = makeFr(r);
    const r2inv = Fr.inv((R * R) % r);
    z.coefs = [];
    for (let i = 0; i < nCoefs; i++) {
        const o = s4.p + 4 + i * sCoef;
        const m = dv.getUint32(o, true);
        const c = dv.getUint32(o + 4, true);
        const sig = dv.getUint32(o + 8, true);
        const v = leToBig(buf, o + 12, n8r);
        if (m > 1 || c >= domainSize || sig >= nVars) die(`${path}: bad coefficient ${i}`);
        z.coefs.push({ m, c, s: sig, v: (v * r2inv) % r });
    }
    const points = (id, count, size) => {
        const s = section(f, id);
        if (s.size !== count * size) die(`${path}: section ${id} size`);
        const out = [];
        for (let i = 0; i < count; i++)
            out.push(new Uint8Array(buf.subarray(s.p + i * size, s.p + (i + 1) * size)));
        return out;
    };
    z.A = points(5, nVars, sG1);
    z.B1 = points(6, nVars, sG1);
    z.B2 = points(7, nVars, sG2);
    z.C = points(8, nVars - nPublic - 1, sG1);
    z.H = points(9, domainSize, sG1);
    return z;
}

function readWtns(path, z) {
    const f = readBinFile(path, "wtns");
    const { buf, dv } = f;
    if (f.version !== 2) die(`${path}: wtns version ${f.version}, expected 2`);
    const s1 = section(f, 1);
    const n8 = dv.getUint32(s1.p, true);
    const q = leToBig(buf, s1.p + 4, n8);
    const n = dv.getUint32(s1.p + 4 + n8, true);
    if (q !== z.r) die(`${path}: witness field does not match the zkey's curve`);
    if (n !== z.nVars) die(`${path}: ${n} values, the zkey has ${z.nVars} signals`);
    const s2 = section(f, 2);
    if (s2.size !== n * n8) die(`${path}: section 2 size`);
    const w = [];
    for (let i = 0; i < n; i++) {
        const v = leToBig(buf, s2.p + i * n8, n8);
        if (v >= q) die(`${path}: value ${i} >= r`);
        w.push(v);
    }
    if (w[0] !== 1n) die(`${path}: w[0] != 1`);
    return w;
}

// C·w per constraint from an .r1cs (wire ids are witness indices in circom's output).
function readR1csC(path, z, w, Fr) {
    const f = readBinFile(path, "r1cs");
    const { buf, dv } = f;
    const h = section(f, 1);
    const n8 = dv.getUint32(h.p, true);
    const prime = leToBig(buf, h.p + 4, n8);
    if (prime !== z.r) die(`${path}: field does not match the zkey`);
    const nConstraints = dv.getUint32(h.p + 4 + n8 + 24, true);
    const s2 = section(f, 2);
    let p = s2.p;
    const cw = [];
    for (let c = 0; c < nConstraints; c++) {
        const lc = [0n, 0n, 0n];
        for (let k = 0; k < 3; k++) {
            const nt = dv.getUint32(p, true);
            p += 4;
            for (let t = 0; t < nt; t++) {
                const sig = dv.getUint32(p, true);
                const v = leToBig(buf, p + 4, n8);
                p += 4 + n8;
                if (sig >= w.length) die(`${path}: wire ${sig} out of range`);
                lc[k] = (lc[k] + v * w[sig]) % Fr.r;
            }
        }
        cw.push(lc);
    }
    return cw;
}

// ---- the proof --------------------------------------------------------------------------

function parseScalar(text, r, what) {
    if (text === "random") return BigInt("0x" + randomBytes(64).toString("hex")) % r;
    let v;
    try {
        v = BigInt(text);
    } catch {
        die(`${what}: not an integer: ${text}`);
    }
    if (v < 0n || v >= r) die(`${what}: must be in [0, r)`);
    return v;
}

function isZeroBytes(b) {
    for (let i = 0; i < b.length; i++) if (b[i]) return false;
    return true;
}

// Σ scalars[i]·bases[i] by plain scalar multiplications and additions.
function naiveSum(G, bases, scalars) {
    let acc = G.zero;
    for (let i = 0; i < bases.length; i++) {
        if (scalars[i] === 0n || isZeroBytes(bases[i])) continue;
        acc = G.add(acc, G.timesScalar(bases[i], scalars[i]));
    }
    return acc;
}

// snarkjs's prover (groth16_prove.js) draws r then s with curve.Fr.random() from the
// process-wide curve that ffjavascript caches for multithreaded builds.
async function viaSnarkjs(zkeyPath, wtnsPath, rText, sText, proofPath) {
    const z = readZkey(zkeyPath);
    const rr = parseScalar(rText, z.r, "R");
    const ss = parseScalar(sText, z.r, "S");
    const snarkjs = await import("snarkjs");
    const curve = await CURVES[z.name].build(false);
    const vals = [curve.Fr.e(rr), curve.Fr.e(ss)];
    const saved = curve.Fr.random;
    let k = 0;
    curve.Fr.random = () => {
        if (k >= 2) die("snarkjs drew more than two random scalars");
        return vals[k++];
    };
    try {
        const { proof } = await snarkjs.groth16.prove(zkeyPath, wtnsPath);
        if (k !== 2) die(`snarkjs drew ${k} random scalars, expected 2`);
        writeFileSync(proofPath, JSON.stringify(proof, null, 1));
    } finally {
        curve.Fr.random = saved;
        await curve.terminate();
    }
}

async function main() {
    const args = process.argv.slice(2);
    if (args[0] === "--via-snarkjs") {
        if (args.length !== 6)
            die("usage: ref_prover.mjs --via-snarkjs circuit.zkey witness.wtns R S proof.json");
        return viaSnarkjs(...args.slice(1));
    }
    let r1csPath = null;
    if (args[0] === "--r1cs") {
        r1csPath = args[1];
        args.splice(0, 2);
    }
    if (args.length < 5 || args.length > 6)
        die("usage: ref_prover.mjs [--r1cs circuit.r1cs] circuit.zkey witness.wtns R S " +
            "proof.json [public.json]");
    const [zkeyPath, wtnsPath, rText, sText, proofPath, publicPath] = args;

    const z = readZkey(zkeyPath);
    const w = readWtns(wtnsPath, z);
    const Fr = makeFr(z.r);
    const rr = parseScalar(rText, z.r, "R");
    const ss = parseScalar(sText, z.r, "S");
    const N = z.domainSize;
    const k = Math.log2(N);
    if (k > Fr.s) die(`domain 2^${k} exceeds the two-adicity ${Fr.s}`);

    const curve = await CURVES[z.name].build(true);
    try {
        // Cross-check the roots of unity with ffjavascript's (same convention).
        const ffw = curve.Fr.toObject(curve.Fr.w[k]);
        if (ffw !== Fr.w[k]) die(`root of unity 2^${k} differs from ffjavascript's`);

        // a = A·w, b = B·w on the domain rows; c = a∘b (snarkjs's zkey has no C matrix).
        const a = new Array(N).fill(0n);
        const b = new Array(N).fill(0n);
        for (const e of z.coefs) {
            const t = (e.v * w[e.s]) % z.r;
            if (e.m === 0) a[e.c] = (a[e.c] + t) % z.r;
            else b[e.c] = (b[e.c] + t) % z.r;
        }
        const c = a.map((ai, i) => (ai * b[i]) % z.r);
        if (r1csPath) {
            const cw = readR1csC(r1csPath, z, w, Fr);
            for (let i = 0; i < cw.length; i++) {
                if (cw[i][0] !== a[i] || cw[i][1] !== b[i])
                    die(`constraint ${i}: A·w/B·w differ between the r1cs and the zkey`);
                if (cw[i][2] !== c[i]) die(`constraint ${i}: A·w * B·w != C·w`);
            }
        }

        // Interpolate A, B, C on the domain (coefficients of degree < N).
        const om = Fr.w[k];
        intt(Fr, a, om);
        intt(Fr, b, om);
        intt(Fr, c, om);

        // Textbook check on small domains: A·B − C = H·Z with Z = x^N − 1.
        if (N <= 1024) {
            const p = new Array(2 * N).fill(0n);
            for (let i = 0; i < N; i++) {
                if (a[i] === 0n) continue;
                for (let j = 0; j < N; j++) p[i + j] = (p[i + j] + a[i] * b[j]) % z.r;
            }
            for (let i = 0; i < N; i++) p[i] = (p[i] - c[i] + z.r) % z.r;
            // Divide by x^N − 1: q_i = p_{i+N} + q_{i+N}; the remainder must vanish.
            const quo = new Array(N).fill(0n);
            for (let i = 2 * N - 1; i >= N; i--) {
                quo[i - N] = p[i];
                p[i - N] = (p[i - N] + p[i]) % z.r;
                p[i] = 0n;
            }
            for (let i = 0; i < N; i++)
                if (p[i] !== 0n) die("the witness does not satisfy the circuit (Z ∤ A·B − C)");
        }

        // Evaluate on snarkjs's odd coset g·<om>: g = ω_2N, or Fr.shift when N = 2^s.
        const g = k === Fr.s ? Fr.shift : Fr.w[k + 1];
        const ffg = curve.Fr.toObject(k === Fr.s ? curve.Fr.shift : curve.Fr.w[k + 1]);
        if (ffg !== g) die("coset shift differs from ffjavascript's");
        let gi = 1n;
        for (let i = 0; i < N; i++) {
            a[i] = (a[i] * gi) % z.r;
            b[i] = (b[i] * gi) % z.r;
            c[i] = (c[i] * gi) % z.r;
            gi = (gi * g) % z.r;
        }
        ntt(Fr, a, om);
        ntt(Fr, b, om);
        ntt(Fr, c, om);
        const h = a.map((ai, i) => (ai * b[i] - c[i] + z.r * z.r) % z.r);

        const G1 = curve.G1;
        const G2 = curve.G2;
        const wPriv = w.slice(z.nPublic + 1);
        let piA = G1.add(G1.add(z.alpha1, naiveSum(G1, z.A, w)),
                         G1.timesScalar(z.delta1, rr));
        let piB = G2.add(G2.add(z.beta2, naiveSum(G2, z.B2, w)),
                         G2.timesScalar(z.delta2, ss));
        let pib1 = G1.add(G1.add(z.beta1, naiveSum(G1, z.B1, w)),
                          G1.timesScalar(z.delta1, ss));
        let piC = G1.add(naiveSum(G1, z.C, wPriv), naiveSum(G1, z.H, h));
        piC = G1.add(piC, G1.timesScalar(piA, ss));
        piC = G1.add(piC, G1.timesScalar(pib1, rr));
        const rs = (rr * ss) % z.r;
        piC = G1.add(piC, G1.timesScalar(z.delta1, (z.r - rs) % z.r));

        const str = (x) => (Array.isArray(x) ? x.map(str) : x.toString());
        const proof = {
            pi_a: str(G1.toObject(G1.toAffine(piA))),
            pi_b: str(G2.toObject(G2.toAffine(piB))),
            pi_c: str(G1.toObject(G1.toAffine(piC))),
            protocol: "groth16",
            curve: z.name,
        };
        writeFileSync(proofPath, JSON.stringify(proof, null, 1));
        if (publicPath) {
            const pub = w.slice(1, z.nPublic + 1).map((v) => v.toString());
            writeFileSync(publicPath, JSON.stringify(pub, null, 1));
        }
    } finally {
        await curve.terminate();
    }
}

main().catch((e) => die(e && e.stack ? e.stack : String(e)));
