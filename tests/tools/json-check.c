/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Validates rpcrdma-dump JSON against docs/json-schema.md: every line (or
 * the one document with --document) parses, and each object has the keys
 * its type requires, of the right JSON types.
 * usage: json-check [--document] < OUTPUT
 */
#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct need {
	const char *key;
	enum json_type type;
	bool nullable;
};

static const struct need common[] = {
	{ "type", json_type_string, false }, { "schema", json_type_int, false },
};
static const struct need message[] = {
	{ "frame", json_type_int, false }, { "ts", json_type_double, false },
	{ "conn", json_type_int, false }, { "dir", json_type_string, false },
	{ "xid", json_type_int, false }, { "vers", json_type_int, false },
	{ "credits", json_type_int, false }, { "proc", json_type_string, false },
	{ "len", json_type_int, false }, { "reads", json_type_array, false },
	{ "writes", json_type_array, false }, { "reply", json_type_array, true },
	{ "rpc", json_type_object, true }, { "completed", json_type_object, true },
	{ "findings", json_type_array, false },
};
static const struct need rpc_message[] = {
	{ "frame", json_type_int, false }, { "ts", json_type_double, false },
	{ "conn", json_type_int, false }, { "dir", json_type_string, false },
	{ "xid", json_type_int, false }, { "source", json_type_string, false },
	{ "len", json_type_int, false }, { "rpc", json_type_object, true },
};
static const struct need chunk_data[] = {
	{ "frame", json_type_int, false }, { "ts", json_type_double, false },
	{ "conn", json_type_int, false }, { "dir", json_type_string, false },
	{ "xid", json_type_int, false }, { "chunk", json_type_string, false },
	{ "op", json_type_string, false }, { "handle", json_type_int, false },
	{ "offset", json_type_int, false }, { "len", json_type_int, false },
};
static const struct need retransmission[] = {
	{ "frame", json_type_int, false }, { "ts", json_type_double, false },
	{ "conn", json_type_int, false }, { "opcode", json_type_string, false },
	{ "psn", json_type_int, false }, { "original_frame", json_type_int, true },
};
static const struct need closing[] = {
	{ "frame", json_type_int, false }, { "ts", json_type_double, false },
	{ "conn", json_type_int, false }, { "reset", json_type_boolean, false },
};
static const struct need setup[] = {
	{ "frame", json_type_int, false }, { "ts", json_type_double, false },
	{ "private_data", json_type_object, true },
};
static const struct need negotiated[] = {
	{ "conn", json_type_int, false }, { "thresholds", json_type_object, false },
	{ "requester_private_data", json_type_object, true },
	{ "responder_private_data", json_type_object, true },
};
static const struct need finding[] = {
	{ "id", json_type_string, false }, { "severity", json_type_string, false },
	{ "message", json_type_string, false }, { "conn", json_type_int, true },
};
static const struct need stats[] = {
	{ "connections", json_type_array, false }, { "total", json_type_object, false },
	{ "procedures", json_type_array, false }, { "findings", json_type_object, false },
	{ "frames", json_type_object, false }, { "evicted", json_type_object, false },
	{ "rebuilt", json_type_object, true },
};

static int check(json_object *o, const struct need *n, size_t count,
		 unsigned line)
{
	int bad = 0;
	for (size_t i = 0; i < count; i++) {
		json_object *v;
		if (!json_object_object_get_ex(o, n[i].key, &v)) {
			printf("line %u: no '%s'\n", line, n[i].key);
			bad++;
		} else if (!v ? !n[i].nullable : json_object_get_type(v) != n[i].type) {
			printf("line %u: '%s' has the wrong type\n", line, n[i].key);
			bad++;
		}
	}
	return bad;
}

#define CHECK(o, tab, line) check(o, tab, sizeof(tab) / sizeof(tab[0]), line)

static int check_object(json_object *o, unsigned line, unsigned *types)
{
	if (!o || json_object_get_type(o) != json_type_object) {
		printf("line %u: not a JSON object\n", line);
		return 1;
	}
	int bad = CHECK(o, common, line);
	json_object *t;
	if (bad || !json_object_object_get_ex(o, "type", &t))
		return bad ? bad : 1;
	const char *type = json_object_get_string(t);
	if (!strcmp(type, "message"))
		bad += CHECK(o, message, line), types[0]++;
	else if (!strcmp(type, "cm") || !strcmp(type, "mpa"))
		bad += CHECK(o, setup, line), types[1]++;
	else if (!strcmp(type, "negotiated"))
		bad += CHECK(o, negotiated, line), types[2]++;
	else if (!strcmp(type, "finding"))
		bad += CHECK(o, finding, line), types[3]++;
	else if (!strcmp(type, "stats"))
		bad += CHECK(o, stats, line), types[4]++;
	else if (!strcmp(type, "rpc_message"))
		bad += CHECK(o, rpc_message, line), types[5]++;
	else if (!strcmp(type, "chunk_data"))
		bad += CHECK(o, chunk_data, line), types[6]++;
	else if (!strcmp(type, "close"))
		bad += CHECK(o, closing, line);
	else if (!strcmp(type, "retransmission"))
		bad += CHECK(o, retransmission, line), types[7]++;
	else {
		printf("line %u: unknown type '%s'\n", line, type);
		bad++;
	}
	return bad;
}

int main(int argc, char **argv)
{
	bool document = argc > 1 && !strcmp(argv[1], "--document");
	unsigned types[8] = { 0 }, line = 0;
	int bad = 0;
	if (document) {
		static char buf[1 << 22];
		size_t n = fread(buf, 1, sizeof(buf) - 1, stdin);
		buf[n] = '\0';
		json_object *o = json_tokener_parse(buf);
		bad += check_object(o, 1, types);
		json_object_put(o);
	} else {
		char *l = NULL;
		size_t cap = 0;
		while (getline(&l, &cap, stdin) > 0) {
			json_object *o = json_tokener_parse(l);
			bad += check_object(o, ++line, types);
			json_object_put(o);
		}
		free(l);
	}
	printf("%u messages, %u setup, %u negotiated, %u findings, %u stats, "
	       "%u rebuilt RPC messages, %u chunk data, %u retransmissions\n",
	       types[0], types[1], types[2], types[3], types[4], types[5], types[6],
	       types[7]);
	printf("%d passed, %d failed\n", bad ? 0 : 1, bad ? 1 : 0);
	return bad || (!document && !types[0]) ? 1 : 0;
}
