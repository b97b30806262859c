package grids_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model/params"
)

// TestCanonicalRoundTrip checks that a grid rebuilt from its canonical text
// expands to the same points, with where constraints evaluated, and gives
// back the same text.
func TestCanonicalRoundTrip(t *testing.T) {
	eachGoodGrid(t, func(t *testing.T, file string, g *grids.Grid) {
		back, err := grids.ParseCanonical([]byte(g.Canonical()))
		if err != nil {
			t.Fatalf("ParseCanonical: %v", err)
		}
		if back.Count() != g.Count() {
			t.Errorf("Count() = %d, want %d", back.Count(), g.Count())
		}
		if !reflect.DeepEqual(back.Points(), g.Points()) {
			t.Errorf("points differ:\n got %v\nwant %v", back.Points(), g.Points())
		}
		if !reflect.DeepEqual(back.Axes(), g.Axes()) {
			t.Errorf("Axes() = %v, want %v", back.Axes(), g.Axes())
		}
		if back.Canonical() != g.Canonical() {
			t.Errorf("canonical text changed:\n%s\nwant\n%s", back.Canonical(), g.Canonical())
		}
		for i, s := range back.Subs {
			var got []grids.Point
			for p := range s.All() {
				got = append(got, p)
			}
			var want []grids.Point
			for p := range g.Subs[i].All() {
				want = append(want, p)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("sub-grid %d: All() differs", i)
			}
		}
	})
}

// TestStoredCanonical reads canonical text as ccsweep wrote it into
// databases before the canonical form was exported (testdata/canonical,
// never to be regenerated): it must keep loading, to the points of the
// grid file it came from.
func TestStoredCanonical(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "canonical", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no stored canonical grids: %v", err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".json")
		t.Run(name, func(t *testing.T) {
			text, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			g, err := grids.ParseCanonical(text)
			if err != nil {
				t.Fatalf("ParseCanonical: %v", err)
			}
			want, err := parseFile(t, filepath.Join("testdata", "good", name+".toml"))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(g.Points(), want.Points()) {
				t.Errorf("points differ from those of %s.toml", name)
			}
			if g.Canonical() != string(text) {
				t.Errorf("Canonical() no longer gives the stored text")
			}
		})
	}
}

// TestDecodeCanonicalFormat checks that text of another format, or of a
// later version of this one, is refused with an error saying so.
func TestDecodeCanonicalFormat(t *testing.T) {
	const sub = `"grids": [{"scenario": "testbed-s1", "seeds": 1, "base": {}, "axes": []}]`
	tests := []struct {
		name, text string
		want       error
		msg        string // part of the message
	}{
		{"current", `{"format": "ccsweep-grid/1", "name": "g", ` + sub + `}`, nil, ""},
		{"newer", `{"format": "ccsweep-grid/3", "name": "g", ` + sub + `}`, grids.ErrFormatTooNew,
			`it is ccsweep-grid/3, this ccsweep reads up to ccsweep-grid/2`},
		{"much newer", `{"format": "ccsweep-grid/10", "name": "g", ` + sub + `}`, grids.ErrFormatTooNew, "ccsweep-grid/10"},
		{"no format", `{"name": "g", ` + sub + `}`, grids.ErrNotCanonical, `format ""`},
		{"other format", `{"format": "other/1", "name": "g", ` + sub + `}`, grids.ErrNotCanonical, `format "other/1"`},
		{"version zero", `{"format": "ccsweep-grid/0", ` + sub + `}`, grids.ErrNotCanonical, "want ccsweep-grid/1"},
		{"padded version", `{"format": "ccsweep-grid/01", ` + sub + `}`, grids.ErrNotCanonical, "want ccsweep-grid/1"},
		{"no sub-grids", `{"format": "ccsweep-grid/1", "grids": []}`, grids.ErrNotCanonical, "no sub-grids"},
		{"not JSON", `name = "g"`, grids.ErrNotCanonical, "decode canonical grid"},
		{"wrong shape", `{"format": "ccsweep-grid/1", "grids": {}}`, grids.ErrNotCanonical, "decode canonical grid"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := grids.DecodeCanonical([]byte(tt.text))
			if tt.want == nil {
				if err != nil || c == nil {
					t.Fatalf("DecodeCanonical: %v", err)
				}
				return
			}
			if !errors.Is(err, tt.want) {
				t.Fatalf("error %v, want one wrapping %v", err, tt.want)
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("error %q does not say %q", err, tt.msg)
			}
			if _, err2 := grids.ParseCanonical([]byte(tt.text)); !errors.Is(err2, tt.want) {
				t.Errorf("ParseCanonical: %v, want %v", err2, tt.want)
			}
		})
	}
}

// TestCanonicalGridErrors checks that malformed canonical grids are
// refused rather than expanded to points the grid never had.
func TestCanonicalGridErrors(t *testing.T) {
	tests := []struct {
		name, sub string
		msg       string
		is        error
	}{
		{"seeds", `"seeds": 0, "base": {}, "axes": []`, "grids[0]: seeds 0", nil},
		{"unknown axis", `"seeds": 1, "base": {}, "axes": [{"name": "nope", "values": ["1"]}]`, "axis nope", params.ErrUnknownParam},
		{"unknown base", `"seeds": 1, "base": {"nope": "1"}, "axes": []`, "base nope", params.ErrUnknownParam},
		{"bad value", `"seeds": 1, "base": {}, "axes": [{"name": "threshold", "values": ["x"]}]`, "axis threshold", nil},
		{"bad base value", `"seeds": 1, "base": {"cc": "maybe"}, "axes": []`, "base cc", nil},
		{"empty axis", `"seeds": 1, "base": {}, "axes": [{"name": "threshold", "values": []}]`, "no values", nil},
		{"repeated value", `"seeds": 1, "base": {}, "axes": [{"name": "threshold", "values": ["1", "1"]}]`, "listed twice", nil},
		{"swept twice", `"seeds": 1, "base": {}, "axes": [{"name": "threshold", "values": ["1"]}, {"name": "threshold", "values": ["2"]}]`,
			"swept twice", nil},
		{"fixed and swept", `"seeds": 1, "base": {"threshold": "3"}, "axes": [{"name": "threshold", "values": ["1"]}]`, "also swept", nil},
		{"zip lengths", `"seeds": 1, "base": {}, "axes": [{"name": "threshold", "values": ["1", "2"], "zip": 1},
			{"name": "marking_rate", "values": ["1"], "zip": 1}]`, "1 values, but its zip group has 2", nil},
		{"zip apart", `"seeds": 1, "base": {}, "axes": [{"name": "threshold", "values": ["1"], "zip": 1},
			{"name": "packet_size", "values": ["8"]}, {"name": "marking_rate", "values": ["1"], "zip": 1}]`, "listed together", nil},
		{"zip skips", `"seeds": 1, "base": {}, "axes": [{"name": "threshold", "values": ["1"], "zip": 2}]`, "zip 2", nil},
		{"where syntax", `"seeds": 1, "base": {}, "axes": [], "where": ["threshold >"]`, `where "threshold >"`, nil},
		{"where unknown name", `"seeds": 1, "base": {}, "axes": [], "where": ["nope > 1"]`, `where "nope > 1"`, nil},
		{"too many points", `"seeds": 20000000, "base": {}, "axes": []`, "more than the limit", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := `{"format": "ccsweep-grid/1", "name": "g", "grids": [{"scenario": "testbed-s1", ` + tt.sub + `}]}`
			c, err := grids.DecodeCanonical([]byte(text))
			if err != nil {
				t.Fatalf("DecodeCanonical: %v", err)
			}
			g, err := c.Grid()
			if err == nil {
				t.Fatalf("Grid accepted it (%d points)", g.Count())
			}
			if !strings.Contains(err.Error(), tt.msg) || !strings.HasPrefix(err.Error(), `canonical grid "g": `) {
				t.Errorf("error %q, want one starting with the grid's name and saying %q", err, tt.msg)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error %v does not wrap %v", err, tt.is)
			}
		})
	}
}

// TestCanonicalWhereCount checks that the points of a rebuilt grid are
// those its where constraints keep, not every combination.
func TestCanonicalWhereCount(t *testing.T) {
	text := `{"format": "ccsweep-grid/1", "name": "w", "grids": [{"scenario": "testbed-s1", "seeds": 3, "base": {},
		"axes": [{"name": "ccti_min", "values": ["0", "10", "20"]}, {"name": "ccti_limit", "values": ["5", "15", "25"]}],
		"where": ["ccti_min <= ccti_limit"]}]}`
	g, err := grids.ParseCanonical([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	// Of 3×3 combinations, ccti_min <= ccti_limit holds for 3+2+1.
	if g.Count() != 6*3 {
		t.Errorf("Count() = %d, want 18", g.Count())
	}
	n := 0
	for p := range g.All() {
		lo, _ := p.Value("ccti_min")
		hi, _ := p.Value("ccti_limit")
		if c, err := grids.PointConfig(p); err != nil || c.CC.CCTIMin > c.CC.CCTILimit {
			t.Errorf("point %s..%s: %v", lo, hi, err)
		}
		n++
	}
	if n != g.Count() {
		t.Errorf("All() yields %d points, Count() is %d", n, g.Count())
	}
}

// FuzzParseCanonical checks that the decoder of stored text never panics
// and that a grid it accepts expands consistently.
func FuzzParseCanonical(f *testing.F) {
	for _, file := range fixtures(f, "good") {
		g, err := parseFile(f, file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add([]byte(g.Canonical()))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		g, err := grids.ParseCanonical(text)
		if err != nil || g.Count() > 10000 {
			return
		}
		if n := len(g.Points()); n != g.Count() {
			t.Fatalf("Count() = %d, len(Points()) = %d", g.Count(), n)
		}
		if _, err := grids.ParseCanonical([]byte(g.Canonical())); err != nil {
			t.Fatalf("its own canonical text does not parse: %v", err)
		}
	})
}

// A zip group number that skips one is refused with the numbers that would
// do: 0 (no group), the last group's, or the next one.
func TestCanonicalZipSkipSaysWhatWouldDo(t *testing.T) {
	for _, c := range []struct{ axes, want string }{
		{`[{"name": "threshold", "values": ["1"], "zip": 2}]`, "axis threshold: zip 2, want 0, 0 or 1"},
		{`[{"name": "threshold", "values": ["1"], "zip": 1}, {"name": "marking_rate", "values": ["1"], "zip": 3}]`,
			"axis marking_rate: zip 3, want 0, 1 or 2"},
	} {
		text := `{"format": "ccsweep-grid/1", "name": "g", "grids": [{"scenario": "testbed-s1", "seeds": 1, "base": {}, "axes": ` + c.axes + `}]}`
		_, err := grids.ParseCanonical([]byte(text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.axes, err, c.want)
		}
	}
}
