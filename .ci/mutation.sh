#!/usr/bin/env bash
# Mutation testing with gremlins (pinned below): .ci/mutation.sh [--dry-run] [PKG...]
#
# PKG is a package directory (engine, store, grids, report/rank, sweep,
# model; default: all six, in that order, model last). For each, it runs
# `gremlins unleash` from the package's directory (so the package and those
# below it, e.g. store/atomicfile, are mutated and each mutant is tested
# with `go test -failfast` of its own package only), one worker, and prints
# one summary line; the summaries also go to $MUT_OUT/summary.txt and the
# full per-mutant results to $MUT_OUT/PKG.json and PKG.log (MUT_OUT
# defaults to ./mutation-out, which git ignores). Not part of CI: a run
# over engine, store, grids and report/rank takes tens of minutes on two
# cores, sweep and model hours (docs/testing.md, "Mutation testing").
#
# Settings that make it work here:
#   - GOFLAGS gets -count=1: gremlins times its coverage run to set each
#     mutant's timeout, and a cached coverage run (milliseconds) would time
#     every mutant out.
#   - --timeout-coefficient (MUT_TIMEOUT_COEF, default per package below):
#     a mutant's timeout is the coefficient times the coverage run, and a
#     mutant also pays a compile that the coverage run did not.
#   - --workers 1 always: the machine has two cores shared with others.
#   - the mutation build tag (MUT_TAGS) lets slow tests skip themselves;
#     model's tests also run with -short (MUT_SHORT=1 for any package).
#   - --test-cpu is not used: gremlins 0.6.0 passes it as one malformed
#     argument ("-cpu 1").
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

version=v0.6.0
gobin=$(go env GOBIN)
gobin=${gobin:-$(go env GOPATH)/bin}
gremlins=$gobin/gremlins
if ! go version -m "$gremlins" 2>/dev/null | grep -Eq "^\s+mod\s+github.com/go-gremlins/gremlins\s+$version\b"; then
	echo "mutation: installing gremlins $version" >&2
	GOFLAGS= go install "github.com/go-gremlins/gremlins/cmd/gremlins@$version"
fi

dry=()
if [ "${1:-}" = --dry-run ]; then
	dry=(--dry-run)
	shift
fi
pkgs=("$@")
[ ${#pkgs[@]} -gt 0 ] || pkgs=(engine store grids report/rank sweep model)

out=${MUT_OUT:-$root/mutation-out}
mkdir -p "$out"
summary=$out/summary.txt

# coef is each package's default --timeout-coefficient: the small packages'
# coverage runs take a second or two, less than a mutant's compile.
coef() {
	case $1 in
	engine | report/rank | grids) echo 12 ;;
	store) echo 6 ;;
	*) echo 3 ;;
	esac
}

printf '%-12s %7s %6s %6s %9s %11s %10s %9s %9s\n' package mutants killed lived timed_out not_covered not_viable efficacy elapsed | tee -a "$summary"
for pkg in "${pkgs[@]}"; do
	pkg=${pkg#./}
	pkg=${pkg%/}
	[ -d "$pkg" ] || { echo "mutation: no package directory $pkg" >&2; exit 2; }
	name=$(echo "$pkg" | tr / -)
	flags="${GOFLAGS:-} -count=1"
	if [ "${MUT_SHORT:-}" = 1 ] || [ "$pkg" = model ]; then
		flags="$flags -short"
	fi
	start=$SECONDS
	(cd "$pkg" && GOFLAGS=$flags "$gremlins" unleash "${dry[@]}" --workers 1 \
		--tags "${MUT_TAGS:-mutation}" \
		--timeout-coefficient "${MUT_TIMEOUT_COEF:-$(coef "$pkg")}" \
		-o "$out/$name.json") >"$out/$name.log" 2>&1 ||
		echo "mutation: gremlins failed on $pkg; see $out/$name.log" >&2
	elapsed=$((SECONDS - start))
	[ -s "$out/$name.json" ] || continue
	# Counts from the per-mutant statuses; efficacy as gremlins defines it,
	# killed / (killed + lived), timed-out mutants set apart.
	jq -r --arg pkg "$pkg" --arg el "${elapsed}s" '
		[.files[].mutations[].status] as $s
		| def n(x): [$s[] | select(. == x)] | length;
		  (n("KILLED")) as $k | (n("LIVED")) as $l
		| [$pkg, ($s | length), $k, $l, n("TIMED OUT"), n("NOT COVERED"), n("NOT VIABLE"),
		   (if $k + $l > 0 then ($k * 1000 / ($k + $l) | floor / 10 | tostring) + "%" else "-" end), $el]
		| @tsv' "$out/$name.json" |
		awk -F'\t' '{printf "%-12s %7s %6s %6s %9s %11s %10s %9s %9s\n", $1, $2, $3, $4, $5, $6, $7, $8, $9}' | tee -a "$summary"
	grep -E '^ *(LIVED|TIMED OUT) ' "$out/$name.log" | sed "s|^ *|  $pkg: |" || true
done
