package workload

import (
	"bufio"
	"bytes"
	"container/heap"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/ccsweep/ccsweep/engine"
)

// Trace is a per-rank program read from a GOAL schedule (ParseGOAL), for
// an app of program "trace".
type Trace struct {
	// Ranks is the schedule's num_ranks.
	Ranks int
	// Ops are the ranks' programs, Ops[r] rank r's operations in the
	// order the rank runs them.
	Ops [][]Op
}

// OpKind is what an operation of a trace does.
type OpKind uint8

// Operation kinds of a trace.
const (
	OpSend OpKind = iota
	OpRecv
	OpCompute
)

// Op is one operation of a rank's program in a trace.
type Op struct {
	Kind OpKind
	Peer int32       // send, recv: the other rank
	Size int32       // send, recv: bytes
	Tag  int32       // send, recv: the message's tag (0 when none is given)
	Dur  engine.Time // compute: how long
}

// GOALError is a malformed line of a GOAL schedule: Line counts from 1 (0:
// the schedule as a whole).
type GOALError struct {
	Line int
	Msg  string
}

func (e *GOALError) Error() string {
	if e.Line == 0 {
		return e.Msg
	}
	return fmt.Sprintf("%d: %s", e.Line, e.Msg)
}

// Limits of a GOAL schedule ParseGOAL reads.
const (
	maxGOALRanks = 1 << 16
	maxGOALOps   = 1 << 22 // operations over all ranks
)

// ParseGOAL reads a schedule in the GOAL text format of LogGOPSim
// (Hoefler, Schneider and Lumsdaine, HPDC 2010; spcl/LogGOPSim's
// txt2bin): "num_ranks N", then per rank "rank R { ... }" with
// operations "LABEL: send SIZEb to DST [tag T]", "LABEL: recv SIZEb from
// SRC [tag T]", "LABEL: calc NS" and dependencies "LABEL requires LABEL"
// (or irequires). Comments start with '#' or '//'.
//
// The model runs each rank on one CPU: its operations in a topological
// order of the dependencies, in file order among those ready, so that
// independent operations run one after another (sends are eager, so only
// receives wait). A receive matches, as LogGOPSim's and MPI's matching
// does, the first message arrived from its source with its tag (0 when
// none is given; no wildcards). calc's time is in nanoseconds.
func ParseGOAL(data []byte) (*Trace, error) { return parseGOAL(data, maxGOALOps) }

// parseGOAL is ParseGOAL with at most maxOps operations over all ranks.
func parseGOAL(data []byte, maxOps int) (*Trace, error) {
	type gop struct {
		op   Op
		line int
		deps []int
	}
	t := &Trace{}
	var (
		rank    = -1 // the rank whose block is open
		ops     []gop
		labels  map[string]int
		pending []struct {
			a, b string
			line int
		}
		seen  []bool
		total int
	)
	fail := func(line int, format string, args ...any) error {
		return &GOALError{Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	num := func(line int, s, what string, lo, hi int) (int, error) {
		v, err := strconv.Atoi(s)
		if err != nil || v < lo || v > hi {
			return 0, fail(line, "%s %q: want a whole number from %d to %d", what, s, lo, hi)
		}
		return v, nil
	}
	closeRank := func(line int) error {
		for _, p := range pending {
			a, okA := labels[p.a]
			b, okB := labels[p.b]
			switch {
			case !okA:
				return fail(p.line, "no operation labelled %s in rank %d", p.a, rank)
			case !okB:
				return fail(p.line, "no operation labelled %s in rank %d", p.b, rank)
			case a == b:
				return fail(p.line, "%s requires itself", p.a)
			}
			ops[a].deps = append(ops[a].deps, b)
		}
		// Kahn's algorithm, taking the earliest ready operation first.
		indeg := make([]int, len(ops))
		next := make([][]int, len(ops))
		for i := range ops {
			indeg[i] = len(ops[i].deps)
			for _, d := range ops[i].deps {
				next[d] = append(next[d], i)
			}
		}
		ready := &intHeap{}
		for i, d := range indeg {
			if d == 0 {
				ready.ints = append(ready.ints, i)
			}
		}
		heap.Init(ready)
		var prog []Op
		for ready.Len() > 0 {
			i := heap.Pop(ready).(int)
			prog = append(prog, ops[i].op)
			for _, j := range next[i] {
				if indeg[j]--; indeg[j] == 0 {
					heap.Push(ready, j)
				}
			}
		}
		if len(prog) != len(ops) {
			for i, d := range indeg {
				if d > 0 {
					return fail(ops[i].line, "rank %d: the dependencies form a cycle through this operation", rank)
				}
			}
		}
		t.Ops[rank] = prog
		rank = -1
		return nil
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if i := strings.Index(text, "#"); i >= 0 {
			text = text[:i]
		}
		if i := strings.Index(text, "//"); i >= 0 {
			text = text[:i]
		}
		f := strings.Fields(text)
		if len(f) == 0 {
			continue
		}
		switch {
		case f[0] == "num_ranks":
			if t.Ops != nil {
				return nil, fail(line, "num_ranks given twice")
			}
			if len(f) != 2 {
				return nil, fail(line, "want num_ranks N")
			}
			n, err := num(line, f[1], "num_ranks", 1, maxGOALRanks)
			if err != nil {
				return nil, err
			}
			t.Ranks, t.Ops, seen = n, make([][]Op, n), make([]bool, n)
		case f[0] == "rank":
			if t.Ops == nil {
				return nil, fail(line, "rank before num_ranks")
			}
			if rank >= 0 {
				return nil, fail(line, "rank %d's block is still open: want }", rank)
			}
			if len(f) != 3 || f[2] != "{" {
				return nil, fail(line, "want rank R {")
			}
			r, err := num(line, f[1], "rank", 0, t.Ranks-1)
			if err != nil {
				return nil, err
			}
			if seen[r] {
				return nil, fail(line, "rank %d given twice", r)
			}
			seen[r], rank, ops, labels, pending = true, r, nil, map[string]int{}, pending[:0]
		case f[0] == "}":
			if rank < 0 || len(f) != 1 {
				return nil, fail(line, "} without an open rank block")
			}
			if err := closeRank(line); err != nil {
				return nil, err
			}
		case rank < 0:
			return nil, fail(line, "%q outside a rank block", f[0])
		case len(f) == 3 && (f[1] == "requires" || f[1] == "irequires"):
			pending = append(pending, struct {
				a, b string
				line int
			}{f[0], f[2], line})
		case strings.HasSuffix(f[0], ":"):
			label := strings.TrimSuffix(f[0], ":")
			if label == "" {
				return nil, fail(line, "empty label")
			}
			if _, dup := labels[label]; dup {
				return nil, fail(line, "label %s used twice in rank %d", label, rank)
			}
			if total++; total > maxOps {
				return nil, fail(line, "more than %d operations", maxOps)
			}
			op, err := parseGOALOp(f[1:], rank, t.Ranks)
			if err != nil {
				return nil, fail(line, "%v", err)
			}
			labels[label] = len(ops)
			ops = append(ops, gop{op: op, line: line})
		default:
			return nil, fail(line, "%q: want LABEL: send|recv|calc ..., LABEL requires LABEL, rank R { or }", text)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fail(line+1, "%v", err)
	}
	if rank >= 0 {
		return nil, fail(line, "rank %d's block is not closed: want }", rank)
	}
	if t.Ops == nil {
		return nil, fail(0, "no num_ranks: not a GOAL schedule")
	}
	return t, nil
}

// parseGOALOp reads an operation (the words after its label) of rank
// of n ranks.
func parseGOALOp(f []string, rank, n int) (Op, error) {
	if len(f) == 0 {
		return Op{}, fmt.Errorf("want send, recv or calc after the label")
	}
	size := func(s string) (int32, error) {
		v, err := strconv.Atoi(strings.TrimSuffix(s, "b"))
		if !strings.HasSuffix(s, "b") || err != nil || v < 0 || v > 1<<30 {
			return 0, fmt.Errorf("size %q: want bytes with a b, e.g. 8b, at most 2^30", s)
		}
		return int32(v), nil
	}
	peer := func(s string) (int32, error) {
		v, err := strconv.Atoi(s)
		if err != nil || v < 0 || v >= n {
			return 0, fmt.Errorf("rank %q: want 0 to %d", s, n-1)
		}
		if v == rank {
			return 0, fmt.Errorf("rank %d sends to or receives from itself", rank)
		}
		return int32(v), nil
	}
	// Optional trailing "tag T" (and LogGOPSim's "cpu C", "nic N", read
	// and ignored); it returns the tag, 0 if none is given.
	opts := func(rest []string) (int32, error) {
		var tag int32
		for i := 0; i < len(rest); i += 2 {
			if i+1 >= len(rest) || (rest[i] != "tag" && rest[i] != "cpu" && rest[i] != "nic") {
				return 0, fmt.Errorf("%q: want tag T, cpu C or nic N", strings.Join(rest[i:], " "))
			}
			v, err := strconv.Atoi(rest[i+1])
			if err != nil {
				return 0, fmt.Errorf("%s %q: want a whole number", rest[i], rest[i+1])
			}
			if rest[i] == "tag" {
				if v < 0 || v > math.MaxInt32 {
					return 0, fmt.Errorf("tag %q: want 0 to %d", rest[i+1], math.MaxInt32)
				}
				tag = int32(v)
			}
		}
		return tag, nil
	}
	switch f[0] {
	case "send", "recv":
		dir := map[string]string{"send": "to", "recv": "from"}[f[0]]
		if len(f) < 4 || f[2] != dir {
			return Op{}, fmt.Errorf("want %s SIZEb %s RANK [tag T]", f[0], dir)
		}
		sz, err := size(f[1])
		if err != nil {
			return Op{}, err
		}
		p, err := peer(f[3])
		if err != nil {
			return Op{}, err
		}
		tag, err := opts(f[4:])
		if err != nil {
			return Op{}, err
		}
		kind := OpSend
		if f[0] == "recv" {
			kind = OpRecv
		}
		return Op{Kind: kind, Peer: p, Size: sz, Tag: tag}, nil
	case "calc":
		if len(f) < 2 {
			return Op{}, fmt.Errorf("want calc NANOSECONDS")
		}
		v, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil || v < 0 || v > int64(engine.Second/engine.Nanosecond)*3600 {
			return Op{}, fmt.Errorf("calc %q: want nanoseconds from 0 to one hour", f[1])
		}
		if _, err := opts(f[2:]); err != nil {
			return Op{}, err
		}
		return Op{Kind: OpCompute, Dur: engine.Time(v) * engine.Nanosecond}, nil
	}
	return Op{}, fmt.Errorf("%q: want send, recv or calc", f[0])
}

// intHeap is a min-heap of ints for container/heap.
type intHeap struct{ ints []int }

func (h *intHeap) Len() int           { return len(h.ints) }
func (h *intHeap) Less(i, j int) bool { return h.ints[i] < h.ints[j] }
func (h *intHeap) Swap(i, j int)      { h.ints[i], h.ints[j] = h.ints[j], h.ints[i] }
func (h *intHeap) Push(x any)         { h.ints = append(h.ints, x.(int)) }
func (h *intHeap) Pop() any {
	x := h.ints[len(h.ints)-1]
	h.ints = h.ints[:len(h.ints)-1]
	return x
}
