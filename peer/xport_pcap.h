/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef RR_XPORT_PCAP_H
#define RR_XPORT_PCAP_H

#include <stddef.h>

#include "peer.h"

struct pcap_wire;

/* Connects two transports through a capture file (CM exchange included). */
struct pcap_wire *pcap_wire_open(const char *path, uint32_t mtu,
				 const uint8_t *client_pd, uint32_t client_len,
				 const uint8_t *server_pd, uint32_t server_len,
				 struct xport **client, struct xport **server,
				 char *err, size_t errlen);
bool pcap_wire_busy(const struct pcap_wire *w);
/* Nothing on the wire: the SENDs an RNR NAK held back go now, after the
 * wait it asked for on the capture's clock; false when none waited. */
bool pcap_wire_wait(struct pcap_wire *w);
uint64_t pcap_wire_frames(const struct pcap_wire *w);
/* Disconnects (DREQ, DREP) and closes the file. */
void pcap_wire_close(struct pcap_wire *w);

#endif
