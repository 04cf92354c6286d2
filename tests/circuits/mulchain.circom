// SPDX-License-Identifier: Apache-2.0
// czk test circuit: a multiplication chain. Public inputs a and b, private w;
// t[0] = a*b, t[i] = t[i-1]*w + a, out = t[n-1]. Public signals: [out, a, b].
pragma circom 2.0.0;

template MulChain(n) {
    signal input a;
    signal input b;
    signal input w;
    signal output out;
    signal t[n];

    t[0] <== a * b;
    for (var i = 1; i < n; i++) {
        t[i] <== t[i - 1] * w + a;
    }
    out <== t[n - 1];
}

component main {public [a, b]} = MulChain(8);
