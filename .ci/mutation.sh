#!/usr/bin/env bash
# Mutation testing with gremlins (pinned below): .ci/mutation.sh [--dry-run] [PKG...]
# Sampled: .ci/mutation.sh --sample N [--seed S] PKG...
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
#   - -vet=off (in GOFLAGS): go test vets the mutated package before
#     testing it; vet is no test (a mutant that only vet rejects is not
#     killed by the tests) and costs 0.3-0.4 s of CPU per mutant, 12 % of
#     sweep's compile and link (2.7 s of CPU instead of 3.1 s, measured on
#     six rebuilds each). -ldflags=-s (no symbol table or DWARF) made no
#     measurable difference to the link (2.7 s either way), so it is not
#     used; nor is GOGC for the compiler and linker (no difference either).
#   - --workers 1 always: the machine has two cores shared with others.
#   - the mutation build tag (MUT_TAGS) lets slow tests skip themselves;
#     model's, sweep's and sweep/adaptive's tests also run with -short
#     (MUT_SHORT=1 for any package, MUT_SHORT=0 for none): -short skips
#     sweep/adaptive's 20 s refinement run of testbed-s1 (in sweep's tests
#     until the adaptive sweeps left sweep).
#   - MUT_SKIP=REGEX skips those tests (go test -skip, through GOFLAGS;
#     default per package, see defskip);
#     MUT_EXCLUDE=REGEX leaves files out (gremlins --exclude-files, paths
#     relative to the package); MUT_BUDGET=DURATION (timeout(1) syntax,
#     e.g. 45m) stops a package's run and summarizes what it got to.
#   - --sample N [--seed S] (default seed 1): instead of every mutant, a
#     random sample of N of the covered ones, stratified by file, each
#     applied to a copy of its file and tested with go test -overlay by
#     .ci/mutsample (built into $MUT_OUT; the work tree is never modified). The
#     covered mutants come from a gremlins dry run (its coverage run)
#     kept in $MUT_OUT/PKG.dry.log (delete it after changing the code);
#     results go one line per mutant to $MUT_OUT/PKG.sample.txt as they
#     come, and a rerun skips the mutants already there; MUT_FILES=REGEX
#     samples only the files it matches, MUT_ONLY=REGEX runs only the
#     sample's mutants whose "MUTATOR file:line:col" matches (to rerun the
#     LIVED ones after new tests). It prints the efficacy with a
#     Wilson 95 % interval (docs/testing.md, "Sampled runs"). Each mutant
#     runs only the tests that execute its position, per a map built once
#     from one coverage profile per test and cached in
#     $MUT_OUT/PKG.covmap.json (rebuilt when the code changes); a mutant
#     no test executes per the map runs them all. MUT_SELECT=0 runs every
#     test for every mutant.
#   - . (the root package, the command line) runs with --sample only: from
#     the module root gremlins' coverage run takes every package, so MUT_FILES
#     defaults to the root's own files, -short is on and defskip skips store's
#     test that fails under coverage and the root's tests that need a real
#     Slurm, validate, every example or a browser (docs/mutation-log.md, session 15).
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
sample=
seed=1
while [ $# -gt 0 ]; do
	case $1 in
	--dry-run) dry=(--dry-run) ;;
	--sample) sample=$2; shift ;;
	--seed) seed=$2; shift ;;
	*) break ;;
	esac
	shift
done
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
	model) echo 5 ;; # 7 s of tests (-short, defskip) and 7-10 s of compile
	*) echo 3 ;;
	esac
}

# defskip is each package's default MUT_SKIP. store: the test that reopens
# a database as another user re-runs the test binary as that user, who
# cannot write a -cover binary's coverage directory, so it fails under
# gremlins' coverage run. model: its three slowest tests under -short (34
# of its 42 s on one core): the scaled-down fidelity check and the two
# clos648 runs. MUT_SKIP= (set and empty) skips nothing.
defskip() {
	case $1 in
	store) echo '^TestOpenReadOnlyAsAnotherUser$' ;;
	model) echo '^(TestScaledDownFidelityCheck|TestClos648HotspotShowsWhatCCIsFor|TestClos648ConservesAndRepeats)$' ;;
	.) echo 'Slurm|Validate|EveryExample|StopSignals|SchemaExamples|Browser|^TestOpenReadOnlyAsAnotherUser$' ;;
	esac
}

[ -n "$sample" ] || printf '%-12s %7s %6s %6s %9s %11s %10s %9s %9s\n' package mutants killed lived timed_out not_covered not_viable efficacy elapsed | tee -a "$summary"
for pkg in "${pkgs[@]}"; do
	pkg=${pkg#./}
	pkg=${pkg%/}
	[ -d "$pkg" ] || { echo "mutation: no package directory $pkg" >&2; exit 2; }
	name=$(echo "$pkg" | tr / -)
	files=${MUT_FILES:-}
	if [ "$pkg" = . ]; then
		[ -n "$sample" ] || { echo "mutation: the root package runs with --sample only" >&2; exit 2; }
		name=root
		files=${MUT_FILES:-'^[a-z_0-9]+\.go$'}
	fi
	flags="${GOFLAGS:-} -count=1 -vet=off"
	short=${MUT_SHORT:-}
	if [ -z "$short" ] && { [ "$pkg" = model ] || [ "$pkg" = sweep ] || [ "$pkg" = sweep/adaptive ] || [ "$pkg" = . ]; }; then
		short=1
	fi
	if [ "$short" = 1 ]; then
		flags="$flags -short"
	fi
	skip=${MUT_SKIP-$(defskip "$pkg")}
	if [ -n "$skip" ]; then
		flags="$flags -skip=$skip"
	fi
	exclude=()
	if [ -n "${MUT_EXCLUDE:-}" ]; then
		exclude=(--exclude-files "$MUT_EXCLUDE")
	fi
	if [ -n "$sample" ]; then
		drylog=$out/$name.dry.log
		if [ ! -s "$drylog" ]; then
			(cd "$pkg" && GOFLAGS=$flags "$gremlins" unleash --dry-run --workers 1 \
				--tags "${MUT_TAGS:-mutation}" "${exclude[@]}" -o "$out/$name.dry.json") >"$drylog.tmp" 2>&1
			mv "$drylog.tmp" "$drylog"
		fi
		GOFLAGS= go build -o "$out/mutsample" ./.ci/mutsample
		GOFLAGS=$flags "$out/mutsample" -dir "$pkg" -dry "$drylog" -n "$sample" -seed "$seed" \
			-files "$files" -tags "${MUT_TAGS:-mutation}" -coef "${MUT_TIMEOUT_COEF:-$(coef "$pkg")}" \
			-only "${MUT_ONLY:-}" -select="$([ "${MUT_SELECT:-1}" = 0 ] && echo false || echo true)" -cache "$out" -results "$out/$name.sample.txt" -log "$out/$name.sample.log" | tee -a "$out/$name.sample.out"
		continue
	fi
	start=$SECONDS
	status=0
	(cd "$pkg" && GOFLAGS=$flags timeout "${MUT_BUDGET:-0}" "$gremlins" unleash "${dry[@]}" --workers 1 \
		--tags "${MUT_TAGS:-mutation}" \
		--timeout-coefficient "${MUT_TIMEOUT_COEF:-$(coef "$pkg")}" \
		"${exclude[@]}" -o "$out/$name.json") >"$out/$name.log" 2>&1 || status=$?
	elapsed=$((SECONDS - start))
	note=
	if [ $status -eq 124 ]; then
		note=" (partial: MUT_BUDGET=$MUT_BUDGET ran out)"
	elif [ $status -ne 0 ]; then
		echo "mutation: gremlins failed on $pkg (exit $status); see $out/$name.log" >&2
	fi
	# Counts from gremlins' per-mutant lines (also there when a budget cut
	# the run short); efficacy as gremlins defines it, killed / (killed +
	# lived), timed-out mutants set apart. A dry run counts RUNNABLE ones
	# as mutants, none as killed or lived. When MUT_BUDGET stops gremlins it
	# prints "Shutting down gracefully" and then reports the mutant it
	# interrupted as LIVED: nothing after that line is counted.
	awk -v pkg="$pkg" -v el="${elapsed}s$note" '
		/Shutting down/ { stopped = 1 }
		!stopped && /^ *(KILLED|LIVED|TIMED OUT|NOT COVERED|NOT VIABLE|RUNNABLE) [A-Z_]+ at / {
			st = $1; if (st == "TIMED" || st == "NOT") st = st " " $2
			c[st]++; total++
		}
		END {
			k = c["KILLED"] + 0; l = c["LIVED"] + 0
			eff = (k + l > 0) ? sprintf("%.1f%%", 100 * k / (k + l)) : "-"
			printf "%-12s %7d %6d %6d %9d %11d %10d %9s %9s\n", pkg, total, k, l, c["TIMED OUT"], c["NOT COVERED"], c["NOT VIABLE"], eff, el
		}' "$out/$name.log" | tee -a "$summary"
	sed '/Shutting down/q' "$out/$name.log" | grep -E '^ *(LIVED|TIMED OUT) ' | sed "s|^ *|  $pkg: |" || true
done
