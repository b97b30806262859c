#!/usr/bin/env bash
# The speed table of docs/scale.md ("Ten thousand hosts", issue 26): wall
# time, CPU time, events, events per second and peak RSS of
#
#   clos648-hotspot, 0.5 s simulated (its four phases of 125 ms; about 40 s
#     on an idle core, many minutes on a loaded one)
#   clos10368-hotspot, 10 ms simulated (--phase 2500us)
#   the 100 000-host dor mesh (100x1000), 1 ms simulated, uniform Poisson
#     traffic at 0.1 % of each host link (as model/peakrss.sh)
#
# each one `ccsweep sim` process under GNU time, one after the other. Prints
# a Markdown table with the model version each run reports. Run it on an
# idle machine: wall time and events per second are the machine's.
#
#   bash model/speedtable.sh                    # builds ccsweep from this tree
#   CCSWEEP=/path/to/ccsweep ONLY='10368|mesh' bash model/speedtable.sh
#
# ONLY is a regular expression the row names must match.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin=${CCSWEEP:-}
if [ -z "$bin" ]; then
	bin=$work/ccsweep
	go build -o "$bin" .
fi
only=${ONLY:-.}

run() { # name simulated scenario [sim flags...]
	local name=$1 simulated=$2 sc=$3
	shift 3
	[[ $name =~ $only ]] || return 0
	local out=$work/out.json err=$work/err
	if /usr/bin/time -f '%M %U %S %e' -o "$work/time" "$bin" sim --scenario "$sc" "$@" \
		--format json --quiet --out "$out" 2>"$err"; then
		read -r rss user sys wall <"$work/time"
		events=$(grep -o '"events": [0-9]*' "$out" | head -1 | grep -o '[0-9]*$')
		version=$(grep -o '"model_version": "[^"]*"' "$out" | head -1 | cut -d'"' -f4)
		printf '| %s | %s | %s | %.1f s | %.1f s | %.1f M | %.2f M | %s MB |\n' "$name" "$version" "$simulated" \
			"$wall" "$(echo "$user + $sys" | bc)" "$(echo "$events / 1000000" | bc -l)" \
			"$(echo "$events / $wall / 1000000" | bc -l)" "$((rss / 1024))"
	else
		printf '| %s | | %s | failed: %s | | | | |\n' "$name" "$simulated" "$(head -c 200 "$err" | tr '\n' ' ')"
	fi
}

echo "| scenario | model | simulated | wall | CPU | events | events per wall second | peak RSS |"
echo "|---|---|---|---|---|---|---|---|"
run clos648-hotspot "0.5 s" clos648-hotspot
run clos10368-hotspot "10 ms" clos10368-hotspot --phase 2500us
printf 'name = "mesh100000"\nphases = 1\n[topology]\nkind = "mesh"\ndims = [100, 1000]\n[routing]\nalgorithm = "dor"\n[[traffic]]\nname = "a"\npattern = "uniform"\narrival = "poisson"\nload = 0.001\n' >"$work/mesh100000.toml"
run "mesh 100x1000, dor (100 000 hosts)" "1 ms" "$work/mesh100000.toml" --phase 1ms
