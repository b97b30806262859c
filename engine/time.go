package engine

import (
	"errors"
	"fmt"
	"math"
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

// ErrBadTime is wrapped by ParseTime's errors.
var ErrBadTime = errors.New("not a duration")

// ParseTime reads a duration with a unit: "150us", "1.5ms", "1s", "20ns",
// "750ps" ("µs" is accepted for "us"). A bare number is an error: units are
// never guessed. Negative durations are errors.
func ParseTime(s string) (Time, error) {
	in := strings.TrimSpace(s)
	if strings.HasSuffix(in, "ps") {
		v, err := strconv.ParseFloat(strings.TrimSuffix(in, "ps"), 64)
		if err != nil || v < 0 || v != math.Trunc(v) || v > math.MaxInt64/2 {
			return 0, fmt.Errorf("%w: %q (want e.g. 150us, 1ms, 750ps)", ErrBadTime, s)
		}
		return Time(v), nil
	}
	d, err := time.ParseDuration(in)
	if err != nil || in == "" || strings.Trim(in, "0123456789.") == "" {
		return 0, fmt.Errorf("%w: %q (want e.g. 150us, 1ms, 1s)", ErrBadTime, s)
	}
	if d < 0 {
		return 0, fmt.Errorf("%w: %q is negative", ErrBadTime, s)
	}
	if d > time.Duration(math.MaxInt64/int64(Nanosecond)) {
		return 0, fmt.Errorf("%w: %q is too long", ErrBadTime, s)
	}
	return Time(d) * Nanosecond, nil
}
