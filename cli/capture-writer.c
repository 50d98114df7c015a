/* SPDX-License-Identifier: BSD-2-Clause */
/* -w's file (capture-writer.h). */
#define _GNU_SOURCE /* __fpurge */
#include "capture-writer.h"

#include <errno.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The stdio buffer is ours and larger than the frames let gather in it
 * (64 KiB, then the largest frame), so that stdio never writes by itself
 * in the middle of a frame: every write the system sees starts at a
 * frame's boundary, the last one known whole, and a failure loses less
 * than 64 KiB of frames. */
enum { WRITER_FLUSH_AT = 64 << 10, WRITER_BUFFER = 512 << 10 };
/* libpcap's record header (struct pcap_sf_pkthdr) */
enum { PCAP_RECORD_HEADER = 16 };

struct rr_capture_writer {
	pcap_dumper_t *dumper;
	FILE *file;
	char *buffer;
	const char *path;
	bool each_frame, nano, regular;
	uint64_t pending;          /* bytes handed to stdio since the last flush */
	uint64_t committed;        /* the file's length at the last whole frame */
	uint64_t frames, frames_committed;
	bool failed;
	int failed_errno;
	uint64_t failed_frame;
};

static void fail(struct rr_capture_writer *w, int err)
{
	w->failed = true;
	w->failed_errno = err ? err : EIO;
	w->failed_frame = w->frames;
	/* what stdio holds would be written again at the close */
	__fpurge(w->file);
	/* a frame cut in the middle would make the file unreadable at its end */
	if (w->regular && ftruncate(fileno(w->file), (off_t)w->committed) == 0)
		w->frames = w->frames_committed;
}

static bool flush(struct rr_capture_writer *w)
{
	if (fflush(w->file) == EOF || ferror(w->file)) {
		fail(w, errno);
		return false;
	}
	w->committed += w->pending;
	w->pending = 0;
	w->frames_committed = w->frames;
	return true;
}

struct rr_capture_writer *rr_capture_writer_open(pcap_t *p, const char *path,
						 bool each_frame, char *err,
						 size_t errlen)
{
	struct rr_capture_writer *w = calloc(1, sizeof(*w));
	if (!w) {
		snprintf(err, errlen, "%s: not enough memory", path);
		return NULL;
	}
	w->path = path;
	w->each_frame = each_frame;
	w->nano = pcap_get_tstamp_precision(p) == PCAP_TSTAMP_PRECISION_NANO;
	/* standard output is a copy of its descriptor, so that closing the
	 * file leaves the text output open */
	int fd = strcmp(path, "-") == 0 ? dup(STDOUT_FILENO) : -1;
	w->file = fd >= 0 ? fdopen(fd, "wb") : strcmp(path, "-") ? fopen(path, "wb") : NULL;
	w->buffer = malloc(WRITER_BUFFER);
	if (!w->file || !w->buffer ||
	    setvbuf(w->file, w->buffer, _IOFBF, WRITER_BUFFER) != 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno ? errno : ENOMEM));
		if (w->file)
			fclose(w->file);
		else if (fd >= 0)
			close(fd);
		free(w->buffer);
		free(w);
		return NULL;
	}
	struct stat st;
	w->regular = fstat(fileno(w->file), &st) == 0 && S_ISREG(st.st_mode);
	w->dumper = pcap_dump_fopen(p, w->file);
	if (!w->dumper) {
		snprintf(err, errlen, "%s: %s", path, pcap_geterr(p));
		fclose(w->file);
		free(w->buffer);
		free(w);
		return NULL;
	}
	/* the file header at once: a file that fails later still opens */
	w->pending = (uint64_t)pcap_dump_ftell64(w->dumper);
	flush(w);
	return w;
}

bool rr_capture_writer_put(struct rr_capture_writer *w, uint64_t frame,
			   uint64_t ts_ns, const uint8_t *data, uint32_t caplen,
			   uint32_t wirelen)
{
	if (w->failed)
		return false;
	uint64_t record = PCAP_RECORD_HEADER + (uint64_t)caplen;
	if (w->pending && w->pending + record > WRITER_BUFFER && !flush(w))
		return false;
	struct pcap_pkthdr h = { .caplen = caplen, .len = wirelen };
	h.ts.tv_sec = (time_t)(ts_ns / 1000000000u);
	/* the stamp at the precision the file was opened with */
	h.ts.tv_usec = (suseconds_t)(ts_ns % 1000000000u / (w->nano ? 1u : 1000u));
	pcap_dump((u_char *)w->dumper, &h, data);
	w->frames = frame;
	w->pending += record;
	if (ferror(w->file)) {
		fail(w, errno);
		return false;
	}
	if (w->each_frame || w->pending >= WRITER_FLUSH_AT)
		return flush(w);
	return true;
}

bool rr_capture_writer_close(struct rr_capture_writer *w, char *err,
			     size_t errlen)
{
	if (!w->failed)
		flush(w);
	/* the file's own descriptor: a full disk can still refuse here */
	if (fclose(pcap_dump_file(w->dumper)) != 0 && !w->failed) {
		w->failed = true;
		w->failed_errno = errno;
		w->failed_frame = w->frames;
	}
	/* libpcap's dumper is the FILE itself: closed above */
	bool ok = !w->failed;
	if (!ok)
		snprintf(err, errlen, "%s: write failed at frame %llu: %s; the file "
			 "keeps %s%llu frames", w->path,
			 (unsigned long long)w->failed_frame, strerror(w->failed_errno),
			 w->regular ? "its first " : "at most ",
			 (unsigned long long)w->frames_committed);
	free(w->buffer);
	free(w);
	return ok;
}
