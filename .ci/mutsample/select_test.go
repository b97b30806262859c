package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// Three tests' profiles of one file, as go test -coverprofile writes them
// (import path, block, statements, count): A and B run the init block
// 3.20,5.2, A runs 10.2,12.3 (a block of three lines), B runs 20.5,20.30
// (one line), C runs none of these but 10.2,12.3, and no test runs
// 30.2,31.3.
var profiles = []string{
	`mode: set
example.com/p/f.go:3.20,5.2 2 1
example.com/p/f.go:10.2,12.3 2 1
example.com/p/f.go:20.5,20.30 1 0
example.com/p/f.go:30.2,31.3 1 0
`, `mode: set
example.com/p/f.go:3.20,5.2 2 1
example.com/p/f.go:10.2,12.3 2 0
example.com/p/f.go:20.5,20.30 1 1
example.com/p/f.go:30.2,31.3 1 0
example.com/p/g.go:7.2,7.9 1 1
`, `mode: set
example.com/p/f.go:3.20,5.2 2 0
example.com/p/f.go:10.2,12.3 2 1
example.com/p/f.go:20.5,20.30 1 0
example.com/p/f.go:30.2,31.3 1 0
`,
}

func TestCovMapSelectsTheTestsThatRunAPosition(t *testing.T) {
	c := &CovMap{Tests: []string{"TestA", "TestB", "TestC"}}
	for i, p := range profiles {
		if err := c.AddProfile(strings.NewReader(p), i); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		file      string
		line, col int
		want      []string
	}{
		{"f.go", 4, 1, []string{"TestA", "TestB"}},   // inside the init block's lines
		{"f.go", 3, 20, []string{"TestA", "TestB"}},  // its first line at its start column
		{"f.go", 3, 19, nil},                         // before it
		{"f.go", 5, 2, []string{"TestA", "TestB"}},   // its last line at its end column
		{"f.go", 5, 3, nil},                          // after it
		{"f.go", 11, 40, []string{"TestA", "TestC"}}, // A and C, not B (count 0)
		{"f.go", 20, 5, []string{"TestB"}},           // one-line block
		{"f.go", 20, 31, nil},                        // past its end
		{"f.go", 30, 5, nil},                         // run by no test
		{"f.go", 40, 1, nil},                         // in no block
		{"g.go", 7, 4, []string{"TestB"}},            // another file
		{"sub/../f.go", 20, 10, []string{"TestB"}},   // the file by base name
		{"h.go", 7, 4, nil},                          // a file no profile has
	} {
		if got := c.Select(tc.file, tc.line, tc.col); !slices.Equal(got, tc.want) {
			t.Errorf("Select(%s:%d:%d) = %q, want %q", tc.file, tc.line, tc.col, got, tc.want)
		}
	}
	c.Unsafe = "TestB fails when run alone"
	if got := c.Select("f.go", 20, 5); got != nil {
		t.Errorf("selection off: Select = %q, want nil (every test)", got)
	}
	var none *CovMap
	if got := none.Select("f.go", 20, 5); got != nil {
		t.Errorf("no map: Select = %q, want nil (every test)", got)
	}
}

func TestCovMapSurvivesJSON(t *testing.T) {
	c := &CovMap{Key: "k", Tests: []string{"TestA", "TestB", "TestC"}}
	for i, p := range profiles {
		if err := c.AddProfile(strings.NewReader(p), i); err != nil {
			t.Fatal(err)
		}
	}
	var b bytes.Buffer
	if err := jsonEncode(&b, c); err != nil {
		t.Fatal(err)
	}
	d, err := jsonDecode(&b)
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Select("f.go", 11, 1); !slices.Equal(got, []string{"TestA", "TestC"}) || d.Key != "k" {
		t.Errorf("after a JSON round trip: key %q, Select = %q", d.Key, got)
	}
}

func TestAddProfileRefusesAMalformedLine(t *testing.T) {
	for _, p := range []string{
		"mode: set\nf.go:3.20,5.2 2\n",
		"mode: set\nf.go:3.20-5.2 2 1\n",
		"mode: set\nf.go 3.20,5.2 2 1\n",
		"mode: set\nf.go:3,5.2 2 1\n",
		"mode: set\nf.go:3.20,5.2 2 x\n",
	} {
		if err := new(CovMap).AddProfile(strings.NewReader(p), 0); err == nil {
			t.Errorf("%q: no error", p)
		}
	}
}

func TestRunPatternMatchesExactlyTheTests(t *testing.T) {
	all := []string{"TestA", "TestAB", "TestB", "ExampleA", "FuzzA", "XTestA", "TestB_x"}
	for _, sel := range [][]string{{"TestA"}, {"TestA", "TestB"}, {"TestB_x", "ExampleA", "FuzzA"}} {
		// go test splits -run at slashes and matches the first part with
		// the top-level names: the pattern has no slash, and the unanchored
		// match go test does must hit exactly the selected names.
		p := RunPattern(sel)
		if strings.Contains(p, "/") {
			t.Fatalf("%q has a slash", p)
		}
		re := regexp.MustCompile(p)
		for _, name := range all {
			if got, want := re.MatchString(name), slices.Contains(sel, name); got != want {
				t.Errorf("%q matches %s: %v, want %v", p, name, got, want)
			}
		}
	}
}

func TestParseTestList(t *testing.T) {
	out := []byte("TestA\nTestB\nBenchmarkC\nExampleD\nFuzzE\nok  \texample.com/p\t0.01s\n\n")
	if got, want := ParseTestList(out), []string{"TestA", "TestB", "ExampleD", "FuzzE"}; !slices.Equal(got, want) {
		t.Errorf("ParseTestList = %q, want %q", got, want)
	}
}

func TestTestFlags(t *testing.T) {
	got, err := TestFlags("-count=1 -vet=off -short -skip=^(TestX|TestY)$ -tags=a -cpu=1")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"-test.short=true", "-test.skip=^(TestX|TestY)$", "-test.cpu=1"}; !slices.Equal(got, want) {
		t.Errorf("TestFlags = %q, want %q", got, want)
	}
	if _, err := TestFlags("-count=1 -run=TestX"); err == nil {
		t.Error("-run in GOFLAGS: no error")
	}
}

// TestSelectorOnFixture builds testdata/fixture's map with its test binary
// and checks that each function's lines map to the test that calls it, the
// init-time code to every test, and that the map is cached under a key
// that changes with the code.
func TestSelectorOnFixture(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the fixture's test binary three times")
	}
	src, err := os.ReadFile("testdata/fixture/fixture.go")
	if err != nil {
		t.Fatal(err)
	}
	testSrc, err := os.ReadFile("testdata/fixture/fixture_test.go")
	if err != nil {
		t.Fatal(err)
	}
	modSrc, err := os.ReadFile("testdata/fixture/go.mod")
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	for name, b := range map[string][]byte{"fixture.go": src, "fixture_test.go": testSrc, "go.mod": modSrc} {
		if err := os.WriteFile(filepath.Join(root, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("GOFLAGS", "-count=1 -vet=off")
	cache := t.TempDir()
	var log bytes.Buffer
	s := &Selector{Root: root, Cache: cache, Tmp: t.TempDir(), Timeout: time.Minute, Log: &log}
	c, err := s.Map(".")
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if want := []string{"TestAbs", "TestDouble", "TestPrefixed"}; !slices.Equal(c.Tests, want) || c.Unsafe != "" {
		t.Fatalf("tests %q (unsafe %q), want %q", c.Tests, c.Unsafe, want)
	}
	for _, tc := range []struct {
		find string
		off  int
		want []string
	}{
		{"return -x", 7, []string{"TestAbs"}},
		{`"hello, " + name`, 10, []string{"TestAbs"}},
		{"x * 2", 2, []string{"TestDouble"}},
		{`"-" + ""`, 4, []string{"TestAbs", "TestDouble", "TestPrefixed"}},
		{"prefix + s", 7, []string{"TestPrefixed"}},
	} {
		line, col := at(t, string(src), tc.find, tc.off)
		if got := c.Select("fixture.go", line, col); !slices.Equal(got, tc.want) {
			t.Errorf("%q at %d:%d: tests %q, want %q", tc.find, line, col, got, tc.want)
		}
	}

	// A second selector finds the map in the cache.
	log.Reset()
	s2 := &Selector{Root: root, Cache: cache, Tmp: t.TempDir(), Timeout: time.Minute, Log: &log}
	c2, err := s2.Map(".")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "from "+cache) || c2.Key != c.Key {
		t.Errorf("the second map is not the cached one: %s", log.String())
	}

	// A changed function: a new key, a new map.
	changed := strings.Replace(string(src), "return x * 2", "return x + x", 1)
	if err := os.WriteFile(filepath.Join(root, "fixture.go"), []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	log.Reset()
	s3 := &Selector{Root: root, Cache: cache, Tmp: t.TempDir(), Timeout: time.Minute, Log: &log}
	c3, err := s3.Map(".")
	if err != nil {
		t.Fatal(err)
	}
	if c3.Key == c.Key || strings.Contains(log.String(), "from "+cache) {
		t.Errorf("the code changed but the map came from the cache: %s", log.String())
	}
}
