/* SPDX-License-Identifier: BSD-2-Clause */
#define _DEFAULT_SOURCE /* pcap.h uses u_int and u_char */
#include "version.h"

#include <pcap/pcap.h>
#include <stdio.h>

#include <rpcrdma/dissect.h>
#include <rpcrdma/version.h>

void rr_print_version(const char *prog, const char *const *extra)
{
	printf("%s %s\n", prog, RR_VERSION_STRING);
	printf("librpcrdma-dissect %s\n", rr_version());
	printf("%s\n", pcap_lib_version());
	for (; extra && *extra; extra++)
		printf("%s\n", *extra);
}
