/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Subcommands of the `czk` program. Each takes the arguments after its name
 * (argv[0] is the subcommand name) and returns the process exit status.
 */
#ifndef CZK_CLI_CLI_H
#define CZK_CLI_CLI_H

int czk_cli_demo(int argc, char **argv);
int czk_cli_verify(int argc, char **argv);

#endif
