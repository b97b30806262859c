#!/usr/bin/env bash
# Routes a fabric with OpenSM's own routing engines, on ibsim, and keeps the
# forwarding tables OpenSM computes, so that ccsweep's routing can be
# compared with the subnet manager's (model/fabric/opensm_oracle_test.go) and a user
# can simulate exactly what OpenSM would program on their fabric.
#
#   .ci/opensm-oracle.sh NETFILE OUTDIR [ENGINE[:OPENSM OPTIONS]]...
#
# NETFILE is an ibsim net file (`ccsweep fabric SCENARIO --ibsim NETFILE`).
# For every ENGINE (default: minhop updn ftree) the script starts ibsim on
# NETFILE, runs OpenSM once (-o) with -R ENGINE and any further OpenSM
# options given after a colon (e.g. "ftree:-a roots.txt -u cn.txt"; spaces
# split options, so paths must have none), and writes
#   OUTDIR/ENGINE.lfts  OpenSM's opensm-lfts.dump
#   OUTDIR/ENGINE.log   OpenSM's log
#   OUTDIR/ENGINE.used  the engine OpenSM reports it configured the switches
#                       with ("minhop" where the requested engine failed and
#                       OpenSM fell back; "none" where it configured nothing)
# Then `ccsweep fabric SCENARIO --read-lfts OUTDIR/ENGINE.lfts --json` gives
# OpenSM's path balance, and a scenario's [routing] lfts simulates the tables.
#
# Needs Debian's opensm and ibsim-utils (.ci/opensm-deps.sh installs them).
# Each engine takes about a second on 700 nodes. Exit status: 0 when every
# engine produced tables, 1 when some did not, 2 on a usage or setup error.
set -uo pipefail

if [ $# -lt 2 ]; then
	echo "usage: $0 NETFILE OUTDIR [ENGINE[:OPENSM OPTIONS]]..." >&2
	exit 2
fi
net="$(realpath "$1")"
out="$2"
shift 2
engines=("$@")
[ ${#engines[@]} -gt 0 ] || engines=(minhop updn ftree)

umad2sim=""
for so in /usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so /usr/lib/*/umad2sim/libumad2sim.so /usr/lib/umad2sim/libumad2sim.so; do
	if [ -f "$so" ]; then
		umad2sim="$so"
		break
	fi
done
if ! command -v ibsim >/dev/null || ! command -v opensm >/dev/null && [ ! -x /usr/sbin/opensm ] || [ -z "$umad2sim" ]; then
	echo "$0: needs ibsim, libumad2sim.so and opensm (apt-get install opensm ibsim-utils, or .ci/opensm-deps.sh)" >&2
	exit 2
fi
opensm="$(command -v opensm || echo /usr/sbin/opensm)"
[ -f "$net" ] || {
	echo "$0: no net file $net" >&2
	exit 2
}
mkdir -p "$out"

# ibsim's table sizes: room for the file's nodes, switches and ports.
nodes=$(grep -cE '^(Switch|Hca|Ca|Rt)[[:space:]]' "$net")
switches=$(grep -cE '^Switch[[:space:]]' "$net")
ports=$(awk '/^(Switch|Hca|Ca|Rt)[[:space:]]/ { n += $2 + 1 } END { print n + 0 }' "$net")

work="$(mktemp -d)"
sim=""
cleanup() {
	if [ -n "$sim" ]; then
		kill "$sim" 2>/dev/null
		wait "$sim" 2>/dev/null
	fi
	rm -rf "$work"
}
trap cleanup EXIT

status=0
for spec in "${engines[@]}"; do
	engine="${spec%%:*}"
	opts=()
	if [ "$spec" != "$engine" ]; then
		read -r -a opts <<<"${spec#*:}"
	fi
	dir="$work/$engine"
	mkdir -p "$dir"
	# A socket of its own, so that several runs may share the machine.
	export IBSIM_SOCKNAME="ccsweep-oracle-$$-$engine"
	ibsim -s -n -N $((nodes + 16)) -S $((switches + 16)) -P $((ports + 64)) "$net" >"$dir/ibsim.log" 2>&1 &
	sim=$!
	# ibsim reads the net file, then listens; OpenSM fails at once if it
	# connects earlier, so wait for "Network simulator ready".
	for _ in $(seq 300); do
		grep -q 'simulator ready' "$dir/ibsim.log" 2>/dev/null && break
		kill -0 "$sim" 2>/dev/null || break
		sleep 0.1
	done
	if ! kill -0 "$sim" 2>/dev/null; then
		echo "$0: ibsim refused $net:" >&2
		tail -5 "$dir/ibsim.log" >&2
		exit 2
	fi
	(
		cd "$dir" &&
			OSM_TMP_DIR="$dir" OSM_CACHE_DIR="$dir" LD_PRELOAD="$umad2sim" \
				timeout 300 "$opensm" -o -s 0 -R "$engine" -D 0x43 -f "$dir/osm.log" "${opts[@]}" >"$dir/osm.out" 2>&1
	)
	rc=$?
	kill "$sim" 2>/dev/null
	wait "$sim" 2>/dev/null
	sim=""
	cp "$dir/osm.log" "$out/$engine.log" 2>/dev/null
	used=$(sed -n 's/.*osm_ucast_mgr_process: \([^ ]*\) tables configured on all switches.*/\1/p' "$dir/osm.log" | tail -1)
	echo "${used:-none}" >"$out/$engine.used"
	if [ $rc -ne 0 ] || [ ! -s "$dir/opensm-lfts.dump" ]; then
		echo "$0: opensm -R $engine ${opts[*]} exited $rc without tables; see $out/$engine.log" >&2
		tail -3 "$dir/osm.out" >&2
		status=1
		continue
	fi
	cp "$dir/opensm-lfts.dump" "$out/$engine.lfts"
	echo "$engine: $out/$engine.lfts (tables by ${used:-?})"
done
exit $status
