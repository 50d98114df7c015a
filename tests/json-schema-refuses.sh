#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The JSON Schema files refuse what they should: a message line without a
# required key, with a key of the wrong type, with a key they do not
# document, and a line of an unknown type; a top snapshot likewise.
# usage: json-schema-refuses.sh RPCRDMA_DUMP RPCRDMA_TOP SOURCE_DIR
set -u
dump=$1
top=$2
src=$3
validate="/usr/bin/python3 $src/tests/tools/json-validate.py"
. "$(dirname "$0")/tap.sh"
line=$("$dump" -j -r "$src/samples/rocev2-mixed.pcap" 2>/dev/null | grep -m1 '"type":"message"')
check "an unchanged message line passes" \
	eval "echo '$line' | $validate $src/docs/schema/rpcrdma-dump.schema.json >/dev/null"
for edit in 's/"xid":[0-9]*,//' 's/"conn":0/"conn":"0"/' 's/^{/{"undocumented":1,/' \
	's/"type":"message"/"type":"mesage"/' 's/"dir":"call"/"dir":"backward"/'; do
	check "refused after sed '$edit'" \
		eval "! echo '$line' | sed '$edit' | $validate $src/docs/schema/rpcrdma-dump.schema.json >/dev/null"
done
snap=$("$top" -j 1 1 -r "$src/samples/rocev2-mixed.pcap" 2>/dev/null | tail -n 1)
check "an unchanged top snapshot passes" \
	eval "echo '$snap' | $validate $src/docs/schema/rpcrdma-top.schema.json >/dev/null"
for edit in 's/"totals":{"calls":[0-9]*,/"totals":{/' 's/"type":"top"/"type":"stats"/'; do
	check "top: refused after sed '$edit'" \
		eval "! echo '$snap' | sed '$edit' | $validate $src/docs/schema/rpcrdma-top.schema.json >/dev/null"
done
tap_end
