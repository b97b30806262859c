#!/usr/bin/env bash
# Per-event cost against the fabric's size (issue 26): BenchmarkScaling at
# 648, 2 592 and 10 368 hosts, in one run per round and commit, on one core,
# rounds interleaved between the commits given (default: HEAD). Prints a
# Markdown table of CPU ns per event in every round, then the medians, the
# ratio 10 368 / 648 of each commit, and the median of the per-round ratios
# of each commit against the first (docs/scale.md, "Ten thousand hosts").
#
#   bash model/scaling.sh                      # HEAD, 5 rounds
#   ROUNDS=7 PHASE=1ms bash model/scaling.sh main HEAD
#
# Each commit's test binary is built from `git archive` of it (the work
# tree is not touched). PHASE is the simulated time of each run (200us:
# about 15 s of CPU a round and commit on an idle core). The load average
# is printed beside each round: on a shared machine, compare rounds, not
# runs hours apart.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${ROUNDS:-5}
phase=${PHASE:-200us}
commits=("$@")
[ ${#commits[@]} -gt 0 ] || commits=(HEAD)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for i in "${!commits[@]}"; do
	c=${commits[$i]}
	mkdir "$work/src$i"
	git archive "$c" | tar -x -C "$work/src$i"
	(cd "$work/src$i" && go test -c -o "$work/bin$i" ./model)
	names[$i]="$c ($(git rev-parse --short "$c"))"
done

echo "| round | commit | load | 648 | 2592 | 10368 | 10368/648 |"
echo "|---|---|---|---|---|---|---|"
for r in $(seq 1 "$rounds"); do
	for i in "${!commits[@]}"; do
		load=$(cut -d' ' -f1 /proc/loadavg)
		out=$(cd model && GOMAXPROCS=1 "$work/bin$i" -test.run '^$' -test.bench 'Scaling/hosts=(648|2592|10368)' \
			-test.benchtime 1x -test.cpu 1 -scaling.phase "$phase")
		# CPU ns per event of each size, in the order 648, 2592, 10368.
		ns=$(echo "$out" | awk '/^BenchmarkScaling/ {for (f = 1; f < NF; f++) if ($(f+1) == "cpu-ns/event") printf "%s ", $f}')
		read -r a b c <<<"$ns"
		echo "$r $i $load $a $b $c" >>"$work/rows"
		printf '| %d | %s | %s | %s | %s | %s | %.2f |\n' "$r" "${names[$i]}" "$load" "$a" "$b" "$c" "$(echo "$c / $a" | bc -l)"
	done
done

median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
echo
echo "| commit | median 648 | median 2592 | median 10368 | 10368/648 of the medians | median per-round ratio to ${commits[0]}, 648 / 10368 |"
echo "|---|---|---|---|---|---|"
for i in "${!commits[@]}"; do
	m648=$(awk -v i="$i" '$2 == i {print $4}' "$work/rows" | median)
	m2592=$(awk -v i="$i" '$2 == i {print $5}' "$work/rows" | median)
	m10368=$(awk -v i="$i" '$2 == i {print $6}' "$work/rows" | median)
	r648=$(awk -v i="$i" '$2 == 0 {b[$1] = $4} $2 == i {n[$1] = $4} END {for (r in n) print n[r] / b[r]}' "$work/rows" | median)
	r10368=$(awk -v i="$i" '$2 == 0 {b[$1] = $6} $2 == i {n[$1] = $6} END {for (r in n) print n[r] / b[r]}' "$work/rows" | median)
	printf '| %s | %s | %s | %s | %.2f | %.3f / %.3f |\n' "${names[$i]}" "$m648" "$m2592" "$m10368" \
		"$(echo "$m10368 / $m648" | bc -l)" "$r648" "$r10368"
done
