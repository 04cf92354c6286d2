/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal: synthetic R1CS circuits with a satisfying witness, for `czk gen-circuit`,
 * benchmarks and tests. Two shapes:
 *
 *  mul    a multiplication chain as circom compiles one: wire 1 is the public output
 *         `out`, wire 2 the public input x, wire 3 the private input y, wires 4.. the
 *         intermediates x_1 .. x_(n-1); constraint i is x_i · x_i = x_(i+1) or
 *         x_i · y = x_(i+1) (chosen by the seed), x_0 = x, x_n = out. 2 public signals.
 *  porep  the statistics of a Filecoin PoRep partition: 328 public inputs (wires
 *         1..328), one private wire per constraint (wires 329..), per row on average
 *         2.37 terms in A, exactly 1 in B and 2.17 in C; 99.7% of the private wires
 *         occur in A and 25.4% in B; a share `bool_frac` of the private witness values
 *         is 0 or 1 (half each), the rest uniform nonzero. The witness is drawn first;
 *         each row's C holds a fresh output wire (private wire i for row i) plus one
 *         or two other wires, and one C coefficient is solved for so that
 *         (A·w)·(B·w) = C·w holds with every coefficient nonzero.
 *
 * Generation is deterministic for (curve, shape, size, bool_frac, seed) whatever the
 * thread count: every row and every witness value comes from its own PRNG stream keyed
 * by the seed and its index. Rows are generated in parallel (czk_parallel_for).
 * Ownership: the result owns its arrays (malloc); release with czk_gen_circuit_free.
 * Threading: no global state.
 */
#ifndef CZK_GROTH16_GENCIRCUIT_H
#define CZK_GROTH16_GENCIRCUIT_H

#include <stdint.h>

#include "io/formats.h"

enum czk_gen_shape { CZK_GEN_SHAPE_MUL = 0, CZK_GEN_SHAPE_POREP = 1 };

#define CZK_GEN_MUL_PUBLIC 2u
#define CZK_GEN_POREP_PUBLIC 328u
#define CZK_GEN_POREP_BOOL_FRAC_DEFAULT 0.9

struct czk_gen_params {
    enum czk_groth16_curve curve;
    enum czk_gen_shape shape;
    uint32_t n_constraints; /* >= 1 */
    double bool_frac;       /* porep only: in [0, 1] */
    uint64_t seed;
    unsigned threads; /* 0 = all cores */
    /* mul only: 0 = the witness of the seed; k > 0 = another satisfying witness of the
     * same circuit (the same .r1cs, other inputs x, y drawn from stream k), so that one
     * key can prove several partitions with distinct witnesses. */
    uint32_t witness_index;
};

struct czk_gen_circuit {
    struct czk_r1cs r1cs;   /* Montgomery coefficients, wire_to_label = identity */
    uint64_t (*witness)[4]; /* r1cs.n_wires canonical values, witness[0] = 1 */
};

/* Number of public signals of a shape (outputs + public inputs). */
uint32_t czk_gen_n_public(enum czk_gen_shape shape);

/* Largest domain exponent czk handles for a curve: min(two-adicity of Fr, 31), the
 * zkey's domain size being a u32 (BN254: 28, BLS12-381: 31). */
unsigned czk_gen_max_lg_domain(enum czk_groth16_curve curve);

/*
 * Builds the circuit and its witness into *out (written only on success).
 * CZK_ERR_INVALID_ARG (with a message) for a bad curve/shape, n_constraints == 0,
 * n_constraints + n_public + 1 above 2^czk_gen_max_lg_domain, bool_frac outside [0, 1];
 * CZK_ERR_NOMEM.
 */
enum czk_status czk_gen_circuit(struct czk_gen_circuit *out, const struct czk_gen_params *p,
                                char *err, size_t errlen);

void czk_gen_circuit_free(struct czk_gen_circuit *c);

#endif
