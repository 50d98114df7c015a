# SPDX-License-Identifier: BSD-2-Clause
# shellcheck shell=bash
# Sourced by the tests that run the real tshark or Wireshark with the
# plugin: they run as an unprivileged user (both ignore personal plugin
# folders as root) whose HOME holds the plugin where this Wireshark's
# minor version looks for it.
# plugin_home PLUGIN HOME (sets ws_minor, that version: "4.0")
plugin_home() {
	ws_minor=$("$(dirname "${BASH_SOURCE[0]}")/../scripts/wireshark-version.sh" --minor) || return 1
	mkdir -p "$2/.local/lib/wireshark/plugins/$ws_minor/epan" &&
		cp "$1" "$2/.local/lib/wireshark/plugins/$ws_minor/epan/"
}
