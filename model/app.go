package model

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/fabric"
	"github.com/ccsweep/ccsweep/model/workload"
)

// This file holds closed-loop applications (docs/apps.md): an app's ranks
// run programs of send, receive and compute operations, and a rank's next
// operation waits for its last one, so congestion turns into the app's
// time to solution.
//
// An app sits on the adapters the way SST's Ember motifs sit on the NIC:
// it only posts messages to queue pairs and waits for them, never reaching
// into routing or buffers. Each (source host, destination host) pair an
// app uses is one queue pair (a flow of role App) whose message queue the
// app fills; a message is received when its last byte is in host memory
// (the receive DMA has moved it, hca.go's receive). Ranks on one host talk
// through shared memory: a latency and a bandwidth, no network.
//
// Time model of one rank (LogGP's overheads, Culler et al. 1993; Alexandrov
// et al. 1995): a send keeps the rank busy SendOverhead, then hands the
// message to the adapter and the rank goes on (an eager send: the receive
// need not be posted); a receive waits for the whole message, then keeps
// the rank busy RecvOverhead; compute keeps it busy its time. Receives
// match messages from their source rank in the order they were sent.

// ErrAppUnfinished is wrapped by the error of a run whose app did not
// finish by the run's end: a deadlock (a receive no send matches) or a
// program longer than the run.
var ErrAppUnfinished = errors.New("app did not finish")

// AppError reports an app that is wrong for its scenario; Field names the
// AppSpec field at fault (as the scenario file spells it). It wraps
// ErrBadScenario.
type AppError struct {
	App   int // index in the scenario's apps
	Name  string
	Field string
	Msg   string
}

func (e *AppError) Error() string {
	return fmt.Sprintf("%v: app %s: %s: %s", fabric.ErrBadScenario, e.Name, e.Field, e.Msg)
}

// Unwrap returns ErrBadScenario.
func (e *AppError) Unwrap() error { return fabric.ErrBadScenario }

// AppResult is what an app measured in a run.
type AppResult struct {
	Name, Label, Program string
	// Metrics are the app's metrics by full name (LABEL_...), in a fixed
	// order; NaN where nothing was measured.
	Metrics []AppMetric
	// IterationUs are a collective app's iteration times in µs.
	IterationUs []float64
}

// AppMetric is one metric of an app.
type AppMetric struct {
	Name  string
	Value float64
}

// Operation kinds of a rank's program.
const (
	opSend uint8 = iota
	opRecv
	opCompute
	opMark // record the time in mark slot arg
)

// appOp is one operation of a rank's program.
type appOp struct {
	kind uint8
	peer int32 // send, recv: the other rank
	arg  int32 // send, recv: bytes; mark: slot
	tag  int32 // send, recv: the message's tag (traces; 0 for built-in programs)
	dur  engine.Time
}

// traceOp returns a trace's operation as a rank runs it.
func traceOp(op workload.Op) appOp {
	switch op.Kind {
	case workload.OpSend:
		return appOp{kind: opSend, peer: op.Peer, arg: op.Size, tag: op.Tag}
	case workload.OpRecv:
		return appOp{kind: opRecv, peer: op.Peer, arg: op.Size, tag: op.Tag}
	}
	return appOp{kind: opCompute, dur: op.Dur}
}

// rankState is a rank's progress.
type rankState struct {
	pc      int
	inOp    bool    // the current send's or receive's overhead has been charged
	waiting bool    // blocked in a receive
	arrived []int32 // messages arrived and not yet received, by source rank
	// tags are, for an app with tags (appRun.tagged), the tags of the
	// messages arrived and not yet received, by source rank, in order of
	// arrival; arrived is unused then.
	tags   [][]int32
	marks  [][]engine.Time
	done   bool
	doneAt engine.Time
}

// appRun is an app in a run.
type appRun struct {
	spec      *workload.AppSpec
	n         int
	host      []int32 // rank → HCA
	ops       [][]appOp
	rk        []rankState
	slots     int
	flowOf    map[[2]int32]int32 // (source HCA, destination HCA) → flow
	shmMbps   int64
	tagged    bool // some operation has a tag other than 0: receives match by (source, tag)
	started   bool
	start     engine.Time
	finished  int
	followers []int32
}

// appMsg is a message in flight.
type appMsg struct{ app, src, dst, tag int32 }

// appsState is the run's applications.
type appsState struct {
	list  []appRun
	flow0 int32     // the first app flow; flows from here on carry apps
	fifo  [][]int32 // per app flow: messages sent and not yet received, in order
	msgs  []appMsg
	free  []int32
	err   error // a failure found during the run
}

// packRank makes an event argument of app a's rank r.
func packRank(a, r int32) uint32 { return uint32(a)<<20 | uint32(r) }

// addApps builds the apps' programs and their flows.
func (n *Network) addApps(specs []workload.AppSpec, hostNames []string, hostIndex map[string]int, seed uint64) error {
	if len(specs) == 0 {
		return nil
	}
	if len(specs) >= 1<<12 {
		return fmt.Errorf("%w: %d apps; at most 4095", fabric.ErrBadScenario, len(specs))
	}
	as := &appsState{flow0: int32(len(n.flows))}
	byName := map[string]int32{}
	metricOwner := map[string]string{}
	for i := range specs {
		sp := &specs[i]
		bad := func(field, format string, args ...any) error {
			return &AppError{App: i, Name: sp.Name, Field: field, Msg: fmt.Sprintf(format, args...)}
		}
		if _, dup := byName[sp.Name]; dup || sp.Name == "" {
			return bad("name", "%q: want a unique name", sp.Name)
		}
		byName[sp.Name] = int32(i)
		ar := appRun{spec: sp, shmMbps: mbps(sp.SHMGbps)}
		rph := max(sp.RanksPerHost, 1)
		var hosts []int32
		for _, h := range sp.Hosts {
			k, ok := hostIndex[h]
			if !ok {
				return bad("hosts", "%q is not a host of the topology", h)
			}
			hosts = append(hosts, int32(k))
		}
		if len(hosts) == 0 {
			for k := range hostNames {
				hosts = append(hosts, int32(k))
			}
		}
		ar.n = sp.Ranks
		if ar.n == 0 {
			ar.n = len(hosts) * rph
		}
		if sp.Program == "trace" && sp.Trace != nil && sp.Ranks == 0 {
			ar.n = sp.Trace.Ranks
		}
		if ar.n > len(hosts)*rph {
			return bad("ranks", "%d ranks do not fit on %d hosts with ranks_per_host %d", ar.n, len(hosts), rph)
		}
		if ar.n < 2 {
			return bad("ranks", "%d: an app needs at least two ranks", ar.n)
		}
		if ar.n >= 1<<20 {
			return bad("ranks", "%d: at most %d", ar.n, 1<<20-1)
		}
		for r := 0; r < ar.n; r++ {
			ar.host = append(ar.host, hosts[r/rph])
		}
		rng := rand.New(rand.NewPCG(seed, streamID("app:"+sp.Name, -1)))
		ops, slots, err := buildProgram(sp, ar.n, rng)
		if err != nil {
			var ae *AppError
			if errors.As(err, &ae) {
				ae.App, ae.Name = i, sp.Name
			}
			return err
		}
		ar.ops, ar.slots = ops, slots
		for _, prog := range ops {
			ar.tagged = ar.tagged || slices.ContainsFunc(prog, func(op appOp) bool { return op.tag != 0 })
		}
		ar.rk = make([]rankState, ar.n)
		for r := range ar.rk {
			if ar.tagged {
				ar.rk[r].tags = make([][]int32, ar.n)
			} else {
				ar.rk[r].arrived = make([]int32, ar.n)
			}
			ar.rk[r].marks = make([][]engine.Time, slots)
		}
		// One queue pair per pair of hosts the program sends between,
		// in the order of the first send.
		ar.flowOf = map[[2]int32]int32{}
		for r, prog := range ops {
			for _, op := range prog {
				if op.kind != opSend {
					continue
				}
				key := [2]int32{ar.host[r], ar.host[op.peer]}
				if key[0] == key[1] {
					continue
				}
				if _, ok := ar.flowOf[key]; ok {
					continue
				}
				fi := int32(len(n.flows))
				ar.flowOf[key] = fi
				fs := workload.FlowSpec{Name: fmt.Sprintf("%s:%s>%s", sp.Name, hostNames[key[0]], hostNames[key[1]]),
					Src: hostNames[key[0]], Dst: hostNames[key[1]], Role: workload.App}
				g := &generator{arrival: arriveApp, next: math.MaxInt64, winFrom: n.end, winTo: n.end}
				n.addFlow(fs, int(key[0]), int(key[1]), g)
				as.fifo = append(as.fifo, nil)
			}
		}
		label, field := sp.Label, "label"
		if label == "" {
			label, field = sp.Name, "name"
		}
		if !metricWord(label) {
			return bad(field, "%q: an app's metrics are named after it: want lowercase letters, digits and '_', starting with a letter, at most 64", label)
		}
		for _, name := range appMetricNames(sp) {
			if LookupMetric(name) != nil {
				return bad(field, "metric %s is a metric of every run: give the app another %s", name, field)
			}
			if other, dup := metricOwner[name]; dup {
				return bad("label", "metric %s is reported by app %s too: give one of them another label or report", name, other)
			}
			metricOwner[name] = sp.Name
		}
		as.list = append(as.list, ar)
	}
	for i := range as.list {
		sp := as.list[i].spec
		if sp.After == "" {
			n.sim.At(engine.Time(sp.StartPhase)*n.cfg.Phase, evAppRank, packRank(int32(i), 1<<20-1))
			continue
		}
		j, ok := byName[sp.After]
		if !ok || j == int32(i) {
			return &AppError{App: i, Name: sp.Name, Field: "after", Msg: fmt.Sprintf("%q is not another app of the scenario", sp.After)}
		}
		as.list[j].followers = append(as.list[j].followers, int32(i))
	}
	// An app waiting for itself through others never starts: refuse it.
	for i := range as.list {
		seen := map[int32]bool{}
		for j := int32(i); as.list[j].spec.After != ""; {
			if seen[j] {
				return &AppError{App: i, Name: as.list[i].spec.Name, Field: "after", Msg: "the apps wait for each other in a cycle"}
			}
			seen[j] = true
			j = byName[as.list[j].spec.After]
		}
	}
	n.apps = as
	return nil
}

// arriveApp marks the generator of an app flow: the app pushes its
// messages, none arrive by themselves (next stays at the end of time).
const arriveApp uint8 = 0x80

// appStart starts app a now: every rank runs.
func (n *Network) appStart(a int32) {
	ap := &n.apps.list[a]
	ap.started, ap.start = true, n.sim.Now()
	for r := range ap.n {
		n.appStep(a, int32(r))
	}
}

// appEvent handles an evAppRank event: an app's start (rank 2^20-1) or a
// rank whose operation's time has passed.
func (n *Network) appEvent(arg uint32) {
	a, r := int32(arg>>20), int32(arg&(1<<20-1))
	if r == 1<<20-1 {
		n.appStart(a)
		return
	}
	n.appStep(a, r)
}

// appStep runs rank r of app a from its current operation until it has to
// wait: for time to pass (an event wakes it) or for a message.
func (n *Network) appStep(a, r int32) {
	ap := &n.apps.list[a]
	rs := &ap.rk[r]
	ops := ap.ops[r]
	now := n.sim.Now()
	for rs.pc < len(ops) {
		op := &ops[rs.pc]
		switch op.kind {
		case opCompute:
			rs.pc++
			if op.dur > 0 {
				n.sim.At(now+op.dur, evAppRank, packRank(a, r))
				return
			}
		case opMark:
			rs.marks[op.arg] = append(rs.marks[op.arg], now)
			rs.pc++
		case opSend:
			if o := ap.spec.SendOverhead; !rs.inOp && o > 0 {
				rs.inOp = true
				n.sim.At(now+o, evAppRank, packRank(a, r))
				return
			}
			rs.inOp = false
			rs.pc++
			n.appPost(a, r, op.peer, op.arg, op.tag)
		case opRecv:
			if rs.inOp { // its overhead has passed
				rs.inOp = false
				rs.pc++
				continue
			}
			if !ap.take(rs, op) {
				rs.waiting = true
				return
			}
			if o := ap.spec.RecvOverhead; o > 0 {
				rs.inOp = true
				n.sim.At(now+o, evAppRank, packRank(a, r))
				return
			}
			rs.pc++
		}
	}
	if rs.done {
		return
	}
	rs.done, rs.doneAt = true, now
	ap.finished++
	if ap.finished == ap.n {
		for _, f := range ap.followers {
			n.appStart(f)
		}
	}
}

// take receives, for rank state rs, the message op waits for if it has
// arrived: the first one from op.peer (with op.tag, if the app has tags,
// as GOAL and MPI match by source and tag, in order of arrival). It
// reports whether there was one.
func (ap *appRun) take(rs *rankState, op *appOp) bool {
	if !ap.tagged {
		if rs.arrived[op.peer] == 0 {
			return false
		}
		rs.arrived[op.peer]--
		return true
	}
	q := rs.tags[op.peer]
	i := slices.Index(q, op.tag)
	if i < 0 {
		return false
	}
	rs.tags[op.peer] = slices.Delete(q, i, i+1)
	return true
}

// appPost hands a message of size bytes and tag from rank r of app a to
// rank peer: through shared memory on one host, else to the queue pair of
// the two hosts.
func (n *Network) appPost(a, r, peer, size, tag int32) {
	as := n.apps
	ap := &as.list[a]
	var id int32
	if k := len(as.free); k > 0 {
		id = as.free[k-1]
		as.free = as.free[:k-1]
	} else {
		id = int32(len(as.msgs))
		as.msgs = append(as.msgs, appMsg{})
	}
	as.msgs[id] = appMsg{app: a, src: r, dst: peer, tag: tag}
	hs, hd := ap.host[r], ap.host[peer]
	now := n.sim.Now()
	if hs == hd {
		n.sim.At(now+ap.spec.SHMLatency+txTime(size, ap.shmMbps), evAppMsg, uint32(id))
		return
	}
	fi := ap.flowOf[[2]int32{hs, hd}]
	g := n.flows[fi].gen
	if g.n == maxQueued {
		if as.err == nil {
			as.err = fmt.Errorf("app %s: rank %d has %d messages waiting at its queue pair to host %d: the program posts faster than the network delivers",
				ap.spec.Name, r, maxQueued, hd)
		}
		as.free = append(as.free, id)
		return
	}
	// A 0-byte message still travels as a packet: it carries one byte.
	g.push(pending{at: now, size: max(size, 1), dst: hd})
	as.fifo[fi-as.flow0] = append(as.fifo[fi-as.flow0], id)
	n.tryHCA(hs)
}

// appDelivered notes that the message app flow fi sent first, of those not
// yet received, is in host memory at end.
func (n *Network) appDelivered(fi int32, end engine.Time) {
	q := &n.apps.fifo[fi-n.apps.flow0]
	id := (*q)[0]
	*q = (*q)[1:]
	n.sim.At(end, evAppMsg, uint32(id))
}

// appArrive handles an evAppMsg event: message id is at its destination.
func (n *Network) appArrive(id int32) {
	as := n.apps
	m := as.msgs[id]
	as.free = append(as.free, id)
	ap := &as.list[m.app]
	rs := &ap.rk[m.dst]
	if ap.tagged {
		rs.tags[m.src] = append(rs.tags[m.src], m.tag)
	} else {
		rs.arrived[m.src]++
	}
	if rs.waiting {
		if op := &ap.ops[m.dst][rs.pc]; op.kind == opRecv && op.peer == m.src && (!ap.tagged || op.tag == m.tag) {
			rs.waiting = false
			n.appStep(m.app, m.dst)
		}
	}
}

// appErr returns why the run's apps failed: an error found during the run,
// or the apps that did not finish, naming each waiting rank's operation.
func (n *Network) appErr() error {
	if n.apps == nil {
		return nil
	}
	if n.apps.err != nil {
		return fmt.Errorf("%w: %v", ErrAppUnfinished, n.apps.err)
	}
	var msgs []string
	for i := range n.apps.list {
		ap := &n.apps.list[i]
		if ap.finished == ap.n {
			continue
		}
		if !ap.started {
			why := fmt.Sprintf("start_phase %d is past the run's end", ap.spec.StartPhase)
			if ap.spec.After != "" {
				why = "it waits for app " + ap.spec.After
			}
			msgs = append(msgs, fmt.Sprintf("app %s never started (%s)", ap.spec.Name, why))
			continue
		}
		var stuck []string
		for r := range ap.rk {
			rs := &ap.rk[r]
			if rs.done {
				continue
			}
			if len(stuck) == 3 {
				stuck = append(stuck, "...")
				break
			}
			pc := rs.pc
			if !rs.waiting && !rs.inOp && pc > 0 && ap.ops[r][pc-1].kind == opCompute {
				pc-- // it waits for its compute's end, past which appStep moved
			}
			op := ap.ops[r][pc]
			what := ""
			switch op.kind {
			case opRecv:
				what = fmt.Sprintf("recv %d B from rank %d", op.arg, op.peer)
				if ap.tagged {
					what += fmt.Sprintf(" tag %d", op.tag)
				}
				if !rs.waiting {
					what += " (its overhead)"
				}
			case opSend:
				what = fmt.Sprintf("send %d B to rank %d", op.arg, op.peer)
				if ap.tagged {
					what += fmt.Sprintf(" tag %d", op.tag)
				}
				what += " (its overhead)" // a send waits for nothing else
			case opCompute:
				what = fmt.Sprintf("compute %v", op.dur)
			}
			stuck = append(stuck, fmt.Sprintf("rank %d at operation %d of %d, %s", r, pc+1, len(ap.ops[r]), what))
		}
		msgs = append(msgs, fmt.Sprintf("app %s: %d of %d ranks unfinished at the run's end (%v): %s",
			ap.spec.Name, ap.n-ap.finished, ap.n, n.end, strings.Join(stuck, "; ")))
	}
	if len(msgs) == 0 {
		return nil
	}
	return fmt.Errorf("%w: %s", ErrAppUnfinished, strings.Join(msgs, "; "))
}

// Program building. Each builder appends to every rank's operations.

type progBuilder struct {
	ops   [][]appOp
	n     int
	slots int32
}

func (b *progBuilder) send(r, peer, size int) {
	b.ops[r] = append(b.ops[r], appOp{kind: opSend, peer: int32(peer), arg: int32(size)})
}
func (b *progBuilder) recv(r, peer, size int) {
	b.ops[r] = append(b.ops[r], appOp{kind: opRecv, peer: int32(peer), arg: int32(size)})
}
func (b *progBuilder) mark(r int, slot int32) {
	b.ops[r] = append(b.ops[r], appOp{kind: opMark, arg: slot})
}
func (b *progBuilder) compute(r int, d engine.Time) {
	if d > 0 {
		b.ops[r] = append(b.ops[r], appOp{kind: opCompute, dur: d})
	}
}

// newSlot returns a fresh mark slot.
func (b *progBuilder) newSlot() int32 { b.slots++; return b.slots - 1 }

// barrier is the dissemination barrier (Hensgen, Finkel and Manber 1988):
// ceil(log2 n) rounds; in round k rank r sends an empty message to
// r+2^k and receives one from r-2^k (mod n).
func (b *progBuilder) barrier() {
	for k := 1; k < b.n; k <<= 1 {
		for r := range b.n {
			b.send(r, (r+k)%b.n, 0)
			b.recv(r, (r-k+b.n)%b.n, 0)
		}
	}
}

// buildProgram returns every rank's operations for sp on n ranks and the
// number of mark slots they use.
func buildProgram(sp *workload.AppSpec, n int, rng *rand.Rand) ([][]appOp, int, error) {
	b := &progBuilder{ops: make([][]appOp, n), n: n}
	size := sp.Size
	iters := max(sp.Iterations, 1)
	bad := func(field, format string, args ...any) error {
		return &AppError{Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	switch sp.Program {
	case "pingpong":
		// HPC Challenge's cross_ping_pong_set: every ordered pair of
		// ranks, one pair at a time (the next client waits for a token
		// from the previous one); per pair a warm-up round trip, then
		// Iterations timed ones.
		prevClient := -1
		for c := range n {
			for s := range n {
				if s == c {
					continue
				}
				if prevClient != c && prevClient >= 0 {
					b.send(prevClient, c, 8) // the token
					b.recv(c, prevClient, 8)
				}
				prevClient = c
				start, end := b.newSlot(), b.newSlot()
				for i := -1; i < iters; i++ {
					if i == 0 {
						b.mark(c, start)
					}
					b.send(c, s, size)
					b.recv(s, c, size)
					b.send(s, c, size)
					b.recv(c, s, size)
				}
				b.mark(c, end)
			}
		}
	case "ring":
		// HPC Challenge's ring_lat_bw_loop: each rank sends to its right
		// and left neighbours and receives from both, Iterations times
		// after a warm-up; a barrier before each ring.
		patterns := 1
		if sp.Order == "random" {
			patterns = max(sp.Patterns, 1)
		} else if sp.Order != "natural" && sp.Order != "" {
			return nil, 0, bad("order", "%q: want natural or random", sp.Order)
		}
		order := make([]int, n)
		for range patterns {
			for i := range order {
				order[i] = i
			}
			if sp.Order == "random" {
				rng.Shuffle(n, func(i, j int) { order[i], order[j] = order[j], order[i] })
			}
			b.barrier()
			start, end := b.newSlot(), b.newSlot()
			for i := -1; i < iters; i++ {
				for pos, r := range order {
					right, left := order[(pos+1)%n], order[(pos-1+n)%n]
					if i == 0 {
						b.mark(r, start)
					}
					b.send(r, right, size)
					b.send(r, left, size)
					b.recv(r, left, size)
					b.recv(r, right, size)
				}
			}
			for r := range n {
				b.mark(r, end)
			}
		}
	case "allreduce", "alltoall", "bcast", "barrier":
		iterStart, opStart, opEnd := b.newSlot(), b.newSlot(), b.newSlot()
		if sp.Program == "allreduce" && sp.Algorithm == "rd" && bits.OnesCount(uint(n)) != 1 {
			return nil, 0, bad("ranks", "allreduce rd (recursive doubling) needs a power of two ranks, not %d", n)
		}
		if sp.Program == "allreduce" && sp.Algorithm != "rd" && sp.Algorithm != "ring" && sp.Algorithm != "" {
			return nil, 0, bad("algorithm", "%q: want ring or rd", sp.Algorithm)
		}
		if sp.Program == "bcast" && (sp.Root < 0 || sp.Root >= n) {
			return nil, 0, bad("root", "%d: want a rank from 0 to %d", sp.Root, n-1)
		}
		for range iters {
			for r := range n {
				b.mark(r, iterStart)
				b.compute(r, sp.Compute)
				b.mark(r, opStart)
			}
			b.collective(sp)
			for r := range n {
				b.mark(r, opEnd)
			}
		}
	case "trace":
		if sp.Trace == nil {
			return nil, 0, bad("trace", "program trace needs a trace file")
		}
		if sp.Trace.Ranks != n {
			return nil, 0, bad("ranks", "the trace has %d ranks, the app %d", sp.Trace.Ranks, n)
		}
		for r := range n {
			for _, op := range sp.Trace.Ops[r] {
				b.ops[r] = append(b.ops[r], traceOp(op))
			}
		}
	default:
		return nil, 0, bad("program", "%q: want one of %s", sp.Program, strings.Join(workload.AppPrograms, ", "))
	}
	return b.ops, int(b.slots), nil
}

// collective appends one collective operation of sp to every rank.
func (b *progBuilder) collective(sp *workload.AppSpec) {
	n, size := b.n, sp.Size
	switch sp.Program {
	case "barrier":
		b.barrier()
	case "allreduce":
		if sp.Algorithm == "rd" {
			// Recursive doubling: log2 n exchanges of the whole buffer
			// with the partner r XOR 2^k.
			for k := 1; k < n; k <<= 1 {
				for r := range n {
					b.send(r, r^k, size)
					b.recv(r, r^k, size)
				}
			}
			return
		}
		// Ring: a reduce-scatter and an allgather, n-1 steps each; in
		// each step every rank sends a chunk of size/n to its right
		// neighbour and receives one from its left.
		chunk := (size + n - 1) / n
		for range 2 * (n - 1) {
			for r := range n {
				b.send(r, (r+1)%n, chunk)
				b.recv(r, (r-1+n)%n, chunk)
			}
		}
	case "alltoall":
		// Pairwise exchange: in step i rank r sends its block to r+i and
		// receives one from r-i.
		for i := 1; i < n; i++ {
			for r := range n {
				b.send(r, (r+i)%n, size)
				b.recv(r, (r-i+n)%n, size)
			}
		}
	case "bcast":
		// Binomial tree from the root (MPICH's): a rank receives from its
		// parent, then sends to its children, farthest first.
		for r := range n {
			vr := (r - sp.Root + n) % n
			mask := 1
			for mask < n {
				if vr&mask != 0 {
					b.recv(r, (vr-mask+sp.Root)%n, size)
					break
				}
				mask <<= 1
			}
			for mask >>= 1; mask > 0; mask >>= 1 {
				if vr+mask < n {
					b.send(r, (vr+mask+sp.Root)%n, size)
				}
			}
		}
	}
}

// appMetricNames lists the names of the metrics sp reports, in order.
func appMetricNames(sp *workload.AppSpec) []string {
	label := sp.Label
	if label == "" {
		label = sp.Name
	}
	var lat, bw, other []string
	switch sp.Program {
	case "pingpong":
		for _, s := range []string{"min", "mean", "max"} {
			lat = append(lat, label+"_latency_"+s+"_us")
			bw = append(bw, label+"_bandwidth_"+s+"_mbps")
		}
	case "ring":
		lat = []string{label + "_latency_us"}
		bw = []string{label + "_bandwidth_mbps"}
	case "trace":
	default:
		for _, s := range []string{"min", "mean", "max", "p50", "p99"} {
			lat = append(lat, label+"_op_latency_"+s+"_us")
		}
		lat = append(lat, label+"_iteration_mean_us", label+"_iteration_p99_us")
	}
	other = []string{label + "_completion_us"}
	switch sp.Report {
	case "latency":
		return lat
	case "bandwidth":
		return bw
	}
	return slices.Concat(lat, bw, other)
}

// appResults returns what the apps measured.
func (n *Network) appResults() []AppResult {
	if n.apps == nil {
		return nil
	}
	var out []AppResult
	for i := range n.apps.list {
		ap := &n.apps.list[i]
		sp := ap.spec
		res := AppResult{Name: sp.Name, Label: sp.Label, Program: sp.Program}
		if res.Label == "" {
			res.Label = sp.Name
		}
		vals := map[string]float64{}
		label := res.Label
		nan := math.NaN()
		us := func(t engine.Time) float64 { return t.Micros() }
		completion := nan
		if ap.finished == ap.n {
			var last engine.Time
			for r := range ap.rk {
				last = max(last, ap.rk[r].doneAt)
			}
			completion = us(last - ap.start)
		}
		vals[label+"_completion_us"] = completion
		iters := float64(max(sp.Iterations, 1))
		// mark returns rank r's k-th time in slot s, and whether it has one.
		mark := func(r int, s, k int) (engine.Time, bool) {
			m := ap.rk[r].marks[s]
			if k < len(m) {
				return m[k], true
			}
			return 0, false
		}
		switch sp.Program {
		case "pingpong":
			// Per pair: half the round trip; min, mean and max over pairs
			// (HPC Challenge's latency_min/avg/max); bandwidth = size over
			// the latency in MB/s (10^6 bytes per second).
			var lats []float64
			slot := 0
			for c := range ap.n {
				for s := range ap.n {
					if s == c {
						continue
					}
					t0, ok0 := mark(c, slot, 0)
					t1, ok1 := mark(c, slot+1, 0)
					slot += 2
					if ok0 && ok1 {
						lats = append(lats, float64(t1-t0)/float64(engine.Microsecond)/(2*iters))
					}
				}
			}
			setStats(vals, label+"_latency_", lats, "_us")
			var bws []float64
			for _, l := range lats {
				bws = append(bws, float64(sp.Size)/l) // bytes per µs = MB/s
			}
			setStats(vals, label+"_bandwidth_", bws, "_mbps")
		case "ring":
			// Per ring: the slowest rank's loop time over 2·Iterations
			// (two messages per loop); random rings: the geometric mean
			// over the rings (HPC Challenge's ring_lat_bw_loop).
			var logSum float64
			count := 0
			for s := 0; s+1 < ap.slots; s += 2 {
				worst := math.Inf(-1)
				for r := range ap.n {
					t0, ok0 := mark(r, s, 0)
					t1, ok1 := mark(r, s+1, 0)
					if !ok0 || !ok1 {
						worst = math.NaN()
						break
					}
					worst = max(worst, float64(t1-t0)/float64(engine.Microsecond)/(2*iters))
				}
				logSum += math.Log(worst)
				count++
			}
			lat := math.Exp(logSum / float64(count))
			vals[label+"_latency_us"] = lat
			vals[label+"_bandwidth_mbps"] = float64(sp.Size) / lat
		case "trace":
		default:
			var opLat, iterT []float64
			prevEnd := ap.start
			for k := 0; k < int(iters); k++ {
				end := engine.Time(-1)
				for r := range ap.n {
					t0, ok0 := mark(r, 1, k)
					t1, ok1 := mark(r, 2, k)
					if !ok0 || !ok1 {
						end = -1
						break
					}
					opLat = append(opLat, us(t1-t0))
					end = max(end, t1)
				}
				if end < 0 {
					break
				}
				iterT = append(iterT, us(end-prevEnd))
				prevEnd = end
			}
			setStats(vals, label+"_op_latency_", opLat, "_us")
			vals[label+"_iteration_mean_us"] = Mean(iterT)
			vals[label+"_iteration_p99_us"] = quantile(iterT, 0.99)
			res.IterationUs = iterT
		}
		for _, name := range appMetricNames(sp) {
			v, ok := vals[name]
			if !ok {
				v = nan
			}
			res.Metrics = append(res.Metrics, AppMetric{Name: name, Value: v})
		}
		out = append(out, res)
	}
	return out
}

// metricWord reports whether s can start a metric name: lowercase letters,
// digits and '_', starting with a letter, at most 64 bytes.
func metricWord(s string) bool {
	if s == "" || len(s) > 64 || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for _, c := range []byte(s) {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// setStats sets prefix+{min,mean,max,p50,p99}+suffix of xs in vals (NaN for
// no values).
func setStats(vals map[string]float64, prefix string, xs []float64, suffix string) {
	lo, hi := math.NaN(), math.NaN()
	if len(xs) > 0 {
		lo, hi = slices.Min(xs), slices.Max(xs)
	}
	vals[prefix+"min"+suffix] = lo
	vals[prefix+"mean"+suffix] = Mean(xs)
	vals[prefix+"max"+suffix] = hi
	vals[prefix+"p50"+suffix] = quantile(xs, 0.5)
	vals[prefix+"p99"+suffix] = quantile(xs, 0.99)
}

// quantile returns the nearest-rank q-quantile of xs (NaN for none): the
// smallest value with at least q of the values at or below it.
func quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Sorted(slices.Values(xs))
	k := int(math.Ceil(q*float64(len(s)))) - 1
	return s[min(max(k, 0), len(s)-1)]
}
