package engine

import (
	"errors"
	"testing"
)

type recorder struct {
	s    *Sim
	seen []Event
	now  []Time
}

func (r *recorder) Handle(e Event) {
	r.seen = append(r.seen, e)
	r.now = append(r.now, r.s.Now())
	if e.Kind == 1 && e.Arg < 3 {
		r.s.After(0, 1, e.Arg+1) // same time: runs after what is already due now
		r.s.After(10, 2, e.Arg)
	}
}

func TestRunOrderAndClock(t *testing.T) {
	s := &Sim{}
	r := &recorder{s: s}
	s.At(5, 1, 0)
	s.At(5, 3, 0)
	s.Run(maxTime, r)
	want := []Event{
		{5, 1, 0}, {5, 3, 0}, {5, 1, 1}, {5, 1, 2}, {5, 1, 3},
		{15, 2, 0}, {15, 2, 1}, {15, 2, 2},
	}
	if len(r.seen) != len(want) {
		t.Fatalf("ran %v, want %v", r.seen, want)
	}
	for i := range want {
		if r.seen[i] != want[i] || r.now[i] != want[i].At {
			t.Fatalf("event %d: ran %+v at now=%v, want %+v", i, r.seen[i], r.now[i], want[i])
		}
	}
	if s.Handled() != uint64(len(want)) {
		t.Fatalf("Handled = %d, want %d", s.Handled(), len(want))
	}
}

func TestRunUntilStopsAndResumes(t *testing.T) {
	s := &Sim{}
	r := &recorder{s: s}
	s.At(10, 5, 0)
	s.At(30, 5, 1)
	if pending := s.Run(20, r); !pending {
		t.Fatal("Run(20) reported nothing pending")
	}
	if len(r.seen) != 1 || s.Now() != 20 {
		t.Fatalf("after Run(20): ran %d events, now %v; want 1 and 20ps", len(r.seen), s.Now())
	}
	s.At(25, 6, 0) // between the stop and the next event
	s.Run(100, r)
	if len(r.seen) != 3 || r.seen[1].At != 25 || r.seen[2].At != 30 || s.Now() != 100 {
		t.Fatalf("after Run(100): %+v now %v", r.seen, s.Now())
	}
}

type stopper struct{ s *Sim }

func (h stopper) Handle(e Event) {
	if e.Arg == 1 {
		h.s.Stop()
	}
}

func TestStop(t *testing.T) {
	s := &Sim{}
	s.At(1, 0, 0)
	s.At(2, 0, 1)
	s.At(3, 0, 2)
	if !s.Run(maxTime, stopper{s}) || s.Now() != 2 || s.Pending() != 1 {
		t.Fatalf("Stop: now %v pending %d", s.Now(), s.Pending())
	}
}

func TestSchedulingInThePastPanics(t *testing.T) {
	s := &Sim{}
	s.At(10, 0, 0)
	s.Run(maxTime, stopper{s})
	defer func() {
		if recover() == nil {
			t.Fatal("At before Now did not panic")
		}
	}()
	s.At(9, 0, 0)
}

func TestParseTime(t *testing.T) {
	cases := []struct {
		in   string
		want Time
		bad  bool
	}{
		{"150us", 150 * Microsecond, false},
		{"150µs", 150 * Microsecond, false},
		{"1.5ms", 1500 * Microsecond, false},
		{"1s", Second, false},
		{"20ns", 20 * Nanosecond, false},
		{"750ps", 750, false},
		{"1500ps", 1500, false},
		{"1.5us", 1500 * Nanosecond, false},
		{"0s", 0, false},
		{"150", 0, true},
		{"", 0, true},
		{"-1ms", 0, true},
		{"1.5ps", 0, true},
		{"2.0ps", 2, false}, // whole picoseconds written as decimals
		{"0.0ps", 0, false},
		{"0.5ps", 0, true},
		{"1e3ps", 0, true}, // decimals only, as in 1e3ns
		{"0x1p3ps", 0, true},
		{"Infps", 0, true},
		{"+5ps", 5, false}, // a sign, as Go's durations take (+5ns)
		{"+5ns", 5 * Nanosecond, false},
		{"fast", 0, true},
		{"1 parsec", 0, true},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			got, err := ParseTime(c.in)
			if c.bad {
				if err == nil {
					t.Fatalf("ParseTime(%q) = %v, want an error", c.in, got)
				}
				return
			}
			if err != nil || got != c.want {
				t.Fatalf("ParseTime(%q) = %v, %v; want %v", c.in, got, err, c.want)
			}
			back, err := ParseTime(got.String())
			if err != nil || back != got {
				t.Fatalf("round trip of %v via %q gave %v, %v", got, got.String(), back, err)
			}
		})
	}
}

func TestParseTimeSaysWhatIsWrong(t *testing.T) {
	tests := []struct {
		in   string
		want Time
		err  error // nil: parses to want
	}{
		{"150us", 150 * Microsecond, nil},
		{"750ps", 750, nil},
		{"0", 0, nil},
		{"0.0", 0, nil},
		{"200", 0, ErrNoUnit},
		{"-5ms", 0, ErrNegativeTime},
		{"1000000h", 0, ErrTimeTooLong},
		{"2562048h", 0, ErrTimeTooLong},
		{"5 parsecs", 0, ErrBadTime},
		{"", 0, ErrBadTime},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseTime(tt.in)
			if tt.err == nil {
				if err != nil || got != tt.want {
					t.Fatalf("ParseTime(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
				}
				return
			}
			if !errors.Is(err, tt.err) || !errors.Is(err, ErrBadTime) {
				t.Fatalf("ParseTime(%q) error %v, want %v (and ErrBadTime)", tt.in, err, tt.err)
			}
		})
	}
}
