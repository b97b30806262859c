#!/usr/bin/env bash
# Peak RSS of a run against the fabric's size: fat trees, folded Clos and
# meshes, each run 1 ms simulated as its own process (`ccsweep sim`), with
# the events it handled and its CPU time. Prints a Markdown table
# (docs/scale.md, "Memory bounded by design").
#
#   bash model/peakrss.sh                 # builds ccsweep from this tree
#   CCSWEEP=/path/to/ccsweep ONLY='mesh' bash model/peakrss.sh
#
# ONLY is a regular expression the case names must match. Needs GNU time
# (/usr/bin/time). Trees and Clos carry uniform Poisson traffic at 10 % of
# each host link, meshes at 0.1 % (a mesh's bisection is a small fraction
# of its hosts' links: at 10 % a 100 000-host mesh would handle some 10^10
# events in its millisecond); clos10368-hotspot is the built-in scenario,
# its four phases of 1 ms (the shortest phase sim takes): 4 ms simulated.
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

scenario() { # name topology-lines load
	printf 'name = "%s"\nphases = 1\n[topology]\n%b\n[[traffic]]\nname = "a"\npattern = "uniform"\narrival = "poisson"\nload = %s\n' \
		"$1" "$2" "$3" >"$work/$1.toml"
}

run() { # name hosts switches scenario phase
	local name=$1 hosts=$2 switches=$3 sc=$4 phase=$5
	[[ $name =~ $only ]] || return 0
	local out=$work/out.json err=$work/err
	if /usr/bin/time -f '%M %U %S %e' -o "$work/time" "$bin" sim --scenario "$sc" --phase "$phase" \
		--format json --quiet --out "$out" 2>"$err"; then
		read -r rss user sys wall <"$work/time"
		events=$(grep -o '"events": [0-9]*' "$out" | head -1 | grep -o '[0-9]*$')
		printf '| %s | %s | %s | %s | %.1f s | %.1f s | %s MB |\n' "$name" "$hosts" "$switches" "$events" \
			"$(echo "$user + $sys" | bc)" "$wall" "$((rss / 1024))"
	else
		printf '| %s | %s | %s | refused or failed: %s | | | |\n' "$name" "$hosts" "$switches" "$(head -c 200 "$err" | tr '\n' ' ')"
	fi
}

echo '| fabric | hosts | switches | events | CPU | wall | peak RSS |'
echo '|---|---|---|---|---|---|---|'
for k in 8 16 22; do
	scenario "fattree$k" "kind = \"fattree\"\nk = $k\nlevels = 3" 0.1
	run "fattree k=$k, 3 levels" $((k * k * k)) $((3 * k * k)) "$work/fattree$k.toml" 1ms
done
scenario clos648 'kind = "clos"\npreset = "648"' 0.1
run "clos 648 (36 leaves, 18 spines)" 648 54 "$work/clos648.toml" 1ms
scenario clos2592 "kind = \"clos\"\nleaves = 72\nspines = 36\nhosts_per_leaf = 36" 0.1
run "clos 2592 (72 leaves, 36 spines)" 2592 108 "$work/clos2592.toml" 1ms
run "clos10368-hotspot, 4 phases of 1 ms" 10368 216 clos10368-hotspot 1ms
for dims in "32, 32" "100, 100" "100, 1000"; do
	n=$(echo "$dims" | tr -d ' ' | tr ',' '*' | bc)
	scenario "mesh$n" "kind = \"mesh\"\ndims = [$dims]\n[routing]\nalgorithm = \"dor\"" 0.001
	run "mesh ${dims/, /x}, dor" "$n" "$n" "$work/mesh$n.toml" 1ms
done
scenario torus100000 'kind = "torus"\ndims = [100, 1000]\n[params]\nvls = 4\n[routing]\nalgorithm = "dor"' 0.001
run "torus 100x1000, dor, 4 VLs" 100000 100000 "$work/torus100000.toml" 1ms
