package workload

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
)

// TestParseGOALOrder checks that operations run in a topological order of
// their dependencies, file order among the ready ones.
func TestParseGOALOrder(t *testing.T) {
	tr, err := ParseGOAL([]byte("num_ranks 2\nrank 0 {\na: calc 5\nb: send 4b to 1\nc: recv 4b from 1\nb requires c\n}\nrank 1 {\nx: recv 4b from 0\ny: send 4b to 0\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	got := tr.Ops[0]
	want := []Op{{Kind: OpCompute, Dur: 5 * engine.Nanosecond}, {Kind: OpRecv, Peer: 1, Size: 4}, {Kind: OpSend, Peer: 1, Size: 4}}
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

// FuzzGOAL checks that any input either parses into programs whose
// operations name other ranks of the schedule, or fails with a
// *GOALError naming a line of the input; never a panic.
func FuzzGOAL(f *testing.F) {
	f.Add(goalFile(f, "dissemination4"))
	f.Add([]byte("num_ranks 2\nrank 0 {\na: calc 5\nb: send 4b to 1\nb irequires a\n}\nrank 1 {\nx: recv 4b from 0 tag 3\n}\n"))
	f.Add([]byte("num_ranks 1\nrank 0 {\n}\n"))
	f.Add([]byte("num_ranks 2\nrank 0 {\na: calc 1\nb: calc 1\na requires b\nb requires a\n}\n"))
	f.Add([]byte("num_ranks 3\nrank 2 { \n l1: recv 99999999999b from 0\n}"))
	f.Add(goalFile(f, "tag_reorder"))
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
		if tr.Ranks < 1 || len(tr.Ops) != tr.Ranks {
			t.Fatalf("%d ranks, %d programs", tr.Ranks, len(tr.Ops))
		}
		for r, prog := range tr.Ops {
			for _, op := range prog {
				if op.Kind != OpCompute && (op.Peer < 0 || int(op.Peer) >= tr.Ranks || int(op.Peer) == r) {
					t.Fatalf("rank %d: operation %+v names rank %d", r, op, op.Peer)
				}
				if op.Size < 0 || op.Dur < 0 || op.Tag < 0 {
					t.Fatalf("rank %d: operation %+v has a negative size, time or tag", r, op)
				}
			}
		}
	})
}

// TestParseGOALTags: a send's and a receive's tag is kept (0 when none is
// given), cpu and nic are read and ignored, a tag outside 0..2^31-1 is an
// error at its line.
func TestParseGOALTags(t *testing.T) {
	tr, err := ParseGOAL([]byte("num_ranks 2\nrank 0 {\na: send 4b to 1 tag 7 cpu 1\nb: recv 4b from 1 nic 0\n}\nrank 1 {\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []Op{{Kind: OpSend, Peer: 1, Size: 4, Tag: 7}, {Kind: OpRecv, Peer: 1, Size: 4}}
	if len(tr.Ops[0]) != 2 || tr.Ops[0][0] != want[0] || tr.Ops[0][1] != want[1] {
		t.Errorf("rank 0 runs %+v, want %+v", tr.Ops[0], want)
	}
	for _, bad := range []string{"-1", "2147483648"} {
		_, err := ParseGOAL([]byte("num_ranks 2\nrank 0 {\na: send 4b to 1 tag " + bad + "\n}\n"))
		if err == nil || !strings.HasPrefix(err.Error(), "3: tag") {
			t.Errorf("tag %s: %v, want an error at line 3", bad, err)
		}
	}
}

// goalFile returns the GOAL schedule testdata/NAME.goal.
func goalFile(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name+".goal"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestGOALErrorsAtTheirLines checks the reader's other refusals, each with
// its exact message at its line (a *GOALError), so that every error path of
// ParseGOAL and parseGOALOp has a case here or in TestGOALErrors and
// TestMutGOALLimits.
// Kills (planted by hand) `a == b` negated, `len(f) != 2` to `< 2`, `f[2]
// != "{"` dropped, `len(f) != 1` dropped for "}", `label == ""` negated,
// parseGOALOp's `len(f) == 0` to `== 1`, `f[2] != dir` negated,
// `len(f) < 2` to `<=` for calc, the number error's `rest[i+1]` to
// `rest[i-1]`, and either of opts' `!= "cpu"`, `!= "nic"` negated.
func TestGOALErrorsAtTheirLines(t *testing.T) {
	head := "num_ranks 2\nrank 0 {\n"
	for _, tc := range []struct{ name, text, want string }{
		{"num_ranks twice", "num_ranks 2\nnum_ranks 3\n", "2: num_ranks given twice"},
		{"num_ranks without N", "num_ranks\n", "1: want num_ranks N"},
		{"num_ranks and more", "num_ranks 2 3\n", "1: want num_ranks N"},
		{"rank without {", "num_ranks 2\nrank 0\n", "2: want rank R {"},
		{"rank with another word", "num_ranks 2\nrank 0 [\n", "2: want rank R {"},
		{"} without a block", "num_ranks 2\n}\n", "2: } without an open rank block"},
		{"} and more", head + "} }\n", "3: } without an open rank block"},
		{"empty label", head + ": calc 1\n}\n", "3: empty label"},
		{"nothing after the label", head + "a:\n}\n", "3: want send, recv or calc after the label"},
		{"send without to", head + "a: send 8b 1\n}\n", "3: want send SIZEb to RANK [tag T]"},
		{"recv with to", head + "a: recv 8b to 1\n}\n", "3: want recv SIZEb from RANK [tag T]"},
		{"calc without time", head + "a: calc\n}\n", "3: want calc NANOSECONDS"},
		{"tag not a number", head + "a: send 8b to 1 tag x\n}\n", `3: tag "x": want a whole number`},
		{"cpu not a number", head + "a: calc 1 cpu one\n}\n", `3: cpu "one": want a whole number`},
		{"requires itself", head + "a: calc 1\na requires a\n}\n", "4: a requires itself"},
		{"requires an unknown label", head + "a: calc 1\nb requires a\n}\n", "4: no operation labelled b in rank 0"},
		{"not an operation", head + "a calc 1\n}\n", `3: "a calc 1": want LABEL: send|recv|calc ..., LABEL requires LABEL, rank R { or }`},
		{"size past 2^30 in a recv", head + "a: recv 2000000000b from 1\n}\n", `3: size "2000000000b": want bytes with a b, e.g. 8b, at most 2^30`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseGOAL([]byte(tc.text))
			var ge *GOALError
			if !errors.As(err, &ge) || err.Error() != tc.want {
				t.Errorf("err = %v, want a *GOALError %q", err, tc.want)
			}
		})
	}
	// cpu and nic are read and ignored.
	tr := goalOK(t, head+"a: send 8b to 1 cpu 3 nic 1 tag 4\nb: calc 2 nic 0\n}\n")
	if want := (Op{Kind: OpSend, Peer: 1, Size: 8, Tag: 4}); len(tr.Ops[0]) != 2 || tr.Ops[0][0] != want {
		t.Errorf("cpu and nic: rank 0 runs %+v, want %+v first", tr.Ops[0], want)
	}
}
