// SPDX-License-Identifier: Apache-2.0
// czk test circuit with a single public signal: private x; out = x^3 + x + 5.
// Public signals: [out].
pragma circom 2.0.0;

template Cubic() {
    signal input x;
    signal output out;
    signal x2;
    signal x3;

    x2 <== x * x;
    x3 <== x2 * x;
    out <== x3 + x + 5;
}

component main = Cubic();
