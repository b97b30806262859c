package engine

import "testing"

// TestRunReportsPendingAndLeavesNow checks Run's result and clock in the
// cases its doc names: run dry (nothing pending; Now at the last event when
// until is infinite, at until when finite), stopped on the last event
// (nothing pending, Now at that event) and stopped with events left.
func TestRunReportsPendingAndLeavesNow(t *testing.T) {
	t.Run("dry/infinite", func(t *testing.T) {
		s := &Sim{}
		s.At(7, 0, 0)
		s.At(40, 0, 0)
		if s.Run(maxTime, stopper{s}) {
			t.Error("Run reported events pending after running them all")
		}
		if s.Now() != 40 {
			t.Errorf("Now = %v after Run(forever), want the last event's 40ps", s.Now())
		}
	})
	t.Run("dry/finite", func(t *testing.T) {
		s := &Sim{}
		s.At(7, 0, 0)
		if s.Run(1000, stopper{s}) {
			t.Error("Run reported events pending after running them all")
		}
		if s.Now() != 1000 {
			t.Errorf("Now = %v after Run(1000), want 1000ps", s.Now())
		}
	})
	t.Run("stopped/last", func(t *testing.T) {
		s := &Sim{}
		s.At(3, 0, 0)
		s.At(9, 0, 1) // stopper stops on Arg 1
		if s.Run(1000, stopper{s}) {
			t.Error("Run reported events pending when stopped on the last one")
		}
		if s.Now() != 9 || s.Handled() != 2 {
			t.Errorf("Now = %v, Handled = %d; want 9ps and 2", s.Now(), s.Handled())
		}
	})
	t.Run("stopped/more", func(t *testing.T) {
		s := &Sim{}
		s.At(9, 0, 1)
		s.At(12, 0, 0)
		if !s.Run(1000, stopper{s}) || s.Pending() != 1 || s.Now() != 9 {
			t.Errorf("Run stopped at 9ps: pending %d, now %v; want 1 pending at 9ps", s.Pending(), s.Now())
		}
	})
}

// TestTimeString checks String's spelling: the largest unit in which t
// has at most three decimals, sub-nanosecond times in ps (ParseTime keeps
// whole nanoseconds only).
func TestTimeString(t *testing.T) {
	cases := []struct {
		t    Time
		want string
	}{
		{0, "0s"},
		{750, "750ps"},
		{1500, "1500ps"},
		{20 * Nanosecond, "20ns"},
		{999 * Nanosecond, "999ns"},
		{1500 * Nanosecond, "1.5us"},
		{150 * Microsecond, "150us"},
		{1500 * Microsecond, "1.5ms"},
		{1000500 * Nanosecond, "1000.5us"},
		{2 * Second, "2s"},
		{1001 * Millisecond, "1.001s"},
		{10001 * Microsecond * 100, "1000.1ms"},
		{90 * Second, "90s"},
	}
	for _, c := range cases {
		if got := c.t.String(); got != c.want {
			t.Errorf("Time(%d).String() = %q, want %q", int64(c.t), got, c.want)
		}
	}
}
