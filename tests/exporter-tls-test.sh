#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# rpcrdma-exporter secured as Prometheus's exporter-toolkit secures an
# exporter (--web.config.file): real certificates made here (GnuTLS's
# certtool), the exporter replaying a capture of Linux's NFS/RDMA client,
# and a real Prometheus server scraping it over TLS with basic
# authentication and, separately, with a client certificate.  By curl and
# gnutls-cli: a missing or wrong password gets 401, a client without the
# required certificate (or with one its CA did not sign) is refused, plain
# HTTP to the TLS port is served nothing, TLS 1.1 is refused where TLS 1.2
# is taken; the file is read again when it changes, a bad one naming its
# key.
# usage: exporter-tls-test.sh BUILD_DIR SOURCE_DIR
set -u
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
exporter=$build/cli/rpcrdma-exporter
for tool in prometheus curl certtool gnutls-cli; do
	command -v "$tool" >/dev/null || {
		echo "SKIP: $tool is not installed (scripts/install-deps.sh installs it)"
		exit 77
	}
done
. "$src/tests/tap.sh"
. "$src/tests/exporter-lib.sh"
capture=$src/tests/linux/bookworm-rxe-nfs41/client/capture.pcap
cd "$work" || exit 1

# -- certificates: a CA, the exporter's, Prometheus's, one no CA signed -----
printf 'cn = "rpcrdma-tools test CA"\nca\ncert_signing_key\nexpiration_days = 2\n' >ca.tmpl
printf 'cn = "localhost"\ndns_name = "localhost"\nip_address = "127.0.0.1"\ntls_www_server\nexpiration_days = 2\n' >server.tmpl
printf 'cn = "prometheus"\ntls_www_client\nexpiration_days = 2\n' >client.tmpl
for k in ca server client stranger; do
	certtool --generate-privkey --key-type=ecdsa --outfile $k.key 2>/dev/null
done
certtool --generate-self-signed --load-privkey ca.key --template ca.tmpl --outfile ca.crt 2>/dev/null
for k in server client; do
	certtool --generate-certificate --load-privkey $k.key --load-ca-certificate ca.crt \
		--load-ca-privkey ca.key --template $k.tmpl --outfile $k.crt 2>/dev/null
done
certtool --generate-self-signed --load-privkey stranger.key --template client.tmpl \
	--outfile stranger.crt 2>/dev/null
check "certtool made the CA, server, client and stranger certificates" \
	test -s ca.crt -a -s server.crt -a -s client.crt -a -s stranger.crt

# bcrypt of "scrape-secret", cost 10 (as htpasswd -nBC 10 makes them)
hash='$2b$10$T7h.LZxiVjiqFJpneMdKf.5rq526lel600O1FPDt1sIX0Ou/nAHcW'
printf '%s\n' 'tls_server_config:' '  cert_file: server.crt' '  key_file: server.key' \
	'basic_auth_users:' "  prometheus: $hash" 'http_server_config:' '  headers:' \
	'    X-Content-Type-Options: nosniff' \
	'    Strict-Transport-Security: max-age=31536000' >basic.yml
printf '%s\n' 'tls_server_config:' '  cert_file: server.crt' '  key_file: server.key' \
	'  client_auth_type: RequireAndVerifyClientCert' '  client_ca_file: ca.crt' >mtls.yml

# Starts the exporter on a free port with a web configuration file; sets
# $port once it says it serves.
start_exporter() { # config file
	port=$(free_port)
	"$exporter" -r "$capture" -l "127.0.0.1:$port" --web.config.file "$1" \
		>/dev/null 2>>exporter.log &
	pids+=($!)
	# up to 30 s: a sanitizer build on a busy machine starts slowly
	for _ in $(seq 300); do
		grep -q "serving https://127.0.0.1:$port/" exporter.log && return 0
		sleep 0.1
	done
	# what it said, for the TAP output
	sed 's/^/# exporter: /' exporter.log
	return 1
}
code() { # curl arguments: the status, 000 when nothing was served
	curl -s -o /dev/null -w '%{http_code}' --max-time 10 "$@"
}

# -- TLS and basic authentication -------------------------------------------
check "serves https with basic.yml" start_exporter basic.yml
url=https://127.0.0.1:$port/metrics
check "no password: 401" test "$(code --cacert ca.crt "$url")" = 401
curl -s -D headers.txt -o /dev/null --cacert ca.crt "$url"
check "... with WWW-Authenticate: Basic" grep -qi '^WWW-Authenticate: Basic' headers.txt
check "a wrong password: 401" test "$(code --cacert ca.crt -u prometheus:guess "$url")" = 401
check "an unknown user: 401" test "$(code --cacert ca.crt -u alice:scrape-secret "$url")" = 401
wait_replay_done metrics.txt --cacert ca.crt -u prometheus:scrape-secret "$url"
check "the right password: 200 and the metrics of the whole capture" \
	eval "test \"\$(code --cacert ca.crt -u prometheus:scrape-secret '$url')\" = 200 &&
	      grep -q '^rpcrdma_exporter_replay_done 1' metrics.txt &&
	      grep -q '^rpcrdma_rpc_calls_total{' metrics.txt"
curl -s -D headers.txt -o /dev/null --cacert ca.crt -u prometheus:scrape-secret "$url"
check "the headers the file sets (X-Content-Type-Options, Strict-Transport-Security)" \
	eval "grep -qi '^X-Content-Type-Options: nosniff' headers.txt &&
	      grep -qi '^Strict-Transport-Security: max-age=31536000' headers.txt"
check "plain HTTP to the TLS port: nothing served" \
	test "$(code "http://127.0.0.1:$port/metrics")" = 000
gnutls-cli --priority 'NORMAL:-VERS-ALL:+VERS-TLS1.1' --x509cafile "$work/ca.crt" \
	-p "$port" 127.0.0.1 </dev/null >tls11.txt 2>&1
gnutls-cli --priority 'NORMAL:-VERS-ALL:+VERS-TLS1.2' --x509cafile "$work/ca.crt" \
	-p "$port" 127.0.0.1 </dev/null >tls12.txt 2>&1
check "TLS 1.1 is refused (min_version TLS12 by default), TLS 1.2 is taken" \
	eval "! grep -q 'Handshake was completed' tls11.txt &&
	      grep -q 'Handshake was completed' tls12.txt"
calls=$(awk '/^rpcrdma_rpc_calls_total\{/ && !/NFS4_CB/ { s += $2 } END { print s + 0 }' metrics.txt)
check "the capture's calls counted ($calls)" test "$calls" -gt 0

# a real Prometheus server, over TLS with basic authentication
query() { # PromQL: the first value, or nothing
	curl -s -G "http://127.0.0.1:$pport/api/v1/query" --data-urlencode "query=$1" |
		sed -n 's/.*"value":\[[^,]*,"\([^"]*\)"\].*/\1/p'
}
wait_query() { # PromQL, wanted value: up to 30 s
	for _ in $(seq 150); do
		[ "$(query "$1")" = "$2" ] && return 0
		sleep 0.2
	done
	return 1
}
start_prometheus() { # its configuration, as text
	pport=$(free_port)
	printf '%s\n' "$1" >prometheus.yml
	rm -rf tsdb
	prometheus --config.file=prometheus.yml --storage.tsdb.path=tsdb \
		--web.listen-address="127.0.0.1:$pport" >prometheus.log 2>&1 &
	pids+=($!)
}
start_prometheus "global:
  scrape_interval: 1s
scrape_configs:
  - job_name: basic
    scheme: https
    tls_config:
      ca_file: $work/ca.crt
    basic_auth:
      username: prometheus
      password: scrape-secret
    static_configs:
      - targets: ['127.0.0.1:$port']
  - job_name: wrong_password
    scheme: https
    tls_config:
      ca_file: $work/ca.crt
    basic_auth:
      username: prometheus
      password: guess
    static_configs:
      - targets: ['127.0.0.1:$port']"
check "Prometheus scrapes it over TLS with basic auth: up, sum(rpcrdma_rpc_calls_total) = $calls" \
	eval "wait_query 'up{job=\"basic\"}' 1 &&
	      wait_query 'sum(rpcrdma_rpc_calls_total{job=\"basic\",program!=\"NFS4_CB\"})' '$calls'"
check "Prometheus with a wrong password: down" wait_query 'up{job="wrong_password"}' 0
kill "${pids[-1]}" "${pids[-2]}" 2>/dev/null

# -- client certificates ----------------------------------------------------
check "serves https with mtls.yml (RequireAndVerifyClientCert)" start_exporter mtls.yml
url=https://127.0.0.1:$port/metrics
check "the client certificate the CA signed: 200" \
	test "$(code --cacert ca.crt --cert client.crt --key client.key "$url")" = 200
check "no client certificate: refused, nothing served" \
	test "$(code --cacert ca.crt "$url")" = 000
check "a certificate no trusted CA signed: refused" \
	test "$(code --cacert ca.crt --cert stranger.crt --key stranger.key "$url")" = 000
start_prometheus "global:
  scrape_interval: 1s
scrape_configs:
  - job_name: mtls
    scheme: https
    tls_config:
      ca_file: $work/ca.crt
      cert_file: $work/client.crt
      key_file: $work/client.key
    static_configs:
      - targets: ['127.0.0.1:$port']
  - job_name: stranger
    scheme: https
    tls_config:
      ca_file: $work/ca.crt
      cert_file: $work/stranger.crt
      key_file: $work/stranger.key
    static_configs:
      - targets: ['127.0.0.1:$port']"
check "Prometheus with the client certificate: up, sum(rpcrdma_rpc_calls_total) = $calls" \
	eval "wait_query 'up{job=\"mtls\"}' 1 &&
	      wait_query 'sum(rpcrdma_rpc_calls_total{job=\"mtls\",program!=\"NFS4_CB\"})' '$calls'"
check "Prometheus with a stranger's certificate: down" wait_query 'up{job="stranger"}' 0
kill "${pids[-1]}" "${pids[-2]}" 2>/dev/null

# -- versions and cipher suites, in Go's names -------------------------------
printf '%s\n' 'tls_server_config:' '  cert_file: server.crt' '  key_file: server.key' \
	'  max_version: TLS12' '  cipher_suites: [TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256]' >suites.yml
check "serves https with suites.yml (TLS 1.2, one suite)" start_exporter suites.yml
handshake() { # GnuTLS priority string: whether the handshake completes
	gnutls-cli --priority "$1" --x509cafile "$work/ca.crt" -p "$port" 127.0.0.1 \
		</dev/null 2>&1 | grep -q 'Handshake was completed'
}
check "the suite listed is taken (ECDHE-ECDSA, AES-128-GCM)" \
	handshake 'NORMAL:-VERS-ALL:+VERS-TLS1.2:-CIPHER-ALL:+AES-128-GCM'
check "a suite not listed is refused (AES-256-GCM)" \
	eval "! handshake 'NORMAL:-VERS-ALL:+VERS-TLS1.2:-CIPHER-ALL:+AES-256-GCM'"
check "TLS 1.3 is refused past max_version TLS12" \
	eval "! handshake 'NORMAL:-VERS-ALL:+VERS-TLS1.3'"

# -- the bundled example, with this test's certificates ----------------------
sed -e "s|/etc/rpcrdma/exporter|$work/server|; s|/etc/rpcrdma/prometheus-ca.crt|$work/ca.crt|" \
	"$src/samples/monitoring/web-config.yml" >sample.yml
check "samples/monitoring/web-config.yml: served, the client certificate lets in" \
	eval "start_exporter sample.yml &&
	      test \"\$(code --cacert ca.crt --cert client.crt --key client.key \
		https://127.0.0.1:\$port/metrics)\" = 200 &&
	      test \"\$(code --cacert ca.crt https://127.0.0.1:\$port/metrics)\" = 000"

# -- read again when it changes ---------------------------------------------
cp mtls.yml live.yml
check "serves https with live.yml" start_exporter live.yml
url=https://127.0.0.1:$port/metrics
changed() { # status wanted, curl arguments: up to 10 s
	local want=$1
	shift
	for _ in $(seq 50); do
		[ "$(code "$@")" = "$want" ] && return 0
		sleep 0.2
	done
	return 1
}
cp basic.yml live.yml.new && mv live.yml.new live.yml
check "the file changed to basic auth: the password lets in, without a certificate" \
	changed 200 --cacert ca.crt -u prometheus:scrape-secret "$url"
check "... no password gets 401" test "$(code --cacert ca.crt "$url")" = 401
check "... and it said so" grep -q 'live.yml read again' exporter.log
printf '%s\n' 'tls_server_config:' '  cert_file: server.crt' '  kye_file: server.key' >live.yml.new
mv live.yml.new live.yml
for _ in $(seq 50); do
	grep -q 'kye_file' exporter.log && break
	sleep 0.2
done
check "a bad file while running: named (line 3: kye_file), the server as it was" \
	eval "grep -q 'line 3: kye_file: field not found' exporter.log &&
	      test \"\$(code --cacert ca.crt -u prometheus:scrape-secret '$url')\" = 200"

# -- bad files refuse to start, naming the key -------------------------------
refused() { # description, text the error holds, file content
	printf '%s\n' "$3" >bad.yml
	"$exporter" -r "$capture" -l "127.0.0.1:$(free_port)" --web.config.file bad.yml \
		>/dev/null 2>bad.err
	local status=$? named=no
	grep -qF -- "$2" bad.err && named=yes
	check "$1: status 1 ($status), '$2' ($named)" test "$status/$named" = 1/yes
}
refused "an unknown key" "line 2: cert_fil: field not found" \
	"$(printf 'tls_server_config:\n  cert_fil: server.crt\n  key_file: server.key')"
refused "no key_file" "missing key_file" "tls_server_config: {cert_file: server.crt}"
refused "a client_auth_type Go does not have" "client_auth_type: invalid ClientAuth 'Sometimes'" \
	"tls_server_config: {cert_file: server.crt, key_file: server.key, client_auth_type: Sometimes}"
refused "verifying without a CA" "client_ca_file names their CA" \
	"tls_server_config: {cert_file: server.crt, key_file: server.key, client_auth_type: RequireAndVerifyClientCert}"
refused "a key that is not the certificate's" "do not match" \
	"tls_server_config: {cert_file: server.crt, key_file: client.key}"
refused "an unknown TLS version" "min_version: unknown TLS version 'TLS14'" \
	"tls_server_config: {cert_file: server.crt, key_file: server.key, min_version: TLS14}"
refused "a cipher suite Go does not name" "unknown cipher suite 'TLS_NULL'" \
	"tls_server_config: {cert_file: server.crt, key_file: server.key, cipher_suites: [TLS_NULL]}"
refused "a password not hashed with bcrypt" "bob: not a bcrypt hash" "basic_auth_users: {bob: secret}"
refused "a header the toolkit does not set" "Server: HTTP header cannot be configured" \
	"http_server_config: {headers: {Server: x}}"
refused "a missing file" "nowhere.crt: No such file" \
	"tls_server_config: {cert_file: nowhere.crt, key_file: server.key}"
tap_end
