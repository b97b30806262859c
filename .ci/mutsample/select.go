package main

// Coverage-guided test selection: a mutant runs only the tests that execute
// its line, as PIT, Stryker and mull do. The map from a package's source
// blocks to the top-level tests that execute them is built once, from one
// coverage profile per test (the package's test binary built once with
// -cover, each test run alone), and kept in a cache file keyed by a digest
// of the test binary, the package's testdata and the test flags.

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Block is a coverage block, positions as a coverage profile gives them.
type Block struct {
	StartLine, StartCol, EndLine, EndCol int
}

// Contains reports whether position line:col lies in b, with gremlins'
// v0.6.0 rule (internal/coverage/profile.go), the rule its dry run uses to
// call a mutant RUNNABLE: on a line strictly inside the block, or on its
// first line at or after its start column, or on its last line at or
// before its end column.
func (b Block) Contains(line, col int) bool {
	switch {
	case line < b.StartLine || line > b.EndLine:
		return false
	case b.StartLine == b.EndLine:
		return col >= b.StartCol && col <= b.EndCol
	case line == b.StartLine:
		return col >= b.StartCol
	case line == b.EndLine:
		return col <= b.EndCol
	}
	return true
}

// CovMap maps a package's coverage blocks to the top-level tests whose run
// executes them.
type CovMap struct {
	Key   string   // digest of what the map was built from
	Tests []string // the package's top-level tests, in the order go test -list gives
	// Files maps a file's base name to its executed blocks, each with the
	// indices in Tests of the tests that executed it.
	Files map[string][]CoveredBlock
	// Unsafe, when not empty, says why selection is off for the package
	// (a test that fails when run alone): every mutant runs the whole suite.
	Unsafe string `json:",omitempty"`
}

// CoveredBlock is a block and the tests (indices in CovMap.Tests) that
// executed it.
type CoveredBlock struct {
	Block
	Tests []int
}

// Select returns the tests that execute position line:col of file (its base
// name), in the package's order, or nil when no test does per the map, or
// when selection is off for the package: the caller then runs every test.
func (c *CovMap) Select(file string, line, col int) []string {
	if c == nil || c.Unsafe != "" {
		return nil
	}
	in := map[int]bool{}
	for _, b := range c.Files[path.Base(file)] {
		if b.Contains(line, col) {
			for _, t := range b.Tests {
				in[t] = true
			}
		}
	}
	var out []string
	for i, name := range c.Tests {
		if in[i] {
			out = append(out, name)
		}
	}
	return out
}

// RunPattern returns the go test -run pattern that matches exactly the
// top-level tests named (and every subtest of each).
func RunPattern(tests []string) string {
	q := make([]string, len(tests))
	for i, t := range tests {
		q[i] = regexp.QuoteMeta(t)
	}
	return "^(" + strings.Join(q, "|") + ")$"
}

// AddProfile adds to c the blocks a coverage profile (go test
// -coverprofile's text format) counts as executed, under test index ti.
func (c *CovMap) AddProfile(r io.Reader, ti int) error {
	if c.Files == nil {
		c.Files = map[string][]CoveredBlock{}
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	first := true
	for sc.Scan() {
		line := sc.Text()
		if first {
			first = false
			if strings.HasPrefix(line, "mode:") {
				continue
			}
		}
		if line == "" {
			continue
		}
		file, b, count, err := parseProfileLine(line)
		if err != nil {
			return err
		}
		if count == 0 {
			continue
		}
		base := path.Base(file)
		blocks := c.Files[base]
		i := sort.Search(len(blocks), func(i int) bool { return !blockLess(blocks[i].Block, b) })
		if i < len(blocks) && blocks[i].Block == b {
			if ts := blocks[i].Tests; len(ts) == 0 || ts[len(ts)-1] != ti {
				blocks[i].Tests = append(ts, ti)
			}
			continue
		}
		blocks = append(blocks, CoveredBlock{})
		copy(blocks[i+1:], blocks[i:])
		blocks[i] = CoveredBlock{Block: b, Tests: []int{ti}}
		c.Files[base] = blocks
	}
	return sc.Err()
}

func blockLess(a, b Block) bool {
	if a.StartLine != b.StartLine {
		return a.StartLine < b.StartLine
	}
	if a.StartCol != b.StartCol {
		return a.StartCol < b.StartCol
	}
	if a.EndLine != b.EndLine {
		return a.EndLine < b.EndLine
	}
	return a.EndCol < b.EndCol
}

// parseProfileLine parses "importpath/file.go:12.3,14.5 2 1".
func parseProfileLine(s string) (file string, b Block, count int, err error) {
	bad := fmt.Errorf("coverage profile: bad line %q", s)
	colon := strings.LastIndexByte(s, ':')
	if colon < 0 {
		return "", b, 0, bad
	}
	file = s[:colon]
	fs := strings.Fields(s[colon+1:])
	if len(fs) != 3 {
		return "", b, 0, bad
	}
	start, end, ok := strings.Cut(fs[0], ",")
	if !ok {
		return "", b, 0, bad
	}
	var n [4]int
	for i, p := range []string{start, end} {
		l, c, ok := strings.Cut(p, ".")
		if !ok {
			return "", b, 0, bad
		}
		if n[2*i], err = strconv.Atoi(l); err != nil {
			return "", b, 0, bad
		}
		if n[2*i+1], err = strconv.Atoi(c); err != nil {
			return "", b, 0, bad
		}
	}
	if count, err = strconv.Atoi(fs[2]); err != nil {
		return "", b, 0, bad
	}
	return file, Block{n[0], n[1], n[2], n[3]}, count, nil
}

// ParseTestList returns the names a test binary's -test.list prints, less
// the benchmarks (-run does not run them).
func ParseTestList(out []byte) []string {
	var names []string
	for _, l := range strings.Split(string(out), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.ContainsAny(l, " \t") || strings.HasPrefix(l, "Benchmark") {
			continue // "ok ..." lines and the like; benchmarks
		}
		names = append(names, l)
	}
	return names
}

// TestFlags turns the test flags among GOFLAGS' entries (-short, -skip=X,
// -cpu=N, -parallel=N) into a test binary's -test.X flags; build flags
// (-count, -vet, -tags, ...) are left out. A -run in GOFLAGS is an error:
// selection sets its own.
func TestFlags(goflags string) ([]string, error) {
	var out []string
	for _, f := range strings.Fields(goflags) {
		name, val, hasVal := strings.Cut(strings.TrimLeft(f, "-"), "=")
		switch name {
		case "short", "failfast":
			if !hasVal {
				val = "true"
			}
			out = append(out, "-test."+name+"="+val)
		case "skip", "cpu", "parallel":
			if !hasVal {
				return nil, fmt.Errorf("GOFLAGS: -%s needs =value", name)
			}
			out = append(out, "-test."+name+"="+val)
		case "run":
			return nil, errors.New("GOFLAGS has -run: test selection sets its own (MUT_SELECT=0 to run without)")
		}
	}
	return out, nil
}

// Selector builds and caches a CovMap per package directory.
type Selector struct {
	Root    string        // module root
	Tags    string        // build tags
	Cache   string        // directory of the cache files; "" for none
	Tmp     string        // where test binaries and profiles go
	Timeout time.Duration // per test run
	Log     io.Writer     // progress; may be nil
	maps    map[string]*CovMap
}

// Map returns pkgDir's map (pkgDir relative to Root, slash-separated),
// from the cache when its key matches, else built and cached.
func (s *Selector) Map(pkgDir string) (*CovMap, error) {
	if c, ok := s.maps[pkgDir]; ok {
		return c, nil
	}
	c, err := s.build(pkgDir)
	if err != nil {
		return nil, err
	}
	if s.maps == nil {
		s.maps = map[string]*CovMap{}
	}
	s.maps[pkgDir] = c
	return c, nil
}

func (s *Selector) logf(format string, args ...any) {
	if s.Log != nil {
		fmt.Fprintf(s.Log, format, args...)
	}
}

func (s *Selector) build(pkgDir string) (*CovMap, error) {
	start := time.Now()
	flags, err := TestFlags(os.Getenv("GOFLAGS"))
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp(s.Tmp, "covmap")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "pkg.test")
	args := []string{"test", "-c", "-cover", "-covermode=set", "-o", bin}
	if s.Tags != "" {
		args = append(args, "-tags", s.Tags)
	}
	args = append(args, "./"+pkgDir)
	cmd := exec.Command("go", args...)
	cmd.Dir = s.Root
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("build %s's coverage test binary: %w\n%s", pkgDir, err, out)
	}
	if _, err := os.Stat(bin); errors.Is(err, fs.ErrNotExist) {
		return &CovMap{Unsafe: "no test files"}, nil
	}
	key, err := s.key(bin, pkgDir, flags)
	if err != nil {
		return nil, err
	}
	cachePath := ""
	if s.Cache != "" {
		name := strings.ReplaceAll(pkgDir, "/", "-")
		if pkgDir == "." {
			name = "root"
		}
		cachePath = filepath.Join(s.Cache, name+".covmap.json")
		if b, err := os.ReadFile(cachePath); err == nil {
			var c CovMap
			if json.Unmarshal(b, &c) == nil && c.Key == key {
				s.logf("%s: test selection map from %s (%d tests)\n", pkgDir, cachePath, len(c.Tests))
				return &c, nil
			}
		}
	}
	pkgAbs := filepath.Join(s.Root, filepath.FromSlash(pkgDir))
	list := exec.Command(bin, append([]string{"-test.list=.*"}, flags...)...)
	list.Dir = pkgAbs
	out, err := list.Output()
	if err != nil {
		return nil, fmt.Errorf("%s: list tests: %w", pkgDir, err)
	}
	c := &CovMap{Key: key, Tests: ParseTestList(out)}
	var failed []string
	for i, name := range c.Tests {
		// A fresh coverage directory per run: the profile is made from the
		// counter files the directory holds, earlier runs' too.
		covDir := filepath.Join(dir, "cov"+strconv.Itoa(i))
		if err := os.Mkdir(covDir, 0o755); err != nil {
			return nil, err
		}
		prof := filepath.Join(covDir, "cover.out")
		ctx, cancel := context.WithTimeout(context.Background(), s.Timeout+time.Minute)
		run := exec.CommandContext(ctx, bin, append([]string{"-test.run=" + RunPattern([]string{name}),
			"-test.count=1", "-test.timeout=" + s.Timeout.String(), "-test.coverprofile=" + prof,
			"-test.gocoverdir=" + covDir}, flags...)...)
		run.Dir = pkgAbs
		var o bytes.Buffer
		run.Stdout, run.Stderr = &o, &o
		err := run.Run()
		cancel()
		if err != nil {
			failed = append(failed, name)
			s.logf("%s: %s fails when run alone: %v\n%s", pkgDir, name, err, lastLines(o.Bytes(), 20))
		}
		f, err := os.Open(prof)
		if err != nil {
			return nil, fmt.Errorf("%s: %s left no coverage profile: %w", pkgDir, name, err)
		}
		err = c.AddProfile(f, i)
		f.Close()
		if err != nil {
			return nil, err
		}
	}
	if len(failed) > 0 {
		c.Unsafe = "tests fail when run alone: " + strings.Join(failed, ", ")
	}
	s.logf("%s: test selection map of %d tests built in %s%s\n", pkgDir, len(c.Tests),
		time.Since(start).Round(time.Second), map[bool]string{true: "; selection OFF, " + c.Unsafe}[c.Unsafe != ""])
	if cachePath != "" {
		b, err := json.Marshal(c)
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(cachePath+".tmp", b, 0o644); err != nil {
			return nil, err
		}
		if err := os.Rename(cachePath+".tmp", cachePath); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// key digests what a map depends on: the coverage test binary (the
// package's code, its tests and every dependency), the package's testdata
// and the test flags.
func (s *Selector) key(bin, pkgDir string, flags []string) (string, error) {
	h := sha256.New()
	f, err := os.Open(bin)
	if err != nil {
		return "", err
	}
	_, err = io.Copy(h, f)
	f.Close()
	if err != nil {
		return "", err
	}
	fmt.Fprintf(h, "\x00flags %q\x00", flags)
	td := filepath.Join(s.Root, filepath.FromSlash(pkgDir), "testdata")
	err = filepath.WalkDir(td, func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) && p == td {
			return fs.SkipDir
		}
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(td, p)
		fmt.Fprintf(h, "%s %d\x00", filepath.ToSlash(rel), len(b))
		h.Write(b)
		return nil
	})
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func jsonEncode(w io.Writer, c *CovMap) error { return json.NewEncoder(w).Encode(c) }

func jsonDecode(r io.Reader) (*CovMap, error) {
	var c CovMap
	err := json.NewDecoder(r).Decode(&c)
	return &c, err
}
