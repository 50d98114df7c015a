/* SPDX-License-Identifier: BSD-2-Clause */
/* Capabilities given back once a source is open (capabilities.h). */
#include "capabilities.h"

#include <stdio.h>

#include <cap-ng.h>
#include <linux/capability.h>

bool rr_capabilities_drop(bool keep_ebpf, char *err, size_t errlen)
{
	/* a process without any has nothing to give back */
	if (capng_get_caps_process() == 0 && capng_have_capabilities(CAPNG_SELECT_CAPS) ==
						   CAPNG_NONE)
		return true;
	capng_clear(CAPNG_SELECT_ALL);
	const capng_type_t sets = CAPNG_EFFECTIVE | CAPNG_PERMITTED | CAPNG_BOUNDING_SET;
	if (keep_ebpf && (capng_update(CAPNG_ADD, sets, CAP_NET_ADMIN) != 0 ||
			  capng_update(CAPNG_ADD, sets, CAP_BPF) != 0)) {
		snprintf(err, errlen, "libcap-ng could not keep CAP_BPF and CAP_NET_ADMIN");
		return false;
	}
	int rc = capng_apply(CAPNG_SELECT_ALL);
	if (rc != 0) {
		snprintf(err, errlen, "libcap-ng could not apply the capabilities "
			 "left (%d)", rc);
		return false;
	}
	return true;
}
