/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * -V / --version of every tool: its version, the library's, and the
 * versions of the libraries it runs with, one a line.
 */
#ifndef RR_CLI_VERSION_H
#define RR_CLI_VERSION_H

/* prog's version, librpcrdma-dissect's and libpcap's, then the lines of
 * `extra` (NULL-terminated; NULL for none), on stdout. */
void rr_print_version(const char *prog, const char *const *extra);

#endif
