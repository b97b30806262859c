package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
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
// print what ccsweep export says the database holds. sqlite3, pandas and
// DuckDB (Debian's sqlite3 and python3-pandas, DuckDB's Node.js client from
// npm; .ci/schema-deps.sh installs them) skip the test when missing, except
// in CI (CI=true), where it fails.

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

	t.Run("duckdb", func(t *testing.T) {
		node, module := duckdbClient(t)
		// The export commands the page shows, in the database's directory.
		db := filepath.Join(dir, "results.db")
		for _, args := range [][]string{
			{"export", db, "-o", filepath.Join(dir, "points.csv")},
			{"export", db, "--series", "-o", filepath.Join(dir, "series.csv")},
		} {
			if _, stderr, code := ccsweep(t, args...); code != 0 {
				t.Fatalf("%v: exit %d %s", args, code, stderr)
			}
		}
		cmd := exec.Command(node, "-e", duckdbRunner, module)
		cmd.Dir, cmd.Stdin = dir, strings.NewReader(schemaExample(t, "sql", 1))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("duckdb: %v\n%s", err, out)
		}
		var results [2][]map[string]any
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		if len(lines) != 2 {
			t.Fatalf("duckdb printed %d results, want 2:\n%s", len(lines), out)
		}
		for i, line := range lines {
			if err := json.Unmarshal([]byte(line), &results[i]); err != nil {
				t.Fatalf("result %d: %v\n%s", i, err, line)
			}
		}
		// What export says: the mean victim throughput by marking rate (best
		// first) and each flow's mean over the series (in flow order).
		mean := func(keys, values []string) map[string]float64 {
			sum, n := map[string]float64{}, map[string]int{}
			for i, k := range keys {
				v, _ := strconv.ParseFloat(values[i], 64)
				sum[k] += v
				n[k]++
			}
			for k := range sum {
				sum[k] /= float64(n[k])
			}
			return sum
		}
		check := func(what string, rows []map[string]any, key, value string, want map[string]float64, order func(a, b map[string]any) bool) {
			if len(rows) != len(want) {
				t.Errorf("%s: duckdb gives %d rows, export %d: %v", what, len(rows), len(want), rows)
			}
			for i, r := range rows {
				k, v := fmt.Sprint(r[key]), toFloat(r[value])
				if w, ok := want[k]; !ok || math.Abs(v-w) > 1e-9*max(1, math.Abs(w)) {
					t.Errorf("%s %s: duckdb %v, export %v (%v)", what, k, v, w, ok)
				}
				if i > 0 && !order(rows[i-1], r) {
					t.Errorf("%s: rows out of order: %v before %v", what, rows[i-1], r)
				}
			}
		}
		check("marking_rate", results[0], "marking_rate", "victim_gbps", mean(rates, victims),
			func(a, b map[string]any) bool { return toFloat(a["victim_gbps"]) >= toFloat(b["victim_gbps"]) })
		check("flow", results[1], "flow", "gbps", mean(column(t, series, "flow"), column(t, series, "gbps")),
			func(a, b map[string]any) bool { return fmt.Sprint(a["flow"]) < fmt.Sprint(b["flow"]) })
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

// duckdbRunner runs the SQL on its standard input in DuckDB, statement by
// statement (statements end with a semicolon at the end of a line), and
// prints each one's rows as a JSON array on a line of its own.
const duckdbRunner = `
const { DuckDBInstance } = require(process.argv[1]);
(async () => {
	const sql = require("fs").readFileSync(0, "utf8");
	const con = await (await DuckDBInstance.create(":memory:")).connect();
	for (const stmt of sql.split(/;[ \t]*\n/)) {
		if (stmt.replace(/--.*$/gm, "").trim() === "") continue;
		const res = await con.runAndReadAll(stmt);
		console.log(JSON.stringify(res.getRowObjectsJson()));
	}
})().catch((e) => { console.error(String(e)); process.exit(1); });
`

// duckdbClient returns node and the path of DuckDB's Node.js client,
// @duckdb/node-api, installed by .ci/schema-deps.sh in $CCSWEEP_DUCKDB
// (default /usr/local/lib/ccsweep-duckdb).
func duckdbClient(t *testing.T) (node, module string) {
	t.Helper()
	node, err := exec.LookPath("node")
	needTool(t, "node", err)
	dir := os.Getenv("CCSWEEP_DUCKDB")
	if dir == "" {
		dir = "/usr/local/lib/ccsweep-duckdb"
	}
	module = filepath.Join(dir, "node_modules", "@duckdb", "node-api")
	_, err = os.Stat(filepath.Join(module, "package.json"))
	needTool(t, "DuckDB's @duckdb/node-api", err)
	return node, module
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

// toFloat reads a number DuckDB's JSON rows give as a number or, for wide
// integers, as a string.
func toFloat(v any) float64 {
	f, err := strconv.ParseFloat(fmt.Sprint(v), 64)
	if err != nil {
		return math.NaN()
	}
	return f
}
