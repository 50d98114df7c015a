/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The verbs transport's device check (rdma-core).  Built with libibverbs
 * when its headers are present; without them it says what is missing.
 */
#define _DEFAULT_SOURCE
#include <stdio.h>

#include "xport_net.h"

#ifdef RR_HAVE_VERBS
#include <infiniband/verbs.h>

int verbs_probe(char *err, size_t errlen)
{
	int n = 0;
	struct ibv_device **list = ibv_get_device_list(&n);
	if (!list || n == 0) {
		snprintf(err, errlen, "no RDMA device found "
			 "(ibv_get_device_list: none); the verbs transport "
			 "needs Soft-RoCE (rdma link add ... type rxe), "
			 "soft-iWARP or an RDMA NIC");
		if (list)
			ibv_free_device_list(list);
		return -1;
	}
	snprintf(err, errlen, "RDMA devices found (first: %s), but the verbs "
		 "data path is not part of this build yet",
		 ibv_get_device_name(list[0]));
	ibv_free_device_list(list);
	return -1;
}
#else
int verbs_probe(char *err, size_t errlen)
{
	snprintf(err, errlen, "built without rdma-core (install "
		 "libibverbs-dev and librdmacm-dev and rebuild) and this "
		 "machine has no RDMA device");
	return -1;
}
#endif
