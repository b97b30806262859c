package engine

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Time is simulated time in picoseconds since the start of a run. An int64
// spans about 106 days of simulated time.
type Time int64

// Units of Time.
const (
	Picosecond  Time = 1
	Nanosecond       = 1000 * Picosecond
	Microsecond      = 1000 * Nanosecond
	Millisecond      = 1000 * Microsecond
	Second           = 1000 * Millisecond
)

// Seconds returns t in seconds.
func (t Time) Seconds() float64 { return float64(t) / float64(Second) }

// Micros returns t in microseconds.
func (t Time) Micros() float64 { return float64(t) / float64(Microsecond) }

// String formats t with the largest unit that keeps it short, e.g. "150us",
// "1.5ms", "2s", "750ps". ParseTime reads it back exactly.
func (t Time) String() string {
	if t == 0 {
		return "0s"
	}
	units := []struct {
		name string
		size Time
	}{{"s", Second}, {"ms", Millisecond}, {"us", Microsecond}, {"ns", Nanosecond}}
	for _, u := range units {
		// ParseTime goes through time.ParseDuration, which keeps whole
		// nanoseconds only: sub-nanosecond times are spelled in ps.
		if t%Nanosecond == 0 && (t%u.size == 0 || (t >= u.size && (t*1000)%u.size == 0)) {
			return strconv.FormatFloat(float64(t)/float64(u.size), 'f', -1, 64) + u.name
		}
	}
	return strconv.FormatInt(int64(t), 10) + "ps"
}

// Errors of ParseTime. Each wraps ErrBadTime, which every error of
// ParseTime wraps.
var (
	ErrBadTime = errors.New("not a duration")
	// ErrNoUnit is a bare number other than 0: units are never guessed.
	ErrNoUnit = fmt.Errorf("%w: a number without a unit", ErrBadTime)
	// ErrNegativeTime is a well-formed duration below zero.
	ErrNegativeTime = fmt.Errorf("%w: negative", ErrBadTime)
	// ErrTimeTooLong is a well-formed duration beyond what Time holds
	// (about 106 days).
	ErrTimeTooLong = fmt.Errorf("%w: too long", ErrBadTime)
)

// unitOf gives the size of each unit ParseTime reads.
var unitOf = map[string]Time{"ps": Picosecond, "ns": Nanosecond, "us": Microsecond, "µs": Microsecond,
	"ms": Millisecond, "s": Second, "m": 60 * Second, "h": 3600 * Second}

// durationRE is a decimal number and one of ParseTime's units.
var durationRE = regexp.MustCompile(`^-?([0-9]+\.?[0-9]*|\.[0-9]+)(ps|ns|us|µs|ms|s|m|h)$`)

// ParseTime reads a duration with a unit: "150us", "1.5ms", "1s", "20ns",
// "750ps" ("µs" is accepted for "us"). A bare number is an error (ErrNoUnit),
// except 0, since units are never guessed; so are negative durations
// (ErrNegativeTime) and durations too long for Time (ErrTimeTooLong).
func ParseTime(s string) (Time, error) {
	in := strings.TrimSpace(s)
	if in != "" && strings.Trim(in, "0123456789.") == "" {
		if f, err := strconv.ParseFloat(in, 64); err == nil && f == 0 {
			return 0, nil
		}
		return 0, fmt.Errorf("%w: %q (want e.g. 150us, 1ms, 1s)", ErrNoUnit, s)
	}
	if m := durationRE.FindStringSubmatch(in); m != nil {
		if in[0] == '-' {
			return 0, fmt.Errorf("%w: %q", ErrNegativeTime, s)
		}
		v, _ := strconv.ParseFloat(m[1], 64)
		if v*float64(unitOf[m[2]]) > math.MaxInt64 {
			return 0, fmt.Errorf("%w: %q (at most %v)", ErrTimeTooLong, s, Time(math.MaxInt64))
		}
	}
	if num, ok := strings.CutSuffix(in, "ps"); ok {
		// Whole picoseconds are read exactly: a float64 cannot tell
		// MaxInt64 ps from 2^63, which Time does not hold.
		if n, err := strconv.ParseInt(num, 10, 64); err == nil && n >= 0 {
			return Time(n), nil
		} else if errors.Is(err, strconv.ErrRange) && num[0] != '-' {
			return 0, fmt.Errorf("%w: %q (at most %v)", ErrTimeTooLong, s, Time(math.MaxInt64))
		}
		// Decimals only, as the other units: ParseFloat would also read
		// 1e3, 0x1p3 and Inf.
		digits := strings.TrimPrefix(num, "+")
		v, err := strconv.ParseFloat(digits, 64)
		if err != nil || strings.Trim(digits, "0123456789.") != "" || v < 0 || v != math.Trunc(v) {
			return 0, fmt.Errorf("%w: %q (want e.g. 150us, 1ms, 750ps)", ErrBadTime, s)
		}
		if v >= 1<<63 {
			return 0, fmt.Errorf("%w: %q (at most %v)", ErrTimeTooLong, s, Time(math.MaxInt64))
		}
		return Time(v), nil
	}
	d, err := time.ParseDuration(in)
	if err != nil || in == "" {
		return 0, fmt.Errorf("%w: %q (want e.g. 150us, 1ms, 1s)", ErrBadTime, s)
	}
	if d > time.Duration(math.MaxInt64/int64(Nanosecond)) {
		return 0, fmt.Errorf("%w: %q (at most %v)", ErrTimeTooLong, s, Time(math.MaxInt64))
	}
	return Time(d) * Nanosecond, nil
}
