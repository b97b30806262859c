package workload

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The fixed permutations of docs/scenarios.md ("Workloads") and of
// PatternDest's comment, tested here where PatternDest lives (model's
// TestPatternDestinations checks the same through the public API).

// digits spells s in b binary digits, most significant first.
func digits(s, b int) string {
	if b == 0 {
		return ""
	}
	t := strconv.FormatInt(int64(s), 2)
	return strings.Repeat("0", b-len(t)) + t
}

func undigits(t string) int {
	if t == "" {
		return 0
	}
	v, err := strconv.ParseInt(t, 2, 64)
	if err != nil {
		panic(err)
	}
	return int(v)
}

// wantDest is each fixed pattern's destination of host s of n by its
// textbook definition (Dally & Towles), on digit strings and (row, column)
// pairs rather than PatternDest's shifts and masks; ok is false where n does
// not suit the pattern (transpose: a square of at least 4; bitreverse and
// shuffle: a power of two of at least 2; butterfly: at least 4).
func wantDest(pattern string, s, n int) (d int, ok bool) {
	b := 0
	for 1<<b < n {
		b++
	}
	pow2 := n >= 2 && 1<<b == n
	dg := digits(s, b)
	switch pattern {
	case "transpose":
		side := int(math.Round(math.Sqrt(float64(n))))
		if side*side != n || n < 4 {
			return 0, false
		}
		row, col := s/side, s%side
		d = col*side + row // (row, col) -> (col, row)
	case "bitreverse":
		if !pow2 {
			return 0, false
		}
		r := []byte(dg)
		slices.Reverse(r)
		d = undigits(string(r))
	case "shuffle": // rotate left one digit
		if !pow2 {
			return 0, false
		}
		d = undigits(dg[1:] + dg[:1])
	case "butterfly": // swap the first and last digit
		if !pow2 || n < 4 {
			return 0, false
		}
		d = undigits(dg[b-1:] + dg[1:b-1] + dg[:1])
	case "neighbour":
		d = (s + 1) % n
	case "shift":
		d = (s + n/2) % n
	}
	if d == s {
		d = -1 // maps s to itself: s sends nothing
	}
	return d, true
}

var fixedPatterns = []string{"transpose", "bitreverse", "shuffle", "butterfly", "neighbour", "shift"}

// TestPatternDestAgainstDefinitions checks every fixed pattern, for every
// host of 1 to 70 hosts and of 256, against its definition (wantDest): the
// destination, -1 for a host mapped to itself, an error exactly where the
// host count does not suit the pattern; and that each destination map is a
// permutation of 0..n-1 (fixed points counted as themselves).
// Kills (each planted by hand): bits.Len(n)-1 to +1, `n > 1` to `>=`,
// `n&(n-1) == 0` negated, transpose's `n < 4` to `<=`, `s%side*side` to
// `/`, butterfly's `n < 4` to `<=` and either `lg-1` to `+1`, bitreverse's
// `UintSize - lg` to `+`, shuffle's `lg-1` to `+1`, neighbour's `+ 1` to
// `- 1`, shift's `n/2` to `n*2`, `d == s` negated; and isqrt's (below).
func TestPatternDestAgainstDefinitions(t *testing.T) {
	ns := []int{256}
	for n := 1; n <= 70; n++ {
		ns = append(ns, n)
	}
	for _, pattern := range fixedPatterns {
		for _, n := range ns {
			seen := make([]bool, n)
			for s := 0; s < n; s++ {
				want, ok := wantDest(pattern, s, n)
				got, err := PatternDest(pattern, s, n)
				if !ok {
					if err == nil {
						t.Errorf("%s, %d hosts: no error", pattern, n)
					} else if got != -1 {
						t.Errorf("%s, %d hosts: %d with the error, want -1", pattern, n, got)
					}
					break
				}
				if err != nil || got != want {
					t.Fatalf("%s, host %d of %d (%s): %d, %v; want %d", pattern, s, n, digits(s, 8), got, err, want)
				}
				if got == -1 {
					got = s
				}
				if got < 0 || got >= n || seen[got] {
					t.Fatalf("%s, %d hosts: %d reached twice or out of range: not a permutation", pattern, n, got)
				}
				seen[got] = true
			}
		}
	}
}

// TestPatternDestErrors checks the refusals' text (docs/scenarios.md quotes
// "bitreverse needs a power of two hosts, not 9") and that the patterns
// that are not fixed permutations are refused.
func TestPatternDestErrors(t *testing.T) {
	for _, c := range []struct {
		pattern string
		n       int
		want    string
	}{
		{"bitreverse", 9, "bitreverse needs a power of two hosts, not 9"},
		{"shuffle", 12, "shuffle needs a power of two hosts, not 12"},
		{"butterfly", 2, "butterfly needs a power of two hosts (at least 4), not 2"},
		{"butterfly", 24, "butterfly needs a power of two hosts (at least 4), not 24"},
		{"transpose", 8, "transpose needs a square number of hosts (at least 4), not 8"},
		{"transpose", 1, "transpose needs a square number of hosts (at least 4), not 1"},
		{"uniform", 16, `"uniform" is not a fixed permutation`},
		{"permutation", 16, `"permutation" is not a fixed permutation`},
		{"hotspot", 16, `"hotspot" is not a fixed permutation`},
		{"incast", 16, `"incast" is not a fixed permutation`},
		{"alltoall", 16, `"alltoall" is not a fixed permutation`},
		{"Shift", 16, `"Shift" is not a fixed permutation`},
	} {
		d, err := PatternDest(c.pattern, 1, c.n)
		if err == nil || err.Error() != c.want || d != -1 {
			t.Errorf("%s on %d hosts: %d, %v; want -1, %q", c.pattern, c.n, d, err, c.want)
		}
	}
}

// TestIsqrt checks isqrt against the floor of math.Sqrt over 0 to 20000
// and at each side of the squares up to 2^20 squared.
// Kills isqrt's `<= n` to `< n` (a square's root one short) and `r++` to
// `r--` (a negative root).
func TestIsqrt(t *testing.T) {
	check := func(n int) {
		t.Helper()
		if got, want := isqrt(n), int(math.Floor(math.Sqrt(float64(n)))); got != want {
			t.Fatalf("isqrt(%d) = %d, want %d", n, got, want)
		}
	}
	for n := 0; n <= 20000; n++ {
		check(n)
	}
	for r := 1000; r <= 1<<20; r += r / 3 {
		check(r*r - 1)
		check(r * r)
		check(r*r + 1)
	}
}
