package model

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/workload"
)

// TestAppTraceBarrier replays the 4-rank dissemination barrier on one
// switch: two rounds of one one-way message (the second round's send
// waits for the first round's receive).
func TestAppTraceBarrier(t *testing.T) {
	tr, err := workload.ParseGOAL(goalFile(t, "dissemination4"))
	if err != nil {
		t.Fatal(err)
	}
	c := appConfig(engine.Millisecond)
	a := workload.DefaultApp("diss", "trace")
	a.Trace, a.Hosts = tr, []string{"H1", "H2", "H3", "H4"}
	m, _ := runApps(t, starScenario("diss", 4, a), c, 1)
	within(t, "diss_completion_us", m["diss_completion_us"], 2*oneWay(c, a, 1), 0.01)
}

// TestAppTraceTagsMatch: receives match by (source, tag), as in LogGOPSim:
// the trace's completion is rank 0's send overhead, its 100 µs, the
// second message's one-way time, rank 1's 50 µs and its last receive's
// overhead (about 100 µs less if the first receive took the tag-1
// message); a receive whose tag is never sent fails the run naming the
// rank, the operation and the tag.
func TestAppTraceTagsMatch(t *testing.T) {
	tr, err := workload.ParseGOAL(goalFile(t, "tag_reorder"))
	if err != nil {
		t.Fatal(err)
	}
	c := appConfig(engine.Millisecond)
	a := workload.DefaultApp("tags", "trace")
	a.Trace, a.Hosts = tr, []string{"H1", "H2"}
	m, _ := runApps(t, starScenario("tags", 2, a), c, 1)
	us := func(d engine.Time) float64 { return float64(d) / float64(engine.Microsecond) }
	want := us(a.SendOverhead) + 100 + oneWay(c, a, 8) + 50 + us(a.RecvOverhead)
	within(t, "tags_completion_us", m["tags_completion_us"], want, 0.01)

	bad, err := workload.ParseGOAL([]byte("num_ranks 2\nrank 0 {\nl1: send 8b to 1 tag 1\n}\nrank 1 {\nl1: recv 8b from 0 tag 2\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	a.Trace = bad
	_, err = Run(starScenario("tags", 2, a), c, 1)
	if !errors.Is(err, ErrAppUnfinished) || !strings.Contains(err.Error(), "rank 1 at operation 1 of 1, recv 8 B from rank 0 tag 2") {
		t.Fatalf("err = %v, want ErrAppUnfinished naming rank 1's recv with tag 2", err)
	}
}

// goalFile returns the GOAL schedule model/workload/testdata/NAME.goal.
func goalFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("workload", "testdata", name+".goal"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestAppTraceSize: a trace's message carries the size its send names (the
// model translates a trace's operations into the ranks' programs): one
// 1000-byte message between two ranks completes in the one-way time of
// 1000 bytes, not of the 1 byte of the barrier tests. The message is one
// packet; the receive DMA moves its payload at the I/O rate from the
// header's arrival and cannot finish before the tail (hca.go's receive),
// so the slower of the wire time and the payload's DMA time counts.
func TestAppTraceSize(t *testing.T) {
	const size = 1000
	tr, err := workload.ParseGOAL([]byte("num_ranks 2\nrank 0 {\ns: send 1000b to 1\n}\nrank 1 {\nr: recv 1000b from 0\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	c := appConfig(engine.Millisecond)
	if c.MTU < size || c.HostIOGbps <= 0 || c.PCIeGen != 0 {
		t.Fatalf("MTU %d, HostIOGbps %g, PCIe gen %d: want one packet and the I/O rate HostIOGbps", c.MTU, c.HostIOGbps, c.PCIeGen)
	}
	a := workload.DefaultApp("one", "trace")
	a.Trace, a.Hosts = tr, []string{"H1", "H2"}
	m, _ := runApps(t, starScenario("one", 2, a), c, 1)
	wireNs := float64(size+c.HeaderBytes) * 8 / c.HostLinkGbps
	dmaNs := float64(size) * 8 / c.HostIOGbps
	within(t, "one_completion_us", m["one_completion_us"], oneWay(c, a, size)+(math.Max(wireNs, dmaNs)-wireNs)/1000, 0.01)
}
