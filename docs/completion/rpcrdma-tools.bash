# SPDX-License-Identifier: BSD-2-Clause
# bash completion for rpcrdma-dump, rpcrdma-top, rpcrdma-exporter and
# rpcrdma-peer.  The options come from each tool's own --help, so that they
# never drift from the program; the arguments
# that name something are completed from what exists: files, interfaces,
# RDMA devices, sort keys, scenarios and faults.  Installed once per command
# name, as bash-completion loads completions by the command's name.

_rpcrdma_rdma_devices()
{
	local d
	for d in /sys/class/infiniband/*; do
		[[ -e $d ]] && printf '%s\n' "${d##*/}"
	done
}

# Options that take a number or an address, per tool: nothing to offer.
_rpcrdma_valued()
{
	case $1 in
	rpcrdma-dump) echo '-B -c -s --roce-port --iwarp-port --slow' ;;
	rpcrdma-top) echo '-B -d -n --roce-port --iwarp-port --snaplen' ;;
	rpcrdma-exporter) echo '-B -l --web.listen-address --max-connection-series --roce-port --iwarp-port
		--web.telemetry-path --web.max-requests' ;;
	rpcrdma-peer) echo '-n --calls -r --rate -c --credits --reply-delay --inline-send --inline-recv
		-m --mtu --io-size -l --local -a --remote -p --port --drop --timeout' ;;
	esac
}

# Every option a tool's --help names, usage lines included ("--stats=" for
# "--stats[=json]" and "--stats=json").
_rpcrdma_options()
{
	"$1" --help 2>&1 | grep -oE -- '(^|[][ ,(|])--?[A-Za-z][A-Za-z0-9.=-]*' |
		sed 's/^[][ ,(|]//; s/=.*/=/; s/[.]*$//' | sort -u
}

_rpcrdma_tools()
{
	local cur prev words cword split
	_init_completion -s || return

	local v
	for v in $(_rpcrdma_valued "$1"); do
		[[ $prev == "$v" ]] && return
	done
	case $prev in
	-r | -w | --mountstats | --web.config.file | -o | --output)
		_filedir
		return
		;;
	--svc-rdma)
		_filedir -d
		return
		;;
	-i | -e | --ebpf)
		_available_interfaces
		return
		;;
	--rdma)
		COMPREPLY=($(compgen -W '$(_rpcrdma_rdma_devices)' -- "$cur"))
		return
		;;
	-t | --transport)
		# rpcrdma-peer's transports; -t elsewhere takes nothing
		if [[ $1 == rpcrdma-peer ]]; then
			COMPREPLY=($(compgen -W 'udp tcp verbs' -- "$cur"))
			return
		fi
		;;
	-s | --scenario)
		case $1 in
		rpcrdma-top)
			COMPREPLY=($(compgen -W 'calls bytes inflight p99 findings peers' -- "$cur"))
			return
			;;
		rpcrdma-peer)
			COMPREPLY=($(compgen -W '$("$1" pcap -o /dev/null -s list 2>/dev/null |
				awk "{print \$1}")' -- "$cur"))
			return
			;;
		esac
		;;
	--fault)
		COMPREPLY=($(compgen -W '$("$1" pcap -o /dev/null --fault list 2>/dev/null |
			awk "{print \$1}")' -- "$cur"))
		return
		;;
	--time-stamp-precision)
		COMPREPLY=($(compgen -W 'micro nano' -- "$cur"))
		return
		;;
	--view)
		COMPREPLY=($(compgen -W 'traffic latency procedures slow clients diagnosis' -- "$cur"))
		return
		;;
	--mpa-rev)
		COMPREPLY=($(compgen -W '1 2' -- "$cur"))
		return
		;;
	esac
	$split && return

	if [[ $1 == rpcrdma-peer && $cword -eq 1 ]]; then
		COMPREPLY=($(compgen -W 'pcap server client' -- "$cur"))
		return
	fi
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W '$(_rpcrdma_options "$1")' -- "$cur"))
		[[ ${COMPREPLY-} == *= ]] && compopt -o nospace
	fi
} &&
	complete -F _rpcrdma_tools rpcrdma-dump rpcrdma-top rpcrdma-exporter rpcrdma-peer
