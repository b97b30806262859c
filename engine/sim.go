package engine

import "fmt"

// Handler runs events. Handle is called once per event, in time order, with
// the simulator's clock already at e.At; it may schedule further events.
type Handler interface {
	Handle(e Event)
}

// Sim is a simulation clock with its pending events. The zero Sim starts at
// time 0 with nothing scheduled. A Sim is not safe for concurrent use; run one
// per goroutine.
type Sim struct {
	q       Queue
	now     Time
	handled uint64
	stop    bool
}

// Now returns the current simulated time.
func (s *Sim) Now() Time { return s.now }

// Pending returns the number of scheduled events not yet run.
func (s *Sim) Pending() int { return s.q.Len() }

// Handled returns the number of events run so far.
func (s *Sim) Handled() uint64 { return s.handled }

// At schedules an event at absolute time t, which must not be before Now.
func (s *Sim) At(t Time, kind, arg uint32) {
	if t < s.now {
		panic(fmt.Sprintf("engine: event kind %d scheduled at %v, before now %v", kind, t, s.now))
	}
	s.q.Push(Event{At: t, Kind: kind, Arg: arg})
}

// After schedules an event d after Now; d must not be negative.
func (s *Sim) After(d Time, kind, arg uint32) { s.At(s.now+d, kind, arg) }

// Stop makes Run return after the event being handled.
func (s *Sim) Stop() { s.stop = true }

// Run hands events to h in order until none is left, the next one is later
// than until, or h calls Stop. Unless h stopped it, Run leaves Now at until
// when until is finite (at the last event's time otherwise).
// It reports whether it stopped with events still pending.
func (s *Sim) Run(until Time, h Handler) (pending bool) {
	s.stop = false
	for !s.stop {
		e, ok := s.q.PopUntil(until)
		if !ok {
			if until > s.now && until < maxTime {
				s.now = until
			}
			return s.q.Len() > 0
		}
		s.now = e.At
		s.handled++
		h.Handle(e)
	}
	return s.q.Len() > 0
}
