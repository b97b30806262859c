#!/usr/bin/env bash
# Replays the planted-bug corpus: each .ci/planted/NN-name.patch plants one
# bug a reviewer once slipped past `go test ./...` (docs/testing.md, "Planted
# bugs"). For each patch (or those named: .ci/planted.sh 03 12-best...), it
# applies the patch to a scratch copy of the working tree (tracked and
# untracked, non-ignored files; the caller's tree is never touched), runs
# `go test -count=1 -failfast` on the packages of the patch's
# `# packages:` header one at a time, stopping at the first that fails,
# reverts the patch and prints one line:
#
#	NN-name: KILLED by TestX (./pkg)
#	NN-name: SURVIVED
#
# then `N killed, M survived`. A kill is checked: the killing tests are
# run again without the patch, and a patch whose killing test fails there
# too counts as SURVIVED (a flaky or environment-bound test proves
# nothing). It exits 1 if any survived or a patch no
# longer applies or builds. Runs one `go test` at a time (the CI machine
# has two cores); PLANTED_LOG=DIR keeps each patch's test output there.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

patches=()
if [ $# -eq 0 ]; then
	patches=(.ci/planted/*.patch)
else
	for a in "$@"; do
		m=(.ci/planted/"${a%.patch}"*.patch)
		[ -e "${m[0]}" ] || { echo "planted: no patch matches $a" >&2; exit 2; }
		patches+=("${m[@]}")
	done
fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/ccsweep-planted.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$scratch" 2>/dev/null
logdir=${PLANTED_LOG:-$scratch/logs}
mkdir -p "$logdir"

killed=0 survived=0 broken=0
for p in "${patches[@]}"; do
	name=$(basename "$p" .patch)
	pkgs=$(sed -n 's/^# packages: *//p' "$p" | head -1)
	if [ -z "$pkgs" ]; then
		echo "$name: ERROR no '# packages:' header"
		broken=$((broken + 1))
		continue
	fi
	if ! git -C "$scratch" apply "$root/$p" 2>"$logdir/$name.apply"; then
		echo "$name: ERROR does not apply ($(head -1 "$logdir/$name.apply"))"
		broken=$((broken + 1))
		continue
	fi
	verdict=SURVIVED
	tests=
	start=$SECONDS
	for pkg in $pkgs; do
		out="$logdir/$name.$(echo "$pkg" | tr -c 'A-Za-z0-9\n' _).log"
		if (cd "$scratch" && go test -count=1 -failfast "$pkg") >"$out" 2>&1; then
			continue
		fi
		if grep -q -e '\[build failed\]' -e '\[setup failed\]' "$out"; then
			verdict="ERROR does not build ($pkg; see $out)"
		else
			tests=$(grep -o '^--- FAIL: [^ ]*' "$out" | sed 's/^--- FAIL: //' | sort -u | paste -sd, -)
			if [ -z "$tests" ] && grep -q '^panic: ' "$out"; then
				tests="a panic"
			fi
			verdict="KILLED by ${tests:-a failing test binary} ($pkg)"
		fi
		break
	done
	git -C "$scratch" apply -R "$root/$p"
	# Control: the killing tests must pass without the patch, or the
	# kill proves nothing (a flaky or environment-bound test).
	if [ "${verdict#KILLED by }" != "$verdict" ] && [ -n "${tests:-}" ] && [ "$tests" != "a panic" ]; then
		if ! (cd "$scratch" && go test -count=1 -run "^($(echo "$tests" | tr , '|'))\$" "$pkg") >"$out.control" 2>&1; then
			verdict="SURVIVED ($tests fails without the patch too; see $out.control)"
		fi
	fi
	echo "$name: $verdict [$((SECONDS - start)) s]"
	case $verdict in
	KILLED*) killed=$((killed + 1)) ;;
	SURVIVED*) survived=$((survived + 1)) ;;
	*) broken=$((broken + 1)) ;;
	esac
done
echo "$killed killed, $survived survived$([ $broken -gt 0 ] && echo ", $broken broken")"
[ $survived -eq 0 ] && [ $broken -eq 0 ]
