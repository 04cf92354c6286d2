// SPDX-License-Identifier: Apache-2.0
// czk test circuit with five public signals: public inputs x[0..3], private k;
// out = (x[0] + k) * (x[1] + k) * (x[2] + k) * (x[3] + k) * k.
// Public signals: [out, x[0], x[1], x[2], x[3]].
pragma circom 2.0.0;

template Poly5() {
    signal input x[4];
    signal input k;
    signal output out;
    signal p[4];

    p[0] <== (x[0] + k) * (x[1] + k);
    p[1] <== p[0] * (x[2] + k);
    p[2] <== p[1] * (x[3] + k);
    p[3] <== p[2] * k;
    out <== p[3];
}

component main {public [x]} = Poly5();
