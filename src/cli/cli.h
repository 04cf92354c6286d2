/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Subcommands of the `czk` program. Each takes the arguments after its name
 * (argv[0] is the subcommand name) and returns the process exit status.
 */
#ifndef CZK_CLI_CLI_H
#define CZK_CLI_CLI_H

#include <stdbool.h>
#include <stddef.h>

int czk_cli_demo(int argc, char **argv);
int czk_cli_verify(int argc, char **argv);
int czk_cli_prove(int argc, char **argv);
int czk_cli_zkey(int argc, char **argv);
int czk_cli_gen_circuit(int argc, char **argv);
int czk_cli_setup(int argc, char **argv);
int czk_cli_bench(int argc, char **argv);
int czk_cli_batch(int argc, char **argv);

/* `czk bench` subcommands (src/cli/bench_*.c), argv[0] = the benchmark's name. */
int czk_bench_prove(int argc, char **argv);
int czk_bench_engine(int argc, char **argv);
int czk_bench_ntt(int argc, char **argv);
int czk_bench_eval(int argc, char **argv);
int czk_bench_msm(int argc, char **argv);
int czk_bench_field(int argc, char **argv);

/* Shared by subcommands: write `len` bytes to `path` through a temporary file in the same
 * directory and rename(2); on failure prints "<prog>: ..." to stderr and returns -1. */
int czk_cli_write_atomic(const char *prog, const char *path, const void *data, size_t len);

/* mkdir -p: creates path and its missing parents (mode 0777 & ~umask); true when path is
 * then a directory. */
bool czk_cli_make_dirs(const char *path);

/* Shared by the benchmarks (cli_util.c): CLOCK_MONOTONIC in ms; the median of v[0..n)
 * (n >= 1; sorts v); "bn254" or "bls12_381". */
double czk_cli_now_ms(void);
double czk_cli_median(double *v, unsigned n);
const char *czk_cli_curve_id(int curve);

#endif
