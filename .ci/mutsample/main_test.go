package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// at returns the 1-based line and column of the first occurrence of sub
// (plus off bytes) in src.
func at(t *testing.T, src, sub string, off int) (int, int) {
	t.Helper()
	i := strings.Index(src, sub)
	if i < 0 {
		t.Fatalf("%q not in source", sub)
	}
	i += off
	line := strings.Count(src[:i], "\n") + 1
	col := i - strings.LastIndex(src[:i], "\n")
	return line, col
}

// printed is what go/printer makes of src unchanged: gremlins writes the
// whole file through it, so a mutant is this text with one token changed.
func printed(t *testing.T, src string) string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := printer.Fprint(&b, fset, f); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

const applySrc = `package x

// F mixes every kind of token gremlins mutates.
func F(a, b int, s string) (int, string) {
	if a < b && a != 0 { // a comment that printer keeps
		a++
	}
	c := a - b*2
	c = -c
	for i := 0; i <= 3; i++ {
		c %= 7
	}
	return a / (b + 1) % 5, s + "!"
}
`

func TestApplyReplacesOneTokenAsGremlinsDoes(t *testing.T) {
	base := printed(t, applySrc)
	cases := []struct {
		mutator   string
		find      string // the text around the token, first occurrence
		off       int    // the token's offset in find
		from, to  string // find with the token replaced, as printed
		wantError bool
	}{
		{"CONDITIONALS_BOUNDARY", "a < b", 2, "a < b", "a <= b", false},
		{"CONDITIONALS_NEGATION", "a < b", 2, "a < b", "a >= b", false},
		{"CONDITIONALS_NEGATION", "a != 0", 2, "a != 0", "a == 0", false},
		{"CONDITIONALS_BOUNDARY", "i <= 3", 2, "i <= 3", "i < 3", false},
		{"CONDITIONALS_NEGATION", "i <= 3", 2, "i <= 3", "i > 3", false},
		{"INCREMENT_DECREMENT", "a++", 1, "a++", "a--", false},
		{"INCREMENT_DECREMENT", "i++", 1, "i++", "i--", false},
		{"ARITHMETIC_BASE", "a - b", 2, "a - b", "a + b", false},
		{"ARITHMETIC_BASE", "b*2", 1, "b*2", "b/2", false},
		{"INVERT_NEGATIVES", "-c", 0, "c = -c", "c = +c", false},
		{"ARITHMETIC_BASE", "-c", 0, "c = -c", "c = +c", false},
		{"ARITHMETIC_BASE", "a / (", 2, "a / (b + 1) % 5", "a * (b + 1) % 5", false},
		{"ARITHMETIC_BASE", "b + 1", 2, "(b + 1)", "(b - 1)", false},
		{"ARITHMETIC_BASE", ") % 5", 2, "1) % 5", "1) * 5", false},
		{"ARITHMETIC_BASE", `s + "!"`, 2, `s + "!"`, `s - "!"`, false},
		{"INVERT_LOGICAL", "&& a", 0, "b && a", "b || a", false},
		{"REMOVE_SELF_ASSIGNMENTS", "c %= 7", 2, "c %= 7", "c = 7", false},
		// gremlins' own table maps %= to itself under INVERT_ASSIGNMENTS.
		{"INVERT_ASSIGNMENTS", "c %= 7", 2, "c %= 7", "c %= 7", false},
		// No such mutator for that token, or no token there.
		{"CONDITIONALS_BOUNDARY", "a != 0", 2, "", "", true},
		{"ARITHMETIC_BASE", "a < b", 0, "", "", true},
		{"NO_SUCH_MUTATOR", "a < b", 2, "", "", true},
	}
	for _, c := range cases {
		t.Run(c.mutator+"/"+c.find, func(t *testing.T) {
			line, col := at(t, applySrc, c.find, c.off)
			got, err := Apply("x.go", []byte(applySrc), Mutant{Type: c.mutator, File: "x.go", Line: line, Col: col})
			if c.wantError {
				if err == nil {
					t.Fatalf("no error; got\n%s", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(base, c.from) {
				t.Fatalf("%q not in the printed source", c.from)
			}
			want := strings.Replace(base, c.from, c.to, 1)
			if string(got) != want {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
}

func TestParseDryRun(t *testing.T) {
	out := "Starting...\nGathering coverage... done in 1.2s\n" +
		"    RUNNABLE CONDITIONALS_NEGATION at app.go:218:13\n" +
		" NOT COVERED ARITHMETIC_BASE at app.go:20:5\n" +
		"    \x1b[92mRUNNABLE\x1b[0m INVERT_NEGATIVES at atomicfile/atomicfile.go:76:9\n" +
		"      KILLED ARITHMETIC_BASE at x.go:1:1\n" +
		"Dry run completed.\n"
	cov, nc, err := ParseDryRun(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	want := []Mutant{
		{"CONDITIONALS_NEGATION", "app.go", 218, 13},
		{"INVERT_NEGATIVES", "atomicfile/atomicfile.go", 76, 9},
	}
	if fmt.Sprint(cov) != fmt.Sprint(want) || nc != 1 {
		t.Errorf("got %v, %d not covered; want %v, 1", cov, nc, want)
	}
}

func population(sizes map[string]int) []Mutant {
	var ms []Mutant
	for f, n := range sizes {
		for i := 1; i <= n; i++ {
			ms = append(ms, Mutant{Type: "ARITHMETIC_BASE", File: f, Line: i, Col: 1})
		}
	}
	return ms
}

func TestSampleAllocatesByFileAndIsSeeded(t *testing.T) {
	sizes := map[string]int{"a.go": 10, "b.go": 7, "c.go": 3}
	pop := population(sizes)
	// n=5 of N=20: shares 2.5, 1.75, 0.75; floors 2, 1, 0 and the two left
	// over go to the largest remainders, b.go and c.go (0.75 each).
	want := map[string]int{"a.go": 2, "b.go": 2, "c.go": 1}
	s := Sample(pop, 5, 7)
	got := map[string]int{}
	seen := map[string]bool{}
	for _, m := range s {
		got[m.File]++
		if seen[m.Key()] {
			t.Errorf("%s drawn twice", m.Key())
		}
		seen[m.Key()] = true
		if m.Line < 1 || m.Line > sizes[m.File] {
			t.Errorf("%s not in the population", m.Key())
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("per file %v, want %v", got, want)
	}
	if fmt.Sprint(Sample(pop, 5, 7)) != fmt.Sprint(s) {
		t.Error("same seed, different sample")
	}
	differs := false
	for seed := uint64(8); seed < 18; seed++ {
		differs = differs || fmt.Sprint(Sample(pop, 5, seed)) != fmt.Sprint(s)
	}
	if !differs {
		t.Error("ten other seeds all draw the same sample")
	}
	if all := Sample(pop, 25, 1); len(all) != 20 {
		t.Errorf("n > N: %d drawn, want all 20", len(all))
	}
	// The input order does not matter (gremlins' output order may vary).
	rev := append([]Mutant(nil), pop...)
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	if fmt.Sprint(Sample(rev, 5, 7)) != fmt.Sprint(s) {
		t.Error("the sample depends on the order of the dry run's lines")
	}
}

func TestSampleIsUniformWithinAFile(t *testing.T) {
	pop := population(map[string]int{"a.go": 10, "b.go": 10})
	const runs = 4000
	count := map[string]int{}
	for seed := uint64(0); seed < runs; seed++ {
		for _, m := range Sample(pop, 6, seed) {
			count[m.Key()]++
		}
	}
	// Each of the 20 is drawn with probability 3/10; the count is binomial
	// (4000, 0.3), sd 29: allow 5 sd.
	for _, m := range pop {
		if c := count[m.Key()]; math.Abs(float64(c)-0.3*runs) > 5*29 {
			t.Errorf("%s drawn %d times of %d, want about %d", m.Key(), c, runs, int(0.3*runs))
		}
	}
}

func TestWilson(t *testing.T) {
	const z = 1.959964
	// Closed forms: k=0 gives [0, z²/(n+z²)], k=n gives [n/(n+z²), 1];
	// 5 of 10 is symmetric about 1/2.
	cases := []struct {
		k, n   int
		lo, hi float64
	}{
		{0, 10, 0, z * z / (10 + z*z)},
		{10, 10, 10 / (10 + z*z), 1},
		{5, 10, 0.2366, 0.7634},
		{90, 100, 0.8256, 0.9448},
	}
	for _, c := range cases {
		lo, hi := Wilson(c.k, c.n, z)
		if math.Abs(lo-c.lo) > 1e-4 || math.Abs(hi-c.hi) > 1e-4 {
			t.Errorf("Wilson(%d, %d) = [%.4f, %.4f], want [%.4f, %.4f]", c.k, c.n, lo, hi, c.lo, c.hi)
		}
	}
}

func TestResultsFileRoundTrip(t *testing.T) {
	p := filepath.Join(t.TempDir(), "r.txt")
	body := "# baseline 12.5s of the unmutated tests\n" +
		"KILLED\tARITHMETIC_BASE\tcc.go:63:12\t20.1\t3.2\n" +
		"TIMED OUT\tINCREMENT_DECREMENT\tq.go:1:2\t99.0\t3.0\n"
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	done, base, err := ReadResults(p)
	if err != nil {
		t.Fatal(err)
	}
	if base != 12500*time.Millisecond || done["ARITHMETIC_BASE cc.go:63:12"] != Killed ||
		done["INCREMENT_DECREMENT q.go:1:2"] != TimedOut || len(done) != 2 {
		t.Errorf("got %v, baseline %v", done, base)
	}
}

// TestTableIsGremlins compares tokenMutations with gremlins v0.6.0's own
// table in the module cache: .ci/mutation.sh installs gremlins, so it is
// there wherever the runner has been used. Without it the test skips on a
// laptop and fails when CI=true.
func TestTableIsGremlins(t *testing.T) {
	missing := func(format string, args ...any) {
		t.Helper()
		if os.Getenv("CI") == "true" {
			t.Fatalf(format, args...)
		}
		t.Skipf(format, args...)
	}
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		missing("go env GOMODCACHE: %v", err)
	}
	path := filepath.Join(strings.TrimSpace(string(out)), "github.com/go-gremlins/gremlins@v0.6.0/internal/engine/mappings.go")
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, 0)
	if err != nil {
		missing("gremlins v0.6.0 not in the module cache: %v", err)
	}
	names := map[string]string{
		"ArithmeticBase": "ARITHMETIC_BASE", "ConditionalsBoundary": "CONDITIONALS_BOUNDARY",
		"ConditionalsNegation": "CONDITIONALS_NEGATION", "IncrementDecrement": "INCREMENT_DECREMENT",
		"InvertAssignments": "INVERT_ASSIGNMENTS", "InvertBitwise": "INVERT_BITWISE",
		"InvertBitwiseAssignments": "INVERT_BWASSIGN", "InvertLogical": "INVERT_LOGICAL",
		"InvertLoopCtrl": "INVERT_LOOPCTRL", "InvertNegatives": "INVERT_NEGATIVES",
		"RemoveSelfAssignments": "REMOVE_SELF_ASSIGNMENTS",
	}
	theirs := map[string]string{}
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || vs.Names[0].Name != "tokenMutations" {
			return true
		}
		for _, e := range vs.Values[0].(*ast.CompositeLit).Elts {
			kv := e.(*ast.KeyValueExpr)
			typ := names[kv.Key.(*ast.SelectorExpr).Sel.Name]
			for _, e2 := range kv.Value.(*ast.CompositeLit).Elts {
				kv2 := e2.(*ast.KeyValueExpr)
				theirs[typ+" "+kv2.Key.(*ast.SelectorExpr).Sel.Name] = kv2.Value.(*ast.SelectorExpr).Sel.Name
			}
		}
		return false
	})
	ours := map[string]string{}
	for typ, m := range tokenMutations {
		for from, to := range m {
			ours[typ+" "+tokenName(from)] = tokenName(to)
		}
	}
	if len(theirs) == 0 || fmt.Sprint(ours) != fmt.Sprint(theirs) {
		t.Errorf("ours\n%v\ngremlins'\n%v", ours, theirs)
	}
}

// tokenName is a token's constant name in go/token.
func tokenName(t token.Token) string {
	names := map[token.Token]string{
		token.ADD: "ADD", token.SUB: "SUB", token.MUL: "MUL", token.QUO: "QUO", token.REM: "REM",
		token.GEQ: "GEQ", token.GTR: "GTR", token.LEQ: "LEQ", token.LSS: "LSS", token.EQL: "EQL", token.NEQ: "NEQ",
		token.INC: "INC", token.DEC: "DEC", token.ADD_ASSIGN: "ADD_ASSIGN", token.SUB_ASSIGN: "SUB_ASSIGN",
		token.MUL_ASSIGN: "MUL_ASSIGN", token.QUO_ASSIGN: "QUO_ASSIGN", token.REM_ASSIGN: "REM_ASSIGN",
		token.AND: "AND", token.OR: "OR", token.XOR: "XOR", token.AND_NOT: "AND_NOT", token.SHL: "SHL", token.SHR: "SHR",
		token.AND_ASSIGN: "AND_ASSIGN", token.OR_ASSIGN: "OR_ASSIGN", token.XOR_ASSIGN: "XOR_ASSIGN",
		token.AND_NOT_ASSIGN: "AND_NOT_ASSIGN", token.SHL_ASSIGN: "SHL_ASSIGN", token.SHR_ASSIGN: "SHR_ASSIGN",
		token.LAND: "LAND", token.LOR: "LOR", token.BREAK: "BREAK", token.CONTINUE: "CONTINUE", token.ASSIGN: "ASSIGN",
	}
	if n, ok := names[t]; ok {
		return n
	}
	return t.String()
}

// TestRunFixture runs four known mutants of testdata/fixture end to end,
// with every test and with the tests selected by coverage: two its tests
// kill, one equivalent (LIVED), one that does not compile.
func TestRunFixture(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the fixture nine times")
	}
	root, err := filepath.Abs("testdata/fixture")
	if err != nil {
		t.Fatal(err)
	}
	srcPath := filepath.Join(root, "fixture.go")
	src, err := os.ReadFile(srcPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOFLAGS", "-count=1 -vet=off")
	r := &Runner{Root: root, Dir: ".", Timeout: time.Minute, Tmp: t.TempDir()}
	sel := &Selector{Root: root, Tmp: t.TempDir(), Timeout: time.Minute}
	for _, c := range []struct {
		mutator, find string
		off           int
		want          string
		tests         []string // selected
	}{
		{"INVERT_NEGATIVES", "return -x", 7, Killed, []string{"TestAbs"}},
		{"CONDITIONALS_BOUNDARY", "x < 0", 2, Lived, []string{"TestAbs"}},
		{"ARITHMETIC_BASE", `"hello, " + name`, 10, NotViable, []string{"TestAbs"}},
		{"ARITHMETIC_BASE", "x * 2", 2, Killed, []string{"TestDouble"}},
	} {
		line, col := at(t, string(src), c.find, c.off)
		m := Mutant{Type: c.mutator, File: "fixture.go", Line: line, Col: col}
		for _, s := range []*Selector{nil, sel} {
			r.Select = s
			tests, err := r.Tests(m)
			if err != nil {
				t.Fatal(err)
			}
			if want := map[bool][]string{false: nil, true: c.tests}[s != nil]; !slices.Equal(tests, want) {
				t.Errorf("%s, selection %v: tests %q, want %q", m.Key(), s != nil, tests, want)
			}
			got, _, err := r.Run(m)
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Errorf("%s, selection %v: %s, want %s", m.Key(), s != nil, got, c.want)
			}
		}
	}
	after, err := os.ReadFile(srcPath)
	if err != nil || !bytes.Equal(after, src) {
		t.Errorf("the fixture's file changed on disk (err %v)", err)
	}
}

func TestRunOrderIsAShuffledSample(t *testing.T) {
	pop := population(map[string]int{"a.go": 30, "b.go": 30})
	s := Sample(pop, 20, 3)
	o := RunOrder(s, 3)
	if len(o) != len(s) {
		t.Fatalf("%d in the run order, %d in the sample", len(o), len(s))
	}
	in := map[string]bool{}
	for _, m := range s {
		in[m.Key()] = true
	}
	firstHalfB := 0
	for i, m := range o {
		if !in[m.Key()] {
			t.Errorf("%s is not in the sample", m.Key())
		}
		delete(in, m.Key())
		if i < 10 && m.File == "b.go" {
			firstHalfB++
		}
	}
	// The sample is sorted by file (ten of a.go, then ten of b.go); its
	// run order must not be.
	if fmt.Sprint(o) == fmt.Sprint(s) || firstHalfB == 0 {
		t.Errorf("run order %v keeps the sample's file order", o)
	}
	if fmt.Sprint(RunOrder(s, 3)) != fmt.Sprint(o) {
		t.Error("same seed, different run order")
	}
}
