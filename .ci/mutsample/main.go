// Command mutsample measures a package's mutation efficacy on a random
// sample of its covered mutants instead of all of them.
//
// It reads the per-mutant lines of a gremlins v0.6.0 dry run
// ("RUNNABLE ARITHMETIC_BASE at cc.go:63:12", positions relative to the
// package directory), draws -n of the RUNNABLE (covered) ones with a seeded
// PRNG, stratified by file with proportional allocation, applies each mutant
// exactly as gremlins does (the token at that position replaced by gremlins'
// table, the file printed back with go/printer) to a copy of the file in a
// temporary directory, and runs
//
//	go test -overlay=OVERLAY -failfast -timeout T [-tags TAGS] ./PKGDIR
//
// from the module root, PKGDIR being the mutated file's own directory (as
// gremlins tests the mutated file's package only). With -select (the
// default) the command gets -run '^(T1|T2|...)$', the top-level tests that
// execute the mutant's position per a coverage map of the package (select.go:
// the package's test binary built once with -cover, each test run alone
// with -coverprofile, cached in the -cache directory under a digest of the
// binary, the testdata and the test flags); a mutant whose position no test
// executes per the map, or a package with a test that fails alone, runs
// every test. GOFLAGS (-count=1,
// -vet=off, -short, -skip, as .ci/mutation.sh sets them) come from the
// environment. The work tree is never written: a kill mid-run leaves nothing
// behind.
//
// Each result is appended to the -results file as soon as it is known, one
// tab-separated line: status, mutator, position, seconds. A rerun with the
// same sample skips the mutants already in the file. Statuses: KILLED (the
// tests failed), LIVED (they passed), TIMED OUT (they ran past the timeout),
// NOT VIABLE (the mutant did not compile: gremlins counts those as KILLED,
// here they are left out), ERROR (go test failed otherwise; not counted).
//
// At the end it prints the counts and efficacy = killed / (killed + lived)
// with a Wilson 95 % score interval, and the LIVED mutants with their
// mutated line.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Mutant is one gremlins mutant: a mutator applied at one token.
type Mutant struct {
	Type string // gremlins' mutator name, e.g. ARITHMETIC_BASE
	File string // slash-separated path relative to the package directory
	Line int
	Col  int
}

// Pos is the mutant's position as gremlins prints it: file:line:col.
func (m Mutant) Pos() string { return fmt.Sprintf("%s:%d:%d", m.File, m.Line, m.Col) }

// Key identifies the mutant in a results file.
func (m Mutant) Key() string { return m.Type + " " + m.Pos() }

// tokenMutations is gremlins v0.6.0's table (internal/engine/mappings.go)
// for every mutator type, enabled by default or not: the token a mutator
// replaces and what it puts in its place.
var tokenMutations = map[string]map[token.Token]token.Token{
	"ARITHMETIC_BASE": {
		token.ADD: token.SUB,
		token.MUL: token.QUO,
		token.QUO: token.MUL,
		token.REM: token.MUL,
		token.SUB: token.ADD,
	},
	"CONDITIONALS_BOUNDARY": {
		token.GEQ: token.GTR,
		token.GTR: token.GEQ,
		token.LEQ: token.LSS,
		token.LSS: token.LEQ,
	},
	"CONDITIONALS_NEGATION": {
		token.EQL: token.NEQ,
		token.GEQ: token.LSS,
		token.GTR: token.LEQ,
		token.LEQ: token.GTR,
		token.LSS: token.GEQ,
		token.NEQ: token.EQL,
	},
	"INCREMENT_DECREMENT": {
		token.DEC: token.INC,
		token.INC: token.DEC,
	},
	"INVERT_ASSIGNMENTS": {
		token.ADD_ASSIGN: token.SUB_ASSIGN,
		token.MUL_ASSIGN: token.QUO_ASSIGN,
		token.QUO_ASSIGN: token.MUL_ASSIGN,
		token.REM_ASSIGN: token.REM_ASSIGN,
		token.SUB_ASSIGN: token.ADD_ASSIGN,
	},
	"INVERT_BITWISE": {
		token.AND:     token.OR,
		token.OR:      token.AND,
		token.XOR:     token.AND,
		token.AND_NOT: token.AND,
		token.SHL:     token.SHR,
		token.SHR:     token.SHL,
	},
	"INVERT_BWASSIGN": {
		token.AND_ASSIGN:     token.OR_ASSIGN,
		token.OR_ASSIGN:      token.AND_ASSIGN,
		token.XOR_ASSIGN:     token.AND_ASSIGN,
		token.AND_NOT_ASSIGN: token.AND_ASSIGN,
		token.SHL_ASSIGN:     token.SHR_ASSIGN,
		token.SHR_ASSIGN:     token.SHL_ASSIGN,
	},
	"INVERT_LOGICAL": {
		token.LAND: token.LOR,
		token.LOR:  token.LAND,
	},
	"INVERT_LOOPCTRL": {
		token.BREAK:    token.CONTINUE,
		token.CONTINUE: token.BREAK,
	},
	"INVERT_NEGATIVES": {
		token.SUB: token.ADD,
	},
	"REMOVE_SELF_ASSIGNMENTS": {
		token.ADD_ASSIGN:     token.ASSIGN,
		token.AND_ASSIGN:     token.ASSIGN,
		token.AND_NOT_ASSIGN: token.ASSIGN,
		token.MUL_ASSIGN:     token.ASSIGN,
		token.OR_ASSIGN:      token.ASSIGN,
		token.QUO_ASSIGN:     token.ASSIGN,
		token.REM_ASSIGN:     token.ASSIGN,
		token.SHL_ASSIGN:     token.ASSIGN,
		token.SHR_ASSIGN:     token.ASSIGN,
		token.SUB_ASSIGN:     token.ASSIGN,
		token.XOR_ASSIGN:     token.ASSIGN,
	},
}

// tokenAt returns a pointer to the operator token of node n and its
// position, for the node kinds gremlins mutates (internal/engine/node.go).
func tokenAt(n ast.Node) (*token.Token, token.Pos, bool) {
	switch n := n.(type) {
	case *ast.AssignStmt:
		return &n.Tok, n.TokPos, true
	case *ast.BinaryExpr:
		return &n.Op, n.OpPos, true
	case *ast.BranchStmt:
		return &n.Tok, n.TokPos, true
	case *ast.IncDecStmt:
		return &n.Tok, n.TokPos, true
	case *ast.UnaryExpr:
		return &n.Op, n.OpPos, true
	}
	return nil, token.NoPos, false
}

// Apply returns src (the file's contents; name is used in errors only)
// with mutant m applied as gremlins applies it: the file parsed with
// comments, the token at m's line and column replaced, the whole file
// printed back with go/printer's default configuration.
func Apply(name string, src []byte, m Mutant) ([]byte, error) {
	table, ok := tokenMutations[m.Type]
	if !ok {
		return nil, fmt.Errorf("%s: unknown mutator %s", m.Pos(), m.Type)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	var found *token.Token
	var old token.Token
	ast.Inspect(f, func(n ast.Node) bool {
		tok, pos, ok := tokenAt(n)
		if !ok || found != nil {
			return found == nil
		}
		p := fset.Position(pos)
		if p.Line != m.Line || p.Column != m.Col {
			return true
		}
		if _, ok := table[*tok]; ok {
			found, old = tok, *tok
		}
		return true
	})
	if found == nil {
		return nil, fmt.Errorf("%s: no token %s mutates there", m.Pos(), m.Type)
	}
	*found = table[old]
	var b bytes.Buffer
	if err := printer.Fprint(&b, fset, f); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

var dryLine = regexp.MustCompile(`^\s*(RUNNABLE|NOT COVERED|KILLED|LIVED|TIMED OUT|NOT VIABLE|SKIPPED) ([A-Z_]+) at (.+):(\d+):(\d+)\s*$`)

// ParseDryRun returns the RUNNABLE mutants of a gremlins dry run's output,
// in the order given, and how many it listed NOT COVERED.
func ParseDryRun(r io.Reader) (covered []Mutant, notCovered int, err error) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		// gremlins colours the status when its output is a terminal.
		line := ansi.ReplaceAllString(sc.Text(), "")
		m := dryLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		switch m[1] {
		case "RUNNABLE":
			l, _ := strconv.Atoi(m[4])
			c, _ := strconv.Atoi(m[5])
			covered = append(covered, Mutant{Type: m[2], File: filepath.ToSlash(m[3]), Line: l, Col: c})
		case "NOT COVERED":
			notCovered++
		}
	}
	return covered, notCovered, sc.Err()
}

var ansi = regexp.MustCompile(`\x1b\[[0-9;]*m`)

// Sample draws n of the mutants uniformly without replacement, stratified
// by file with proportional allocation: file f of size N_f gets
// floor(n N_f / N) draws, and the draws left over go to the files with the
// largest remainders (ties to the lexically first file), so that every
// mutant has nearly the same chance n/N. Within a file the draws are a
// uniform random subset. The result is sorted by file, line, column and
// mutator; the same (mutants, n, seed) always give the same sample.
func Sample(mutants []Mutant, n int, seed uint64) []Mutant {
	if n >= len(mutants) {
		out := append([]Mutant(nil), mutants...)
		sortMutants(out)
		return out
	}
	byFile := map[string][]Mutant{}
	for _, m := range mutants {
		byFile[m.File] = append(byFile[m.File], m)
	}
	files := make([]string, 0, len(byFile))
	for f := range byFile {
		files = append(files, f)
		sortMutants(byFile[f])
	}
	sort.Strings(files)
	total := len(mutants)
	alloc := make([]int, len(files))
	rem := make([]int, len(files)) // remainder numerators, n*N_f mod N
	left := n
	for i, f := range files {
		alloc[i] = n * len(byFile[f]) / total
		rem[i] = n * len(byFile[f]) % total
		left -= alloc[i]
	}
	order := make([]int, len(files))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return rem[order[a]] > rem[order[b]] })
	for i := 0; i < left; i++ {
		alloc[order[i]]++
	}
	rng := rand.New(rand.NewPCG(seed, 0x6d757473616d706c)) // "mutsampl"
	var out []Mutant
	for i, f := range files {
		ms := append([]Mutant(nil), byFile[f]...)
		// A partial Fisher-Yates shuffle: the first alloc[i] are a uniform subset.
		for j := 0; j < alloc[i]; j++ {
			k := j + rng.IntN(len(ms)-j)
			ms[j], ms[k] = ms[k], ms[j]
		}
		out = append(out, ms[:alloc[i]]...)
	}
	sortMutants(out)
	return out
}

// RunOrder returns the sample in a seeded random order, the order the
// mutants are run in: a run cut short has then run a uniform random subset
// of the sample (no longer stratified), not the first files' mutants.
func RunOrder(sample []Mutant, seed uint64) []Mutant {
	out := append([]Mutant(nil), sample...)
	rng := rand.New(rand.NewPCG(seed, 0x72756e6f72646572)) // "runorder"
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

func sortMutants(ms []Mutant) {
	sort.Slice(ms, func(i, j int) bool {
		a, b := ms[i], ms[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Col != b.Col {
			return a.Col < b.Col
		}
		return a.Type < b.Type
	})
}

// Wilson returns the Wilson score interval for k successes in n trials at
// normal quantile z (1.96 for 95 %).
func Wilson(k, n int, z float64) (lo, hi float64) {
	if n == 0 {
		return 0, 1
	}
	p := float64(k) / float64(n)
	nn := float64(n)
	den := 1 + z*z/nn
	mid := (p + z*z/(2*nn)) / den
	half := z / den * math.Sqrt(p*(1-p)/nn+z*z/(4*nn*nn))
	return math.Max(0, mid-half), math.Min(1, mid+half)
}

// Result statuses.
const (
	Killed    = "KILLED"
	Lived     = "LIVED"
	TimedOut  = "TIMED OUT"
	NotViable = "NOT VIABLE"
	Error     = "ERROR"
)

// Runner runs mutants of the package in Dir (relative to Root, the module
// root) with go test.
type Runner struct {
	Root    string        // module root; go test runs here
	Dir     string        // package directory relative to Root
	Tags    string        // build tags, may be empty
	Timeout time.Duration // go test -timeout; the whole command gets 3 minutes more for the build
	Tmp     string        // where mutated copies and overlays go
	Log     io.Writer     // go test's output of each KILLED/ERROR mutant goes here when not nil
	// Select, when not nil, restricts each mutant's go test to the tests
	// that execute its position (-run); nil runs every test.
	Select *Selector
}

// pkgDir is the directory of m's package relative to Root, slash-separated.
func (r *Runner) pkgDir(m Mutant) string {
	return filepath.ToSlash(filepath.Join(r.Dir, filepath.Dir(filepath.FromSlash(m.File))))
}

// Tests returns the tests m's go test runs: those that execute its
// position per r.Select's map, or nil for all of them (no selector, no
// test executes the position per the map, or selection off for the
// package).
func (r *Runner) Tests(m Mutant) ([]string, error) {
	if r.Select == nil {
		return nil, nil
	}
	c, err := r.Select.Map(r.pkgDir(m))
	if err != nil {
		return nil, err
	}
	return c.Select(m.File, m.Line, m.Col), nil
}

// Run applies m to a copy of its file and runs its package's tests with the
// copy overlaid. It returns the status and how long it took.
func (r *Runner) Run(m Mutant) (string, time.Duration, error) {
	start := time.Now()
	src := filepath.Join(r.Root, r.Dir, filepath.FromSlash(m.File))
	abs, err := filepath.Abs(src)
	if err != nil {
		return "", 0, err
	}
	orig, err := os.ReadFile(abs)
	if err != nil {
		return "", 0, err
	}
	mutated, err := Apply(m.File, orig, m)
	if err != nil {
		return "", 0, err
	}
	dir, err := os.MkdirTemp(r.Tmp, "mutant")
	if err != nil {
		return "", 0, err
	}
	defer os.RemoveAll(dir)
	copyPath := filepath.Join(dir, filepath.Base(abs))
	if err := os.WriteFile(copyPath, mutated, 0o600); err != nil {
		return "", 0, err
	}
	ov, _ := json.Marshal(map[string]map[string]string{"Replace": {abs: copyPath}})
	ovPath := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(ovPath, ov, 0o600); err != nil {
		return "", 0, err
	}
	tests, err := r.Tests(m)
	if err != nil {
		return "", 0, err
	}
	pkg := "./" + r.pkgDir(m)
	args := []string{"test", "-overlay=" + ovPath, "-failfast", "-timeout", r.Timeout.String()}
	if r.Tags != "" {
		args = append(args, "-tags", r.Tags)
	}
	if len(tests) > 0 {
		args = append(args, "-run", RunPattern(tests))
	}
	args = append(args, pkg)
	ctx, cancel := context.WithTimeout(context.Background(), r.Timeout+3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = r.Root
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	status := classify(err, ctx.Err(), out.Bytes())
	if r.Log != nil && (status == Error || status == Killed || status == NotViable) {
		fmt.Fprintf(r.Log, "=== %s %s\n%s", status, m.Key(), lastLines(out.Bytes(), 30))
	}
	return status, time.Since(start), nil
}

// classify maps go test's outcome to a status.
func classify(runErr, ctxErr error, out []byte) string {
	switch {
	case errors.Is(ctxErr, context.DeadlineExceeded), bytes.Contains(out, []byte("panic: test timed out after")):
		return TimedOut
	case runErr == nil:
		return Lived
	case bytes.Contains(out, []byte("[build failed]")), bytes.Contains(out, []byte("[setup failed]")):
		return NotViable
	}
	var ee *exec.ExitError
	if errors.As(runErr, &ee) && ee.ExitCode() == 1 && bytes.Contains(out, []byte("FAIL")) {
		return Killed
	}
	return Error
}

func lastLines(b []byte, n int) []byte {
	lines := bytes.SplitAfter(b, []byte("\n"))
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return bytes.Join(lines, nil)
}

// ReadResults reads a results file: status by mutant key, and the baseline
// duration recorded in it (0 if none).
func ReadResults(path string) (map[string]string, time.Duration, error) {
	done := map[string]string{}
	var base time.Duration
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return done, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if s, ok := strings.CutPrefix(line, "# baseline "); ok {
			if d, err := time.ParseDuration(strings.Fields(s)[0]); err == nil {
				base = d
			}
			continue
		}
		if line == "" || line[0] == '#' {
			continue
		}
		fs := strings.Split(line, "\t")
		if len(fs) < 3 {
			continue
		}
		done[fs[1]+" "+fs[2]] = fs[0]
	}
	return done, base, sc.Err()
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "mutsample:", err)
		os.Exit(1)
	}
}

func run() error {
	dir := flag.String("dir", "", "package directory relative to -root (as gremlins was run from it)")
	root := flag.String("root", ".", "module root")
	dry := flag.String("dry", "", "gremlins dry-run output (its per-mutant lines)")
	n := flag.Int("n", 0, "sample size (0: report the results file only)")
	seed := flag.Uint64("seed", 1, "PRNG seed")
	files := flag.String("files", "", "regexp: sample only mutants whose file (relative to -dir) matches")
	results := flag.String("results", "", "results file (appended to; a rerun skips mutants already in it)")
	tags := flag.String("tags", "mutation", "build tags for go test")
	coef := flag.Float64("coef", 3, "timeout: coefficient times the unmutated tests' wall time (build included)")
	minTimeout := flag.Duration("min-timeout", 30*time.Second, "timeout at least this")
	logPath := flag.String("log", "", "append go test's output of killed and failing mutants here")
	sel := flag.Bool("select", true, "run each mutant's go test with only the tests that execute its position, per a coverage map built once per package (false: every test)")
	cache := flag.String("cache", "", "directory of the test selection maps' cache files (default: none)")
	only := flag.String("only", "", "regexp: run only the sample's mutants whose key (MUTATOR file:line:col) matches, e.g. to rerun the LIVED ones after new tests")
	flag.Parse()
	if *dir == "" || *dry == "" || *results == "" {
		return errors.New("need -dir, -dry and -results")
	}
	df, err := os.Open(*dry)
	if err != nil {
		return err
	}
	covered, notCovered, err := ParseDryRun(df)
	df.Close()
	if err != nil {
		return err
	}
	if *files != "" {
		re, err := regexp.Compile(*files)
		if err != nil {
			return err
		}
		kept := covered[:0]
		for _, m := range covered {
			if re.MatchString(m.File) {
				kept = append(kept, m)
			}
		}
		covered = kept
	}
	if len(covered) == 0 {
		return errors.New("no covered mutant in the dry run (or none matches -files)")
	}
	sample := Sample(covered, *n, *seed)
	done, base, err := ReadResults(*results)
	if err != nil {
		return err
	}
	out, err := os.OpenFile(*results, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer out.Close()
	var logw io.Writer
	if *logPath != "" {
		lf, err := os.OpenFile(*logPath, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		defer lf.Close()
		logw = lf
	}
	fmt.Printf("%s: %d covered mutants (%d not covered) in the population, sample %d (seed %d)\n",
		*dir, len(covered), notCovered, len(sample), *seed)
	var onlyRE *regexp.Regexp
	if *only != "" {
		if onlyRE, err = regexp.Compile(*only); err != nil {
			return err
		}
	}
	skip := func(m Mutant) bool {
		_, ok := done[m.Key()]
		return ok || onlyRE != nil && !onlyRE.MatchString(m.Key())
	}
	todo := 0
	for _, m := range sample {
		if !skip(m) {
			todo++
		}
	}
	if todo > 0 && base == 0 {
		// The unmutated tests must pass, and their time sets the timeout.
		start := time.Now()
		cmd := exec.Command("go", "test", "-failfast", "-tags", *tags, "./"+filepath.ToSlash(*dir)+"/...")
		cmd.Dir = *root
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("unmutated tests fail: %w", err)
		}
		base = time.Since(start)
		fmt.Fprintf(out, "# baseline %s of the unmutated tests of %s (%s), load %s\n",
			base.Round(time.Millisecond), *dir, os.Getenv("GOFLAGS"), loadavg())
	}
	timeout := time.Duration(*coef * float64(base))
	if timeout < *minTimeout {
		timeout = *minTimeout
	}
	tmp, err := os.MkdirTemp("", "mutsample")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	r := &Runner{Root: *root, Dir: *dir, Tags: *tags, Timeout: timeout, Tmp: tmp, Log: logw}
	if *sel && todo > 0 {
		r.Select = &Selector{Root: *root, Tags: *tags, Cache: *cache, Tmp: tmp, Timeout: timeout, Log: os.Stdout}
		for _, m := range sample {
			if !skip(m) {
				if _, err := r.Tests(m); err != nil { // builds the package's map before any timing
					return err
				}
			}
		}
	}
	i := 0
	for _, m := range RunOrder(sample, *seed) {
		if skip(m) {
			continue
		}
		i++
		tests, err := r.Tests(m)
		if err != nil {
			return err
		}
		ran := "all"
		if len(tests) > 0 {
			ran = strconv.Itoa(len(tests))
		}
		status, took, err := r.Run(m)
		if err != nil {
			return err
		}
		done[m.Key()] = status
		fmt.Fprintf(out, "%s\t%s\t%s\t%.1f\t%s\ttests=%s\n", status, m.Type, m.Pos(), took.Seconds(), loadavg(), ran)
		fmt.Printf("%4d/%d %-10s %s %s %.1fs, tests: %s\n", i, todo, status, m.Type, m.Pos(), took.Seconds(), ran)
	}
	return summarize(os.Stdout, *root, *dir, sample, done)
}

func summarize(w io.Writer, root, dir string, sample []Mutant, done map[string]string) error {
	c := map[string]int{}
	var lived []Mutant
	for _, m := range sample {
		s := done[m.Key()]
		c[s]++
		if s == Lived {
			lived = append(lived, m)
		}
	}
	k, l := c[Killed], c[Lived]
	eff := "-"
	if k+l > 0 {
		lo, hi := Wilson(k, k+l, 1.959964)
		eff = fmt.Sprintf("%.1f %% (95 %% CI %.1f-%.1f %%)", 100*float64(k)/float64(k+l), 100*lo, 100*hi)
	}
	fmt.Fprintf(w, "%s: sample %d, killed %d, lived %d, timed out %d, not viable %d, error %d, not run %d; efficacy %s\n",
		dir, len(sample), k, l, c[TimedOut], c[NotViable], c[Error], c[""], eff)
	for _, m := range lived {
		src, _ := os.ReadFile(filepath.Join(root, dir, filepath.FromSlash(m.File)))
		line := ""
		if ls := strings.Split(string(src), "\n"); m.Line-1 < len(ls) {
			line = strings.TrimSpace(ls[m.Line-1])
		}
		fmt.Fprintf(w, "  LIVED %s %s/%s: %s\n", m.Type, dir, m.Pos(), line)
	}
	return nil
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Fields(string(b))[0]
}
