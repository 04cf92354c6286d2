// SPDX-License-Identifier: Apache-2.0
// Orientation figures for the pairing benchmark: @noble/curves (pure JavaScript, BigInt) timing of
// one pairing and a four-pair product with one final exponentiation, per curve, printed in the
// same `bench:` line format as czk_bench_pairing so bench/pairing_vs_noble.sh can take ratios.
import { bn254 } from '@noble/curves/bn254.js';
import { bls12_381 } from '@noble/curves/bls12-381.js';

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

function time(fn, reps) {
  fn(); // warm up (precomputes, JIT)
  const xs = [];
  for (let i = 0; i < reps; i++) {
    const t = process.hrtime.bigint();
    fn();
    xs.push(Number(process.hrtime.bigint() - t));
  }
  return median(xs);
}

for (const [name, c] of [['bn254', bn254], ['bls12_381', bls12_381]]) {
  const P = c.G1.Point.BASE.multiply(123456789n);
  const Q = c.G2.Point.BASE.multiply(987654321n);
  const pairs = [0, 1, 2, 3].map((i) => ({
    g1: c.G1.Point.BASE.multiply(BigInt(1000 + i)),
    g2: c.G2.Point.BASE.multiply(BigInt(2000 + i)),
  }));
  const ns1 = time(() => c.pairing(P, Q), 7);
  const ns4 = time(() => c.pairingBatch(pairs), 7);
  console.log(`bench: pairing curve=${name} op=pairing impl=noble ns=${ns1}`);
  console.log(`bench: pairing curve=${name} op=check4 impl=noble ns=${ns4}`);
}
