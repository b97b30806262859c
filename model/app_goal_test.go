package model

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
)

// dissemination4 is LogGOPSim's dissemination barrier schedule
// (spcl/LogGOPSim dissemination_16.goal) cut to 4 ranks.
const dissemination4 = `num_ranks 4
# a comment
rank 0 {
l1: send 1b to 1 tag 0
l2: recv 1b from 3 tag 0
l3: send 1b to 2 tag 0
l3 requires l2
l4: recv 1b from 2 tag 0
}
rank 1 {
l1: send 1b to 2 tag 0
l2: recv 1b from 0 tag 0
l3: send 1b to 3 tag 0
l3 requires l2
l4: recv 1b from 3 tag 0
}
rank 2 {
l1: send 1b to 3 tag 0
l2: recv 1b from 1 tag 0
l3: send 1b to 0 tag 0
l3 requires l2
l4: recv 1b from 0 tag 0
}
rank 3 {
l1: send 1b to 0 tag 0
l2: recv 1b from 2 tag 0
l3: send 1b to 1 tag 0
l3 requires l2
l4: recv 1b from 1 tag 0
}
`

// TestParseGOALOrder checks that operations run in a topological order of
// their dependencies, file order among the ready ones.
func TestParseGOALOrder(t *testing.T) {
	tr, err := ParseGOAL([]byte("num_ranks 2\nrank 0 {\na: calc 5\nb: send 4b to 1\nc: recv 4b from 1\nb requires c\n}\nrank 1 {\nx: recv 4b from 0\ny: send 4b to 0\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	got := tr.ops[0]
	want := []appOp{{kind: opCompute, dur: 5 * engine.Nanosecond}, {kind: opRecv, peer: 1, arg: 4}, {kind: opSend, peer: 1, arg: 4}}
	if len(got) != len(want) {
		t.Fatalf("rank 0 runs %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("rank 0's operation %d is %+v, want %+v", i, got[i], want[i])
		}
	}
}

// TestParseGOALErrors checks that each malformed schedule is named by its
// line.
func TestParseGOALErrors(t *testing.T) {
	tests := []struct{ name, text, want string }{
		{"no num_ranks", "rank 0 {\n}\n", "1: rank before num_ranks"},
		{"empty", "# nothing\n", "no num_ranks"},
		{"bad size", "num_ranks 2\nrank 0 {\nl1: send 8 to 1\n}\n", `3: size "8": want bytes with a b`},
		{"peer out of range", "num_ranks 2\nrank 0 {\nl1: send 8b to 2\n}\n", `3: rank "2": want 0 to 1`},
		{"to itself", "num_ranks 2\nrank 1 {\nl1: recv 8b from 1\n}\n", "3: rank 1 sends to or receives from itself"},
		{"unknown label", "num_ranks 2\nrank 0 {\nl1: calc 1\nl1 requires l9\n}\n", "4: no operation labelled l9 in rank 0"},
		{"cycle", "num_ranks 2\nrank 0 {\na: calc 1\nb: calc 1\na requires b\nb requires a\n}\n", "3: rank 0: the dependencies form a cycle"},
		{"unclosed", "num_ranks 2\nrank 0 {\na: calc 1\n", "3: rank 0's block is not closed"},
		{"rank twice", "num_ranks 2\nrank 0 {\n}\nrank 0 {\n}\n", "4: rank 0 given twice"},
		{"label twice", "num_ranks 2\nrank 0 {\na: calc 1\na: calc 2\n}\n", "4: label a used twice"},
		{"bad op", "num_ranks 2\nrank 0 {\na: put 8b to 1\n}\n", `3: "put": want send, recv or calc`},
		{"stray line", "num_ranks 2\nhello\n", `2: "hello" outside a rank block`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseGOAL([]byte(tt.text))
			var ge *GOALError
			if !errors.As(err, &ge) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want a *GOALError with %q", err, tt.want)
			}
		})
	}
}

// TestAppTraceBarrier replays the 4-rank dissemination barrier on one
// switch: two rounds of one one-way message (the second round's send
// waits for the first round's receive).
func TestAppTraceBarrier(t *testing.T) {
	tr, err := ParseGOAL([]byte(dissemination4))
	if err != nil {
		t.Fatal(err)
	}
	c := appConfig(engine.Millisecond)
	a := DefaultApp("diss", "trace")
	a.Trace, a.Hosts = tr, []string{"H1", "H2", "H3", "H4"}
	m, _ := runApps(t, starScenario("diss", 4, a), c, 1)
	within(t, "diss_completion_us", m["diss_completion_us"], 2*oneWay(c, a, 1), 0.01)
}

// FuzzGOAL checks that any input either parses into programs whose
// operations name other ranks of the schedule, or fails with a
// *GOALError naming a line of the input; never a panic.
func FuzzGOAL(f *testing.F) {
	f.Add([]byte(dissemination4))
	f.Add([]byte("num_ranks 2\nrank 0 {\na: calc 5\nb: send 4b to 1\nb irequires a\n}\nrank 1 {\nx: recv 4b from 0 tag 3\n}\n"))
	f.Add([]byte("num_ranks 1\nrank 0 {\n}\n"))
	f.Add([]byte("num_ranks 2\nrank 0 {\na: calc 1\nb: calc 1\na requires b\nb requires a\n}\n"))
	f.Add([]byte("num_ranks 3\nrank 2 { \n l1: recv 99999999999b from 0\n}"))
	f.Add([]byte(tagReorder))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := ParseGOAL(data)
		if err != nil {
			var ge *GOALError
			if !errors.As(err, &ge) {
				t.Fatalf("error %v is not a *GOALError", err)
			}
			if lines := bytes.Count(data, []byte("\n")) + 1; ge.Line < 0 || ge.Line > lines {
				t.Fatalf("error at line %d of a %d-line input: %v", ge.Line, lines, err)
			}
			return
		}
		if tr.Ranks < 1 || len(tr.ops) != tr.Ranks {
			t.Fatalf("%d ranks, %d programs", tr.Ranks, len(tr.ops))
		}
		for r, prog := range tr.ops {
			for _, op := range prog {
				if op.kind != opCompute && (op.peer < 0 || int(op.peer) >= tr.Ranks || int(op.peer) == r) {
					t.Fatalf("rank %d: operation %+v names rank %d", r, op, op.peer)
				}
				if op.arg < 0 || op.dur < 0 || op.tag < 0 {
					t.Fatalf("rank %d: operation %+v has a negative size, time or tag", r, op)
				}
			}
		}
	})
}

// tagReorder: rank 0 sends tag 1, computes 100 µs, then sends tag 2; rank 1
// computes 10 µs (the tag-1 message arrives meanwhile), receives tag 2,
// computes 50 µs, then receives tag 1. Matched by (source, tag), rank 1's
// first receive waits for the second message; matched in order of arrival
// it would take the first one at once.
const tagReorder = `num_ranks 2
rank 0 {
s1: send 8b to 1 tag 1
c: calc 100000
c requires s1
s2: send 8b to 1 tag 2
s2 requires c
}
rank 1 {
z: calc 10000
a: recv 8b from 0 tag 2
a requires z
w: calc 50000
w requires a
b: recv 8b from 0 tag 1
b requires w
}
`

// TestAppTraceTagsMatch: receives match by (source, tag), as in LogGOPSim:
// the trace's completion is rank 0's send overhead, its 100 µs, the
// second message's one-way time, rank 1's 50 µs and its last receive's
// overhead (about 100 µs less if the first receive took the tag-1
// message); a receive whose tag is never sent fails the run naming the
// rank, the operation and the tag.
func TestAppTraceTagsMatch(t *testing.T) {
	tr, err := ParseGOAL([]byte(tagReorder))
	if err != nil {
		t.Fatal(err)
	}
	c := appConfig(engine.Millisecond)
	a := DefaultApp("tags", "trace")
	a.Trace, a.Hosts = tr, []string{"H1", "H2"}
	m, _ := runApps(t, starScenario("tags", 2, a), c, 1)
	us := func(d engine.Time) float64 { return float64(d) / float64(engine.Microsecond) }
	want := us(a.SendOverhead) + 100 + oneWay(c, a, 8) + 50 + us(a.RecvOverhead)
	within(t, "tags_completion_us", m["tags_completion_us"], want, 0.01)

	bad, err := ParseGOAL([]byte("num_ranks 2\nrank 0 {\nl1: send 8b to 1 tag 1\n}\nrank 1 {\nl1: recv 8b from 0 tag 2\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	a.Trace = bad
	_, err = Run(starScenario("tags", 2, a), c, 1)
	if !errors.Is(err, ErrAppUnfinished) || !strings.Contains(err.Error(), "rank 1 at operation 1 of 1, recv 8 B from rank 0 tag 2") {
		t.Fatalf("err = %v, want ErrAppUnfinished naming rank 1's recv with tag 2", err)
	}
}

// TestParseGOALTags: a send's and a receive's tag is kept (0 when none is
// given), cpu and nic are read and ignored, a tag outside 0..2^31-1 is an
// error at its line.
func TestParseGOALTags(t *testing.T) {
	tr, err := ParseGOAL([]byte("num_ranks 2\nrank 0 {\na: send 4b to 1 tag 7 cpu 1\nb: recv 4b from 1 nic 0\n}\nrank 1 {\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []appOp{{kind: opSend, peer: 1, arg: 4, tag: 7}, {kind: opRecv, peer: 1, arg: 4}}
	if len(tr.ops[0]) != 2 || tr.ops[0][0] != want[0] || tr.ops[0][1] != want[1] {
		t.Errorf("rank 0 runs %+v, want %+v", tr.ops[0], want)
	}
	for _, bad := range []string{"-1", "2147483648"} {
		_, err := ParseGOAL([]byte("num_ranks 2\nrank 0 {\na: send 4b to 1 tag " + bad + "\n}\n"))
		if err == nil || !strings.HasPrefix(err.Error(), "3: tag") {
			t.Errorf("tag %s: %v, want an error at line 3", bad, err)
		}
	}
}
