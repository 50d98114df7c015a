/* SPDX-License-Identifier: BSD-2-Clause */
/* -w's files (capture-writer.h). */
#define _GNU_SOURCE /* __fpurge */
#include "capture-writer.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
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
	pcap_t *pcap;
	const char *path;          /* as -w names it: a strftime format with -G */
	struct rr_capture_rotation rot;
	bool each_frame, nano;
	char name[PATH_MAX + 32];  /* the file being written: base and number */
	pcap_dumper_t *dumper;     /* NULL until the first (-G) and between files */
	FILE *file;
	char *buffer;
	bool regular;
	unsigned index;            /* -C: the file's number */
	unsigned periods;          /* -G: files begun */
	unsigned index_digits;     /* -W: the numbers' width, as tcpdump's */
	uint64_t started_ns;       /* -G: the file's first frame's time */
	uint64_t pending;          /* bytes handed to stdio since the last flush */
	uint64_t committed;        /* the file's length at the last whole frame */
	uint64_t frames, frames_committed;  /* of this file */
	uint64_t frame;            /* the last frame handed over */
	bool failed;
	int failed_errno;
	uint64_t failed_frame;
};

static void fail(struct rr_capture_writer *w, int err)
{
	w->failed = true;
	w->failed_errno = err ? err : EIO;
	w->failed_frame = w->frame;
	if (!w->file)
		return;
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

/* The current file written out and closed (libpcap's dumper is the FILE
 * itself: pcap_dump_close would close it without a word of a failure). */
static bool file_close(struct rr_capture_writer *w)
{
	if (!w->dumper)
		return !w->failed;
	if (!w->failed)
		flush(w);
	if (fclose(pcap_dump_file(w->dumper)) != 0 && !w->failed)
		fail(w, errno);
	w->dumper = NULL;
	w->file = NULL;
	return !w->failed;
}

/* tcpdump's names: the -G format at the file's time, then with -C or -W
 * its number, zero-padded to -W's width (the first -C file has none) */
static void file_name(struct rr_capture_writer *w)
{
	char base[PATH_MAX];
	const char *b = w->path;
	if (w->rot.seconds) {
		time_t t = (time_t)(w->started_ns / 1000000000u);
		struct tm tm;
		if (localtime_r(&t, &tm) && strftime(base, sizeof(base), w->path, &tm))
			b = base;
	}
	bool numbered = w->rot.file_bytes && (w->index || w->index_digits);
	/* -W's width is at most 6 digits (a million files) */
	if (numbered)
		snprintf(w->name, sizeof(w->name), "%.4095s%0*u", b,
			 (int)(w->index_digits & 7), w->index);
	else
		snprintf(w->name, sizeof(w->name), "%.4095s", b);
}

static bool file_open(struct rr_capture_writer *w, char *err, size_t errlen)
{
	file_name(w);
	w->pending = w->committed = w->frames = w->frames_committed = 0;
	/* standard output is a copy of its descriptor, so that closing the
	 * file leaves the text output open */
	int fd = strcmp(w->name, "-") == 0 ? dup(STDOUT_FILENO) : -1;
	w->file = fd >= 0 ? fdopen(fd, "wb") : strcmp(w->name, "-") ? fopen(w->name, "wb") : NULL;
	if (!w->file || setvbuf(w->file, w->buffer, _IOFBF, WRITER_BUFFER) != 0) {
		snprintf(err, errlen, "%s: %s", w->name, strerror(errno ? errno : EIO));
		if (w->file)
			fclose(w->file);
		else if (fd >= 0)
			close(fd);
		w->file = NULL;
		return false;
	}
	struct stat st;
	w->regular = fstat(fileno(w->file), &st) == 0 && S_ISREG(st.st_mode);
	w->dumper = pcap_dump_fopen(w->pcap, w->file);
	if (!w->dumper) {
		snprintf(err, errlen, "%s: %s", w->name, pcap_geterr(w->pcap));
		fclose(w->file);
		w->file = NULL;
		return false;
	}
	/* the file header at once: a file that fails later still opens */
	w->pending = (uint64_t)pcap_dump_ftell64(w->dumper);
	flush(w);
	return true;
}

struct rr_capture_writer *rr_capture_writer_open(pcap_t *p, const char *path,
						 const struct rr_capture_rotation *rot,
						 bool each_frame, char *err, size_t errlen)
{
	struct rr_capture_writer *w = calloc(1, sizeof(*w));
	char *buffer = malloc(WRITER_BUFFER);
	if (!w || !buffer) {
		snprintf(err, errlen, "%s: not enough memory", path);
		free(w);
		free(buffer);
		return NULL;
	}
	w->pcap = p;
	w->path = path;
	w->rot = *rot;
	w->each_frame = each_frame;
	w->buffer = buffer;
	w->nano = pcap_get_tstamp_precision(p) == PCAP_TSTAMP_PRECISION_NANO;
	/* -W's width: the digits of its last number */
	for (unsigned last = rot->files ? rot->files - 1 : 0; last; last /= 10)
		w->index_digits++;
	if (rot->files && rot->file_bytes && !w->index_digits)
		w->index_digits = 1;
	/* -G: the first frame's time names the first file */
	if (!rot->seconds && !file_open(w, err, errlen)) {
		free(w->buffer);
		free(w);
		return NULL;
	}
	return w;
}

/* Before frame ts_ns: the next file where -G's time or -C's size says so */
static enum rr_capture_put rotate(struct rr_capture_writer *w, uint64_t ts_ns)
{
	bool by_time = w->rot.seconds &&
		       (!w->dumper || ts_ns >= w->started_ns + w->rot.seconds * 1000000000u);
	bool by_size = !by_time && w->rot.file_bytes &&
		       w->committed + w->pending > w->rot.file_bytes;
	if (!by_time && !by_size)
		return RR_CAPTURE_WRITTEN;
	bool first = !w->dumper && !w->periods;
	if (!file_close(w))
		return RR_CAPTURE_FAILED;
	if (by_time) {
		if (!first && w->rot.files && w->periods >= w->rot.files)
			return RR_CAPTURE_ALL_FILES;
		w->periods++;
		w->started_ns = ts_ns;
		w->index = 0;
	} else if (++w->index == w->rot.files && w->rot.files) {
		w->index = 0; /* -C with -W: round again */
	}
	char err[PATH_MAX + 128];
	if (!file_open(w, err, sizeof(err))) {
		fail(w, errno);
		return RR_CAPTURE_FAILED;
	}
	return RR_CAPTURE_WRITTEN;
}

enum rr_capture_put rr_capture_writer_put(struct rr_capture_writer *w, uint64_t frame,
					  uint64_t ts_ns, const uint8_t *data,
					  uint32_t caplen, uint32_t wirelen)
{
	if (w->failed)
		return RR_CAPTURE_FAILED;
	w->frame = frame;
	enum rr_capture_put r = rotate(w, ts_ns);
	if (r != RR_CAPTURE_WRITTEN)
		return r;
	uint64_t record = PCAP_RECORD_HEADER + (uint64_t)caplen;
	if (w->pending && w->pending + record > WRITER_BUFFER && !flush(w))
		return RR_CAPTURE_FAILED;
	struct pcap_pkthdr h = { .caplen = caplen, .len = wirelen };
	h.ts.tv_sec = (time_t)(ts_ns / 1000000000u);
	/* the stamp at the precision the file was opened with */
	h.ts.tv_usec = (suseconds_t)(ts_ns % 1000000000u / (w->nano ? 1u : 1000u));
	pcap_dump((u_char *)w->dumper, &h, data);
	w->frames++;
	w->pending += record;
	if (ferror(w->file)) {
		fail(w, errno);
		return RR_CAPTURE_FAILED;
	}
	if ((w->each_frame || w->pending >= WRITER_FLUSH_AT) && !flush(w))
		return RR_CAPTURE_FAILED;
	return RR_CAPTURE_WRITTEN;
}

bool rr_capture_writer_close(struct rr_capture_writer *w, char *err,
			     size_t errlen)
{
	bool ok = file_close(w);
	if (!ok)
		snprintf(err, errlen, "%s: write failed at frame %llu: %s; the file "
			 "keeps %s%llu frames", w->name,
			 (unsigned long long)w->failed_frame, strerror(w->failed_errno),
			 w->regular ? "its first " : "at most ",
			 (unsigned long long)w->frames_committed);
	free(w->buffer);
	free(w);
	return ok;
}
