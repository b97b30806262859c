package workload

import (
	"bytes"
	"errors"
	"fmt"
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

// goalOK parses text and fails the test on an error.
func goalOK(t *testing.T, text string) *Trace {
	t.Helper()
	tr, err := ParseGOAL([]byte(text))
	if err != nil {
		t.Fatalf("%q: %v", text, err)
	}
	return tr
}

// TestMutGOALLimits checks ParseGOAL's documented ranges at their ends and
// one past: a size from 0b to 2^30 bytes, a peer rank 0 to num_ranks-1, a
// tag 0 to 2^31-1, calc 0 to one hour in nanoseconds, a rank block 0 to
// num_ranks-1; each value past an end is an error at its own line, never a
// panic.
// Kills goal.go's `v > 1<<30` to `>=` (size), `v < 0` to `<=` and
// `v > math.MaxInt32` to `>=` (tag), calc's `v < 0` to `<=`, `v > ...` to
// `>=` and `engine.Second/engine.Nanosecond` to `*`, the rank block's
// `t.Ranks-1` to `+1` (rank num_ranks then indexes past seen: a panic), and
// opts' `i+1 >= len(rest)` to `>` (a trailing "tag" without its value
// indexes past the words: a panic).
func TestMutGOALLimits(t *testing.T) {
	const hour = 3600 * 1000 * 1000 * 1000 // ns
	ok := func(op string) Op {
		t.Helper()
		tr := goalOK(t, "num_ranks 3\nrank 0 {\na: "+op+"\n}\n")
		if len(tr.Ops[0]) != 1 {
			t.Fatalf("%q: rank 0 runs %v", op, tr.Ops[0])
		}
		return tr.Ops[0][0]
	}
	for _, c := range []struct {
		op   string
		want Op
	}{
		{"send 0b to 1", Op{Kind: OpSend, Peer: 1}},
		{"send 1073741824b to 2", Op{Kind: OpSend, Peer: 2, Size: 1 << 30}},
		{"recv 8b from 2 tag 0", Op{Kind: OpRecv, Peer: 2, Size: 8}},
		{"recv 8b from 1 tag 2147483647", Op{Kind: OpRecv, Peer: 1, Size: 8, Tag: 1<<31 - 1}},
		{"calc 0", Op{Kind: OpCompute}},
		{fmt.Sprintf("calc %d", hour), Op{Kind: OpCompute, Dur: 3600 * engine.Second}},
	} {
		if got := ok(c.op); got != c.want {
			t.Errorf("%q: %+v, want %+v", c.op, got, c.want)
		}
	}
	for _, c := range []struct{ text, want string }{
		{"num_ranks 3\nrank 0 {\na: send 1073741825b to 1\n}\n", `3: size "1073741825b"`},
		{"num_ranks 3\nrank 0 {\na: send -1b to 1\n}\n", `3: size "-1b"`},
		{"num_ranks 3\nrank 0 {\na: send 8b to 3\n}\n", `3: rank "3": want 0 to 2`},
		{"num_ranks 3\nrank 0 {\na: send 8b to -1\n}\n", `3: rank "-1"`},
		{"num_ranks 3\nrank 0 {\na: send 8b to 1 tag -1\n}\n", `3: tag "-1"`},
		{"num_ranks 3\nrank 0 {\na: send 8b to 1 tag 2147483648\n}\n", `3: tag "2147483648"`},
		{"num_ranks 3\nrank 0 {\na: send 8b to 1 tag\n}\n", `3: "tag": want tag T`},
		{"num_ranks 3\nrank 0 {\na: calc 5 cpu\n}\n", `3: "cpu": want tag T`},
		{fmt.Sprintf("num_ranks 3\nrank 0 {\na: calc %d\n}\n", hour+1), `3: calc "3600000000001"`},
		{"num_ranks 3\nrank 0 {\na: calc -1\n}\n", `3: calc "-1"`},
		{"num_ranks 3\nrank 3 {\n}\n", `2: rank "3": want a whole number from 0 to 2`},
		{"num_ranks 3\nrank -1 {\n}\n", `2: rank "-1"`},
		{"num_ranks 0\n", `1: num_ranks "0"`},
		{"num_ranks 65537\n", `1: num_ranks "65537"`},
	} {
		_, err := ParseGOAL([]byte(c.text))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one starting %q", c.text, err, c.want)
		}
	}
	if tr := goalOK(t, "num_ranks 65536\nrank 65535 {\n}\n"); tr.Ranks != 65536 || len(tr.Ops) != 65536 {
		t.Errorf("num_ranks 65536: %d ranks, %d programs", tr.Ranks, len(tr.Ops))
	}
}

// TestMutGOALCycleNamesAnOperationOnIt checks that a cycle of dependencies
// is reported at an operation on the cycle, not at one that merely comes
// first in the rank: here a (line 3) is free and b, c (lines 4, 5) require
// each other, so the error is at line 4.
// Kills goal.go's `d > 0` to `d >= 0` in the cycle report (it names the
// first operation, whatever its in-degree).
func TestMutGOALCycleNamesAnOperationOnIt(t *testing.T) {
	_, err := ParseGOAL([]byte("num_ranks 2\nrank 0 {\na: calc 1\nb: calc 1\nc: calc 1\nb requires c\nc requires b\n}\n"))
	if err == nil || !strings.HasPrefix(err.Error(), "4: rank 0: the dependencies form a cycle") {
		t.Errorf("error %v, want a cycle at line 4 (b)", err)
	}
}

// TestMutGOALRankInsideAnOpenBlock checks that a rank block opened inside
// another (rank 0's, still open) is an error at its line (found by the
// measurement sample, after its figure was recorded).
// Kills goal.go's `rank >= 0` to `>` (rank 0's open block not seen).
func TestMutGOALRankInsideAnOpenBlock(t *testing.T) {
	_, err := ParseGOAL([]byte("num_ranks 2\nrank 0 {\na: calc 1\nrank 1 {\n}\n"))
	if err == nil || !strings.HasPrefix(err.Error(), "4: rank 0's block is still open") {
		t.Errorf("error %v, want one at line 4: rank 0's block is still open", err)
	}
}

// TestMutGOALSlashCommentAtLineStart checks that '//' starts a comment
// (ParseGOAL's comment) wherever it is on a line, the first column
// included, as '#' does.
// Kills goal.go's `i >= 0` to `i > 0` for "//" (session 12's survivor
// goal.go:165:40: a line starting with // read as an operation).
func TestMutGOALSlashCommentAtLineStart(t *testing.T) {
	tr := goalOK(t, "// a schedule\nnum_ranks 2 // two\n# ranks\nrank 0 {\n// first\na: calc 5 //ns\n}\n//\n")
	if tr.Ranks != 2 || len(tr.Ops[0]) != 1 || tr.Ops[0][0].Dur != 5*engine.Nanosecond || len(tr.Ops[1]) != 0 {
		t.Errorf("ranks %d, programs %v; want 2, rank 0 one calc of 5 ns", tr.Ranks, tr.Ops)
	}
}

// A schedule holds at most maxOps operations over all ranks (ParseGOAL:
// maxGOALOps): with a limit of 4, two ranks of two operations each are
// read, and the fifth operation, in either rank, is refused at its line,
// naming the limit. Kills goal.go's `total++` turned into `total--` and
// `total > maxOps` into `>=` (the limit of 2^22 is parsed the same way;
// a schedule that size is 50 MB of text).
func TestGOALOperationLimitCountsEveryRank(t *testing.T) {
	schedule := func(ops0, ops1 int) string {
		var b strings.Builder
		b.WriteString("num_ranks 2\n")
		for r, n := range []int{ops0, ops1} {
			fmt.Fprintf(&b, "rank %d {\n", r)
			for i := range n {
				fmt.Fprintf(&b, "c%d: calc %d\n", i, i+1)
			}
			b.WriteString("}\n")
		}
		return b.String()
	}
	tr, err := parseGOAL([]byte(schedule(2, 2)), 4)
	if err != nil {
		t.Fatalf("4 operations under a limit of 4: %v", err)
	}
	if n := len(tr.Ops[0]) + len(tr.Ops[1]); n != 4 {
		t.Fatalf("4 operations read as %d", n)
	}
	for _, c := range []struct{ ops0, ops1, line int }{
		{5, 0, 7}, // the fifth operation is rank 0's fifth
		{3, 2, 9}, // rank 1's second
		{2, 3, 9}, // rank 1's third
		{0, 5, 9}, // rank 1's fifth, rank 0 empty
	} {
		_, err := parseGOAL([]byte(schedule(c.ops0, c.ops1)), 4)
		var ge *GOALError
		if !errors.As(err, &ge) || ge.Line != c.line || ge.Msg != "more than 4 operations" {
			t.Errorf("%d + %d operations under a limit of 4: %v; want line %d: more than 4 operations", c.ops0, c.ops1, err, c.line)
		}
	}
}
