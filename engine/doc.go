// Package engine is ccsweep's discrete-event kernel: integer time in
// picoseconds, a value-based event queue and a run loop.
//
// Events are 16-byte values (time, kind, argument) held in a radix heap, a
// monotone priority queue: simulation time only moves forward, so the queue
// keeps events in buckets by the highest bit in which their time differs from
// the current time and never compares two events' keys more than a few times
// over their life. Events of equal time come out in the order they were
// scheduled, as if each carried a sequence number, so every run is
// deterministic. Scheduling, popping and dispatching allocate nothing once the
// buckets have grown to the run's working size.
//
// The meaning of an event's Kind and Arg belongs to the Handler that runs it.
//
// # Imports
//
// engine is the bottom of the tree: it imports nothing of ccsweep's and must
// never import any other ccsweep package; everything that simulates builds on
// it.
package engine
