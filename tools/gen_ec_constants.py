#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Generate the elliptic-curve constant tables of src/curves/ (bn254.h, bls12_381.h).

Everything is derived from the curve parameter x (BN254: x = 4965661367192848881,
BLS12-381: x = -0xd201000000010000) and the standard generators, and checked here with
a small independent affine implementation before anything is printed:

  - p, r and the cofactors follow from x; the generators lie on their curves and
    [r]G = O; [r*h]Q = O for random points Q of E(Fp) and of the twist E'(Fp2);
  - psi = untwist o Frobenius o twist: its coefficients are powers of the twist
    non-residue xi (9 + u for BN254, 1 + u for BLS12-381); psi(G2) equals
    [6x^2]G2 (BN254) or [x]G2 (BLS12-381) and maps random twist points onto the twist;
  - beta (BLS12-381 G1, phi(x, y) = (beta*x, y)) is the cube root of unity with
    phi(G1) = -[x^2]G1;
  - h_eff of BLS12-381 G2 equals 3(x^2 - 1)*h2 and the RFC 9380 value.

Field constants are printed in Montgomery form (a*2^(64N) mod p) as N little-endian
64-bit limbs, integers (orders, cofactors) as canonical little-endian limbs.

Usage: tools/gen_ec_constants.py bn254 > src/curves/bn254.h
       tools/gen_ec_constants.py bls12_381 > src/curves/bls12_381.h
"""

import random
import sys


# ---- arithmetic ------------------------------------------------------------------------------

class Fp2:
    """Fp[u]/(u^2 + 1), elements (c0, c1) of integers mod p."""

    def __init__(self, p, c0, c1=0):
        self.p, self.c0, self.c1 = p, c0 % p, c1 % p

    def __add__(s, o): return Fp2(s.p, s.c0 + o.c0, s.c1 + o.c1)
    def __sub__(s, o): return Fp2(s.p, s.c0 - o.c0, s.c1 - o.c1)
    def __neg__(s): return Fp2(s.p, -s.c0, -s.c1)

    def __mul__(s, o):
        if isinstance(o, int):
            return Fp2(s.p, s.c0 * o, s.c1 * o)
        return Fp2(s.p, s.c0 * o.c0 - s.c1 * o.c1, s.c0 * o.c1 + s.c1 * o.c0)

    def __eq__(s, o): return s.c0 == o.c0 and s.c1 == o.c1
    def __hash__(s): return hash((s.c0, s.c1))
    def is_zero(s): return s.c0 == 0 and s.c1 == 0
    def conj(s): return Fp2(s.p, s.c0, -s.c1)

    def inv(s):
        n = pow(s.c0 * s.c0 + s.c1 * s.c1, -1, s.p)
        return Fp2(s.p, s.c0 * n, -s.c1 * n)

    def __pow__(s, e):
        r, b = Fp2(s.p, 1), s
        while e:
            if e & 1:
                r = r * b
            b, e = b * b, e >> 1
        return r

    def sqrt(s):
        """A square root for p = 3 mod 4, or None (c0 + c1 u with c1 != 0 only)."""
        p = s.p
        n = (s.c0 * s.c0 + s.c1 * s.c1) % p
        m = pow(n, (p + 1) // 4, p)
        if m * m % p != n:
            return None
        for t in ((s.c0 + m) * pow(2, -1, p) % p, (s.c0 - m) * pow(2, -1, p) % p):
            a = pow(t, (p + 1) // 4, p)
            if a != 0 and a * a % p == t:
                r = Fp2(p, a, s.c1 * pow(2 * a, -1, p))
                if r * r == s:
                    return r
        return None


class PF:
    """Prime-field element wrapper with the same interface as Fp2 (for the generic curve)."""

    def __init__(self, p, v):
        self.p, self.v = p, v % p

    def __add__(s, o): return PF(s.p, s.v + o.v)
    def __sub__(s, o): return PF(s.p, s.v - o.v)
    def __neg__(s): return PF(s.p, -s.v)

    def __mul__(s, o):
        return PF(s.p, s.v * (o if isinstance(o, int) else o.v))

    def __eq__(s, o): return s.v == o.v
    def __hash__(s): return hash(s.v)
    def is_zero(s): return s.v == 0
    def inv(s): return PF(s.p, pow(s.v, -1, s.p))

    def sqrt(s):
        a = pow(s.v, (s.p + 1) // 4, s.p)
        return PF(s.p, a) if a * a % s.p == s.v else None


class Curve:
    """y^2 = x^3 + b in affine coordinates; None is the point at infinity."""

    def __init__(self, b):
        self.b = b

    def on_curve(self, P):
        if P is None:
            return True
        x, y = P
        return y * y == x * x * x + self.b

    def add(self, P, Q):
        if P is None:
            return Q
        if Q is None:
            return P
        (x1, y1), (x2, y2) = P, Q
        if x1 == x2:
            if (y1 + y2).is_zero():
                return None
            lam = x1 * x1 * 3 * (y1 * 2).inv()
        else:
            lam = (y2 - y1) * (x2 - x1).inv()
        x3 = lam * lam - x1 - x2
        return (x3, lam * (x1 - x3) - y1)

    def neg(self, P):
        return None if P is None else (P[0], -P[1])

    def mul(self, P, k):
        if k < 0:
            return self.mul(self.neg(P), -k)
        R = None
        for bit in bin(k)[2:]:
            R = self.add(R, R)
            if bit == '1':
                R = self.add(R, P)
        return R

    def random_point(self, rnd, mkfield):
        while True:
            x = mkfield(rnd)
            y = (x * x * x + self.b).sqrt()
            if y is not None:
                return (x, y)


# ---- output ----------------------------------------------------------------------------------

def limbs(v, n):
    assert 0 <= v < 1 << (64 * n)
    return [(v >> (64 * i)) & (2**64 - 1) for i in range(n)]


def pack(prefix, words, suffix, cont):
    """Lines 'prefix w0, w1, ...suffix', wrapped at 100 columns with continuation indent cont."""
    lines, cur = [], prefix
    for i, w in enumerate(words):
        tail = suffix if i == len(words) - 1 else ','
        if len(cur) + len(w) + len(tail) + 1 > 100 and cur.strip() not in ('', prefix.strip()):
            lines.append(cur.rstrip())
            cur = ' ' * cont
        elif cur != prefix and not cur.endswith(' '):
            cur += ' '
        cur += w + tail
    lines.append(cur)
    return lines


def hexl(v, n):
    return ['0x%016xull' % w for w in limbs(v, n)]


class Emitter:
    def __init__(self, p, n):
        self.p, self.n, self.R = p, n, 1 << (64 * n)
        self.out = []

    def mont(self, v):
        return hexl(v * self.R % self.p, self.n)

    def fp(self, name, v, doc):
        self.out.append('/* %s */' % doc)
        self.out.append('static const struct czk_%s %s = {' % (self.fpname, name))
        self.out += pack('    {', self.mont(v), '},', 5)
        self.out += ['};', '']

    def fp2(self, name, v, doc):
        self.out.append('/* %s */' % doc)
        self.out.append('static const struct czk_%s %s = {' % (self.fp2name, name))
        self.out += pack('    {{', self.mont(v.c0), '}},', 6)
        self.out += pack('    {{', self.mont(v.c1), '}},', 6)
        self.out += ['};', '']

    def g1(self, name, P, doc):
        self.out.append('/* %s */' % doc)
        self.out.append('static const struct czk_%s %s = {' % (self.g1name, name))
        for c in P:
            self.out += pack('    {{', self.mont(c.v), '}},', 6)
        self.out += ['};', '']

    def g2(self, name, P, doc):
        self.out.append('/* %s */' % doc)
        self.out.append('static const struct czk_%s %s = {' % (self.g2name, name))
        for c in P:
            self.out += pack('    {{{', self.mont(c.c0), '}},', 7)
            self.out += pack('     {{', self.mont(c.c1), '}}},', 7)
        self.out += ['};', '']

    def integer(self, name, v, doc):
        n = max(1, (v.bit_length() + 63) // 64)
        self.out.append('/* %s (%d bits) */' % (doc, v.bit_length()))
        self.out.append('static const uint64_t %s[%d] = {' % (name, n))
        self.out += pack('    ', hexl(v, n), '', 4)
        self.out += ['};', '']


def header(curve, guard, what):
    return ['/* SPDX-License-Identifier: Apache-2.0 */',
            '/*',
            ' * %s curve constants for src/ec/:' % curve,
            ' * %s.' % what,
            ' * Field elements are in Montgomery form (little-endian 64-bit limbs), integers',
            ' * are canonical little-endian limbs.',
            ' *',
            ' * GENERATED by tools/gen_ec_constants.py (which derives every value from the',
            ' * curve parameter x and checks it with an independent affine implementation);',
            ' * do not edit by hand. Each value is also re-checked by tests/unit/test_ec.c.',
            ' */',
            '#ifndef %s' % guard,
            '#define %s' % guard,
            '',
            '#include "czk/czk_ec.h"',
            '']


# ---- BN254 -----------------------------------------------------------------------------------

def gen_bn254(rnd):
    x = 4965661367192848881
    p = 36 * x**4 + 36 * x**3 + 24 * x**2 + 6 * x + 1
    r = 36 * x**4 + 36 * x**3 + 18 * x**2 + 6 * x + 1
    assert p == 21888242871839275222246405745257275088696311157297823662689037894645226208583
    assert r == 21888242871839275222246405745257275088548364400416034343698204186575808495617
    assert p % 4 == 3 and p % 3 == 1

    F = lambda v: PF(p, v)
    F2 = lambda a, b=0: Fp2(p, a, b)
    E1 = Curve(F(3))
    xi = F2(9, 1)
    E2 = Curve(F2(3) * xi.inv())  # D-type twist: b' = b / xi

    G1 = (F(1), F(2))
    assert E1.on_curve(G1) and E1.mul(G1, r) is None
    for _ in range(3):
        Q = E1.random_point(rnd, lambda rr: F(rr.randrange(p)))
        assert E1.mul(Q, r) is None  # cofactor 1: #E(Fp) = p + 1 - (6x^2 + 1) = r

    # EIP-197 / snarkjs generator of G2.
    G2 = (F2(10857046999023057135944570762232829481370756359578518086990519993285655852781,
             11559732032986387107991004021392285783925812861821192530917403151452391805634),
          F2(8495653923123431417604973247489272438418190587263600148770280649306958101930,
             4082367875863433681332203403145435568316851327593401208105741076214120093531))
    assert E2.on_curve(G2) and E2.mul(G2, r) is None

    h2 = 2 * p - r  # #E'(Fp2) = r * (2p - r) for the BN sextic twist
    rnd2 = lambda rr: F2(rr.randrange(p), rr.randrange(1, p))
    for _ in range(3):
        Q = E2.random_point(rnd, rnd2)
        assert E2.mul(Q, r * h2) is None
        assert E2.mul(Q, h2) is not None and E2.mul(E2.mul(Q, h2), r) is None

    # psi(x, y) = (conj(x) * xi^((p-1)/3), conj(y) * xi^((p-1)/2)): with the untwisting
    # (x, y) -> (x w^2, y w^3), w^6 = xi, the Frobenius gives x^p w^(2p) = conj(x) w^(2(p-1)) w^2.
    psi_x = xi ** ((p - 1) // 3)
    psi_y = xi ** ((p - 1) // 2)

    def psi(P):
        return (P[0].conj() * psi_x, P[1].conj() * psi_y)

    six_x2 = 6 * x * x
    assert (p - six_x2) % r == 0  # psi acts on G2 as [p] = [6x^2] mod r
    assert psi(G2) == E2.mul(G2, six_x2)
    for _ in range(3):
        Q = E2.random_point(rnd, rnd2)
        assert E2.on_curve(psi(Q))

    e = Emitter(p, 4)
    e.fpname, e.fp2name, e.g1name, e.g2name = 'fp_bn254', 'fp2_bn254', 'g1_bn254_affine', \
        'g2_bn254_affine'
    out = header('BN254', 'CZK_CURVES_BN254_H',
                 'b, b\', generators, the group order, cofactors and the psi endomorphism')
    e.fp('bn254_g1_b', 3, 'b = 3 of E: y^2 = x^3 + b')
    e.fp2('bn254_g2_b', E2.b, "b' = 3 / (9 + u) of the D-type twist E': y^2 = x^3 + b'")
    e.g1('bn254_g1_gen', G1, 'G1 generator (1, 2)')
    e.g2('bn254_g2_gen', G2, 'G2 generator of EIP-197 / snarkjs')
    e.integer('bn254_r', r, 'group order r')
    e.integer('bn254_g1_h', 1, 'G1 cofactor')
    e.integer('bn254_g2_h', h2, 'G2 cofactor h2 = 2p - r')
    e.integer('bn254_six_x2', six_x2, '6x^2, the eigenvalue of psi on G2 (p = 6x^2 mod r)')
    e.fp2('bn254_psi_x', psi_x, 'psi: x coefficient xi^((p-1)/3), xi = 9 + u')
    e.fp2('bn254_psi_y', psi_y, 'psi: y coefficient xi^((p-1)/2)')
    return out + e.out + ['#endif /* CZK_CURVES_BN254_H */']


# ---- BLS12-381 -------------------------------------------------------------------------------

def gen_bls12_381(rnd):
    x = -0xd201000000010000
    r = x**4 - x**2 + 1
    p = (x - 1) ** 2 * r // 3 + x
    assert p == int('1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f624'
                    '1eabfffeb153ffffb9feffffffffaaab', 16)
    assert r == 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001
    assert p % 4 == 3 and p % 3 == 1

    F = lambda v: PF(p, v)
    F2 = lambda a, b=0: Fp2(p, a, b)
    E1 = Curve(F(4))
    xi = F2(1, 1)
    E2 = Curve(F2(4) * xi)  # M-type twist: b' = b * xi

    def H(*parts):
        return int(''.join(parts), 16)

    G1 = (F(H('17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905',
              'a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb')),
          F(H('08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af6',
              '00db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1')))
    G2 = (F2(H('024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02',
               'b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8'),
             H('13e02b6052719f607dacd3a088274f65596bd0d09920b61a',
               'b5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e')),
          F2(H('0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a7',
               '6d429a695160d12c923ac9cc3baca289e193548608b82801'),
             H('0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af',
               '267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be')))
    assert E1.on_curve(G1) and E1.mul(G1, r) is None
    assert E2.on_curve(G2) and E2.mul(G2, r) is None

    h1 = (x - 1) ** 2 // 3
    assert h1 * r == p + 1 - (x + 1)  # #E(Fp) = p + 1 - t, t = x + 1
    h2 = (x**8 - 4 * x**7 + 5 * x**6 - 4 * x**4 + 6 * x**3 - 4 * x**2 - 4 * x + 13) // 9
    rnd1 = lambda rr: F(rr.randrange(p))
    rnd2 = lambda rr: F2(rr.randrange(p), rr.randrange(1, p))
    for _ in range(3):
        Q = E1.random_point(rnd, rnd1)
        assert E1.mul(Q, r * h1) is None
        Q = E2.random_point(rnd, rnd2)
        assert E2.mul(Q, r * h2) is None

    # phi(x, y) = (beta x, y), beta^3 = 1: pick the root for which phi = [-x^2] on G1.
    g = 2
    while True:
        beta = pow(g, (p - 1) // 3, p)
        if beta != 1:
            break
        g += 1
    lam = E1.mul(G1, -x * x)
    betas = [b for b in (beta, beta * beta % p) if (F(b * G1[0].v), G1[1]) == lam]
    assert len(betas) == 1
    beta = betas[0]
    assert (beta**3 - 1) % p == 0 and beta != 1

    # psi for the M-type twist: untwisting is (x, y) -> (x / w^2, y / w^3), so
    # psi(x, y) = (conj(x) / xi^((p-1)/3), conj(y) / xi^((p-1)/2)).
    psi_x = (xi ** ((p - 1) // 3)).inv()
    psi_y = (xi ** ((p - 1) // 2)).inv()

    def psi(P):
        return None if P is None else (P[0].conj() * psi_x, P[1].conj() * psi_y)

    assert psi(G2) == E2.mul(G2, x)
    for _ in range(3):
        Q = E2.random_point(rnd, rnd2)
        assert E2.on_curve(psi(Q))

    # Budroni-Pintore cofactor clearing = multiplication by h_eff = 3(x^2 - 1) h2.
    h_eff = 3 * (x * x - 1) * h2
    assert h_eff == int('bc69f08f2ee75b3584c6a0ea91b352888e2a8e9145ad7689986ff031508ffe13'
                        '29c2f178731db956d82bf015d1212b02ec0ec69d7477c1ae954cbc06689f6a35'
                        '9894c0adebbf6b4e8020005aaa95551', 16)
    Q = E2.random_point(rnd, rnd2)
    t1 = E2.mul(Q, x)
    t3 = E2.add(E2.add(psi(psi(E2.mul(Q, 2))), E2.neg(psi(Q))), E2.mul(E2.add(t1, psi(Q)), x))
    bp = E2.add(E2.add(t3, E2.neg(t1)), E2.neg(Q))
    assert bp == E2.mul(Q, h_eff) and E2.mul(bp, r) is None

    e = Emitter(p, 6)
    e.fpname, e.fp2name, e.g1name, e.g2name = 'fp_bls12_381', 'fp2_bls12_381', \
        'g1_bls12_381_affine', 'g2_bls12_381_affine'
    out = header('BLS12-381', 'CZK_CURVES_BLS12_381_H',
                 "b, b', generators, the group order, cofactors and the phi/psi endomorphisms")
    e.fp('bls12_381_g1_b', 4, 'b = 4 of E: y^2 = x^3 + b')
    e.fp2('bls12_381_g2_b', E2.b, "b' = 4 (1 + u) of the M-type twist E': y^2 = x^3 + b'")
    e.g1('bls12_381_g1_gen', G1, 'G1 generator (zcash / IETF)')
    e.g2('bls12_381_g2_gen', G2, 'G2 generator (zcash / IETF)')
    e.integer('bls12_381_r', r, 'group order r')
    e.integer('bls12_381_g1_h', h1, 'G1 cofactor h1 = (x - 1)^2 / 3')
    e.integer('bls12_381_g2_h', h2, 'G2 cofactor h2')
    e.integer('bls12_381_g2_h_eff', h_eff, 'G2 h_eff = 3(x^2 - 1) h2 of RFC 9380 (Budroni-Pintore)')
    out += e.out
    e.out = []
    out += ['/* |x| = -x, the BLS parameter x = -0xd201000000010000 is negative */',
            '#define BLS12_381_X_ABS 0x%016xull' % -x, '']
    e.fp('bls12_381_beta', beta,
         'beta, cube root of unity with phi(x, y) = (beta x, y) = [-x^2] on G1')
    e.fp2('bls12_381_psi_x', psi_x, 'psi: x coefficient 1 / xi^((p-1)/3), xi = 1 + u')
    e.fp2('bls12_381_psi_y', psi_y, 'psi: y coefficient 1 / xi^((p-1)/2)')
    return out + e.out + ['#endif /* CZK_CURVES_BLS12_381_H */']


def main():
    if len(sys.argv) != 2 or sys.argv[1] not in ('bn254', 'bls12_381'):
        sys.stderr.write('usage: gen_ec_constants.py bn254|bls12_381\n')
        return 2
    rnd = random.Random(20240601)
    lines = gen_bn254(rnd) if sys.argv[1] == 'bn254' else gen_bls12_381(rnd)
    sys.stdout.write('\n'.join(lines) + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
