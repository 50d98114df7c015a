/* SPDX-License-Identifier: BSD-2-Clause */
#include <rpcrdma/dissect.h>
#include <rpcrdma/version.h>

/* The version of the library a program runs with (RR_VERSION_STRING is
 * the one it was built against). */
const char *rr_version(void)
{
	return RR_VERSION_STRING;
}
