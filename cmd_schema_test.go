package main

import (
	"encoding/csv"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The examples of docs/schema.md run against a real database: each must
// print what ccsweep export says the database holds. sqlite3 and pandas
// (Debian's sqlite3 and python3-pandas; .ci/schema-deps.sh installs them)
// skip the test when missing, except in CI (CI=true), where it fails.

// needTool skips the test, or fails it in CI, when a tool is missing.
func needTool(t *testing.T, what string, err error) {
	t.Helper()
	if err == nil {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s: %v (run .ci/schema-deps.sh)", what, err)
	}
	t.Skipf("%s: %v (run .ci/schema-deps.sh)", what, err)
}

// schemaExample returns the n-th fenced block of docs/schema.md whose
// info string is lang.
func schemaExample(t *testing.T, lang string, n int) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("docs", "schema.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?ms)^```"+lang+"\n(.*?)^```$").FindAllStringSubmatch(string(b), -1)
	if len(blocks) <= n {
		t.Fatalf("docs/schema.md has %d %s blocks, want %d", len(blocks), lang, n+1)
	}
	return blocks[n][1]
}

// schemaDB runs reportGrid (4 points, grid "rep") into dir/results.db and
// returns dir with what ccsweep export prints.
func schemaDB(t *testing.T) (dir string, points, series [][]string) {
	t.Helper()
	grid := writeGrid(t, reportGrid)
	dir = filepath.Dir(grid)
	db := filepath.Join(dir, "results.db")
	if out, stderr, code := ccsweep(t, "run", grid, "--db", db, "-j", "2", "--quiet", "--no-report"); code != 0 {
		t.Fatalf("run: exit %d\n%s%s", code, out, stderr)
	}
	read := func(args ...string) [][]string {
		out, stderr, code := ccsweep(t, append([]string{"export", db}, args...)...)
		if code != 0 {
			t.Fatalf("export %v: exit %d %s", args, code, stderr)
		}
		r, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	return dir, read(), read("--series")
}

// column returns the values of the named column of records.
func column(t *testing.T, records [][]string, name string) []string {
	t.Helper()
	i := slices.Index(records[0], name)
	if i < 0 {
		t.Fatalf("no column %s in %v", name, records[0])
	}
	var out []string
	for _, r := range records[1:] {
		out = append(out, r[i])
	}
	return out
}

func TestSchemaExamples(t *testing.T) {
	dir, points, series := schemaDB(t)
	timers, rates := column(t, points, "ccti_timer"), column(t, points, "marking_rate")
	seeds, victims := column(t, points, "seed"), column(t, points, "victim_gbps")

	t.Run("sqlite3", func(t *testing.T) {
		bin, err := exec.LookPath("sqlite3")
		needTool(t, "sqlite3", err)
		cmd := exec.Command(bin, "-readonly", "results.db")
		cmd.Dir, cmd.Stdin = dir, strings.NewReader(schemaExample(t, "sql", 0))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("sqlite3: %v\n%s", err, out)
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		if len(lines) != len(victims) {
			t.Fatalf("sqlite3 prints %d rows, export %d:\n%s", len(lines), len(victims), out)
		}
		last := math.Inf(1)
		for _, line := range lines {
			f := strings.Split(line, "|")
			v, err := strconv.ParseFloat(f[len(f)-1], 64)
			if err != nil || len(f) != 4 || v > last {
				t.Fatalf("row %q: not timer|rate|seed|victim, best first", line)
			}
			last = v
			found := false
			for i := range victims {
				want, _ := strconv.ParseFloat(victims[i], 64)
				found = found || (f[0] == timers[i] && f[1] == rates[i] && f[2] == seeds[i] && math.Abs(v-want) <= 5e-7)
			}
			if !found {
				t.Errorf("sqlite3 row %q is no point that export prints", line)
			}
		}
	})

	t.Run("pandas", func(t *testing.T) {
		python := pythonWith(t, "pandas")
		cmd := exec.Command(python, "-c", schemaExample(t, "python", 0))
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("python: %v\n%s", err, out)
		}
		// What export says: the mean victim throughput by marking rate, the
		// series' row count and each flow's mean throughput.
		want := map[string]float64{}
		sum, n := map[string]float64{}, map[string]int{}
		for i, r := range rates {
			v, _ := strconv.ParseFloat(victims[i], 64)
			sum["rate "+r] += v
			n["rate "+r]++
		}
		flows, gbps := column(t, series, "flow"), column(t, series, "gbps")
		for i, f := range flows {
			v, _ := strconv.ParseFloat(gbps[i], 32)
			sum["flow "+f] += float64(float32(v))
			n["flow "+f]++
		}
		for k := range sum {
			want[k] = sum[k] / float64(n[k])
		}
		got := map[string]float64{}
		section := ""
		pair := regexp.MustCompile(`^(\S+)\s+(\S+)$`)
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			switch m := pair.FindStringSubmatch(line); {
			case line == "marking_rate":
				section = "rate "
			case line == "flow":
				section = "flow "
			case m != nil && section != "":
				got[section+m[1]], _ = strconv.ParseFloat(m[2], 64)
			default:
				if rows, err := strconv.Atoi(line); err == nil {
					got["rows"] = float64(rows)
				}
			}
		}
		want["rows"] = float64(len(flows))
		if len(got) != len(want) {
			t.Errorf("pandas printed %v, want %v\n%s", got, want, out)
		}
		for k, w := range want {
			if g, ok := got[k]; !ok || math.Abs(g-w) > 1e-4 {
				t.Errorf("%s: pandas %v (printed %v), export %v\n%s", k, g, ok, w, out)
			}
		}
	})
}

// pythonWith returns a Python interpreter that imports module:
// $CCSWEEP_PYTHON, python3 or /usr/bin/python3 (Debian's, where apt puts
// python3-pandas).
func pythonWith(t *testing.T, module string) string {
	t.Helper()
	var tried []string
	for _, p := range []string{os.Getenv("CCSWEEP_PYTHON"), "python3", "/usr/bin/python3"} {
		if p == "" {
			continue
		}
		if err := exec.Command(p, "-c", "import importlib.util, sys; sys.exit(importlib.util.find_spec(\""+module+"\") is None)").Run(); err == nil {
			return p
		}
		tried = append(tried, p)
	}
	needTool(t, module, &exec.Error{Name: strings.Join(tried, ", "), Err: exec.ErrNotFound})
	return ""
}
