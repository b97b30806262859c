package fabric_test

import (
	"bufio"
	"fmt"
	"io"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ccsweep/ccsweep/model/fabric"
)

// writeBigFabric writes, in ibnetdiscover's format, a two-level fabric of
// leaves with 32 adapters and 8 uplinks each and 64-port spines, enough
// leaves for adapters adapters (a multiple of 32), and returns the bytes
// written.
func writeBigFabric(w io.Writer, adapters int) (int64, error) {
	bw := bufio.NewWriter(w)
	cw := &countWriter{w: bw}
	leaves := adapters / 32
	spines := (leaves*8 + 63) / 64
	leaf := func(l int) uint64 { return 0x0002c90300000000 + uint64(l)<<8 }
	spine := func(s int) uint64 { return 0x0002c90400000000 + uint64(s)<<8 }
	ca := func(a int) uint64 { return 0xe41d2d0300000000 + uint64(a)<<4 }
	fmt.Fprintf(cw, "#\n# Topology file: generated on Mon Jan  1 00:00:00 2024\n#\n# Initiated from node %016x port %016x\n", ca(0), ca(0)+1)
	for l := range leaves {
		fmt.Fprintf(cw, "\nvendid=0x2c9\ndevid=0xd2f0\nsysimgguid=0x%x\nswitchguid=0x%x(%x)\n", leaf(l), leaf(l), leaf(l))
		fmt.Fprintf(cw, "Switch\t40 \"S-%016x\"\t\t# \"MF0;leaf%d:MQM8700/U1\" enhanced port 0 lid %d lmc 0\n", leaf(l), l, l+1)
		for p := 1; p <= 32; p++ {
			a := l*32 + p - 1
			fmt.Fprintf(cw, "[%d]\t\"H-%016x\"[1](%x) \t\t# \"node%d mlx5_0\" lid %d 4xHDR\n", p, ca(a), ca(a)+1, a, 100000+a)
		}
		for u := range 8 {
			g := l*8 + u
			fmt.Fprintf(cw, "[%d]\t\"S-%016x\"[%d]\t\t# \"MF0;spine%d:MQM8700/U1\" lid %d 4xHDR\n", 33+u, spine(g/64), g%64+1, g/64, 60000+g/64)
		}
	}
	for s := range spines {
		fmt.Fprintf(cw, "\nvendid=0x2c9\ndevid=0xd2f0\nsysimgguid=0x%x\nswitchguid=0x%x(%x)\n", spine(s), spine(s), spine(s))
		fmt.Fprintf(cw, "Switch\t64 \"S-%016x\"\t\t# \"MF0;spine%d:MQM8700/U1\" enhanced port 0 lid %d lmc 0\n", spine(s), s, 60000+s)
		for p := 1; p <= 64; p++ {
			g := s*64 + p - 1
			if g >= leaves*8 {
				break
			}
			fmt.Fprintf(cw, "[%d]\t\"S-%016x\"[%d]\t\t# \"MF0;leaf%d:MQM8700/U1\" lid %d 4xHDR\n", p, leaf(g/8), 33+g%8, g/8, g/8+1)
		}
	}
	for a := range leaves * 32 {
		l, p := a/32, a%32+1
		fmt.Fprintf(cw, "\nvendid=0x2c9\ndevid=0x101b\nsysimgguid=0x%x\ncaguid=0x%x\nCa\t1 \"H-%016x\"\t\t# \"node%d mlx5_0\"\n", ca(a), ca(a), ca(a), a)
		fmt.Fprintf(cw, "[1](%x) \t\"S-%016x\"[%d]\t\t# lid %d lmc 0 \"MF0;leaf%d:MQM8700/U1\" lid %d 4xHDR\n", ca(a)+1, leaf(l), p, 100000+a, l, l+1)
	}
	if err := bw.Flush(); err != nil {
		return cw.n, err
	}
	return cw.n, nil
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// BenchmarkIBNetDiscoverImport reads a 50 000-adapter fabric (50 016: 1563
// leaves of 32) that a generator writes into a pipe, as it would come from
// a file: the reader never holds the text. It reports the peak heap in use
// (HeapInuse sampled every 2 ms, less the heap in use before) and the heap
// the topology keeps once read, per adapter, beside the text's bytes per
// adapter. Run it once: -benchtime 1x.
func BenchmarkIBNetDiscoverImport(b *testing.B) {
	const adapters = 50016
	for b.Loop() {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		base := ms.HeapInuse
		var peak atomic.Uint64
		stop := make(chan struct{})
		sampled := make(chan struct{})
		go func() {
			defer close(sampled)
			var ms runtime.MemStats
			for {
				runtime.ReadMemStats(&ms)
				if ms.HeapInuse > peak.Load() {
					peak.Store(ms.HeapInuse)
				}
				select {
				case <-stop:
					return
				case <-time.After(2 * time.Millisecond):
				}
			}
		}()
		pr, pw := io.Pipe()
		written := make(chan int64, 1)
		go func() {
			n, err := writeBigFabric(pw, adapters)
			pw.CloseWithError(err)
			written <- n
		}()
		topo, warns, err := fabric.ReadIBNetDiscover("big.txt", pr)
		close(stop)
		<-sampled
		n := <-written
		if err != nil {
			b.Fatal(err)
		}
		if len(topo.Hosts()) != adapters || len(warns) != 0 {
			b.Fatalf("%d hosts, warnings %q", len(topo.Hosts()), warns)
		}
		runtime.GC()
		runtime.ReadMemStats(&ms)
		runtime.KeepAlive(topo)
		b.ReportMetric(float64(ms.HeapInuse-min(base, ms.HeapInuse))/adapters, "kept-heap-B/adapter")
		b.ReportMetric(float64(peak.Load()-min(base, peak.Load()))/adapters, "peak-heap-B/adapter")
		b.ReportMetric(float64(n)/adapters, "text-B/adapter")
	}
}
