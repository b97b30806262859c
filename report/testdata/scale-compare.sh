#!/bin/sh
# Compares the report of a large grid (BenchmarkReportScale's: 4 000 or
# 10 000 points) as two versions of ccsweep write it: size, then the time
# headless Chromium takes to draw the first screen and every chart, the two
# reports opened in turn for ROUNDS rounds (a fresh browser each time).
#
#   report/testdata/scale-compare.sh BEFORE AFTER [POINTS [ROUNDS]]
#
# BEFORE and AFTER are git revisions (e.g. bfe47b8 HEAD); POINTS 10000 by
# default, ROUNDS 3. Run it from the repository on an idle machine: the
# times of a loaded one measure the wait for a core. Needs chromium
# ($CHROMIUM or /usr/bin/chromium). Work files go to $SCALE_DIR (default a
# new temporary directory), kept for a rerun (the database is made once).
set -eu
before=$1 after=$2 points=${3:-10000} rounds=${4:-3}
dir=${SCALE_DIR:-$(mktemp -d)}
mkdir -p "$dir"
top=$(git rev-parse --show-toplevel)
here=$top/report/scale_draw_test.go
for rev in "$before" "$after"; do
	tree=$dir/src-$rev
	rm -rf "$tree" && mkdir -p "$tree"
	git -C "$top" archive "$rev" | tar -x -C "$tree"
	# Revisions before this script lack its tests: bring them.
	cp "$here" "$tree/report/scale_draw_test.go"
	sed -i 's/^func scaleDB(b \*testing.B, rates int) string {/func scaleDB(b testing.TB, rates int) string {/' "$tree/report/scale_bench_test.go"
	(cd "$tree" && CCSWEEP_SCALE_DIR=$dir CCSWEEP_SCALE_POINTS=$points CCSWEEP_SCALE_TAG=$rev \
		go test -count=1 -timeout 60m -run '^TestScaleReportWrite$' -v ./report | grep '^wrote')
done
cd "$dir/src-$after"
CCSWEEP_SCALE_DRAW=$dir/scale-$points-$before.html,$dir/scale-$points-$after.html CCSWEEP_SCALE_ROUNDS=$rounds \
	go test -count=1 -timeout 120m -run '^TestScaleReportDraw$' -v ./report | grep -E '^(round|median)|FAIL|---'
echo "work files in $dir"
