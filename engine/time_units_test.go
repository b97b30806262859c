package engine

import (
	"errors"
	"math"
	"testing"
)

// TestTimeInSecondsAndMicros checks the float conversions against exact
// decimal values: 1 s is 10^12 ps, 1 µs 10^6 ps.
func TestTimeInSecondsAndMicros(t *testing.T) {
	cases := []struct {
		t      Time
		s, mic float64
	}{
		{1_500_000_000_000, 1.5, 1.5e6},
		{2_500_000, 2.5e-6, 2.5},
		{750, 7.5e-10, 7.5e-4},
		{0, 0, 0},
	}
	for _, c := range cases {
		if got := c.t.Seconds(); got != c.s {
			t.Errorf("Time(%d).Seconds() = %g, want %g", int64(c.t), got, c.s)
		}
		if got := c.t.Micros(); got != c.mic {
			t.Errorf("Time(%d).Micros() = %g, want %g", int64(c.t), got, c.mic)
		}
	}
}

// TestParseTimeMinutesAndHours: minutes and hours are 60 and 3600 s, and a
// count of them too long for Time is ErrTimeTooLong even where
// time.ParseDuration itself overflows (past 2562047 h).
func TestParseTimeMinutesAndHours(t *testing.T) {
	for in, want := range map[string]Time{"2m": 120 * Second, "1.5h": 5400 * Second, "90m": 5400 * Second} {
		if got, err := ParseTime(in); err != nil || got != want {
			t.Errorf("ParseTime(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"200000000m", "3000000h", "160000m", "2600h"} {
		if _, err := ParseTime(in); !errors.Is(err, ErrTimeTooLong) {
			t.Errorf("ParseTime(%q) error %v, want ErrTimeTooLong", in, err)
		}
	}
}

// TestParseTimeAtItsBounds: zero picoseconds is a duration, and the longest
// whole number of nanoseconds Time holds (MaxInt64 / 1000 ns) parses.
func TestParseTimeAtItsBounds(t *testing.T) {
	for in, want := range map[string]Time{"0ps": 0, "9223372036854775ns": 9223372036854775 * Nanosecond,
		"9223372036854775807ps": math.MaxInt64, "750.0ps": 750} {
		if got, err := ParseTime(in); err != nil || got != want {
			t.Errorf("ParseTime(%q) = %v, %v; want %d ps", in, got, err, int64(want))
		}
	}
	// One picosecond past Time's range once wrapped to -2^63 ps: a float64
	// reads both as 2^63.
	for _, in := range []string{"9223372036854775808ps", "9223372036854775809.0ps", "99999999999999999999ps"} {
		if got, err := ParseTime(in); !errors.Is(err, ErrTimeTooLong) {
			t.Errorf("ParseTime(%q) = %v, %v; want ErrTimeTooLong", in, got, err)
		}
	}
}
