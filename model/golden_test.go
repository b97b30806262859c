package model_test

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/model/fabric"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden (TestGolden)")

// goldenDir holds one file per golden case and VERSIONS.
var goldenDir = filepath.Join("testdata", "golden")

// goldenTopo is a topology of the golden cases: a scenario whose traffic
// congests a hot spot, so that every scheme has something to act on.
type goldenTopo struct {
	name string
	sc   *workload.Scenario
	desc string // the topology and routing, for the golden file's header
	// set are parameters every run on it needs (its VLs, its hosts' I/O).
	set []string
}

// goldenTopos builds the topologies of the golden cases, by name. Every
// one is small and runs 2 to 5 phases of 1 ms.
func goldenTopos(t *testing.T) map[string]goldenTopo {
	t.Helper()
	gen := func(kind string, p fabric.TopoParams) func(c *params.Config) (*fabric.Topology, error) {
		return func(c *params.Config) (*fabric.Topology, error) {
			q := p
			q.HostGbps, q.SwitchGbps = c.HostLinkGbps, c.SwitchLinkGbps
			return fabric.GenerateTopology(kind, q)
		}
	}
	// incast sends greedily from every host of srcs to dst (contributors)
	// and from victim[0] to victim[1] (the victim, whose path shares links
	// with the contributors'); the last contributor joins at phase 1.
	incast := func(dst string, srcs []string, victim [2]string) []workload.FlowSpec {
		fs := []workload.FlowSpec{{Name: "V", Src: victim[0], Dst: victim[1], Role: workload.Victim}}
		for i, s := range srcs {
			f := workload.FlowSpec{Name: fmt.Sprintf("C%d", i+1), Src: s, Dst: dst, Role: workload.Contributor}
			if i == len(srcs)-1 {
				f.StartPhase = 1
			}
			fs = append(fs, f)
		}
		return fs
	}
	// background is Poisson uniform traffic from every host at a tenth of
	// its link, 4 KiB messages: latency metrics and generated sources.
	background := []workload.TrafficSpec{{Name: "bg", Pattern: "uniform", Arrival: "poisson", Load: 0.1,
		MessageSize: 4096, SizeDist: "fixed", Role: workload.Background}}
	// On the read fabric only the 4x FDR hosts send. RunStats.SenderGbps
	// once summed the senders' link rates in map order, which with mixed
	// rates varied in the last bits from run to run; it is summed in host
	// order now (TestMixedRateRunRepeats holds that), and the case keeps
	// its senders so that its golden did not change.
	fdrBackground := slices.Clone(background)
	fdrBackground[0].Sources = []string{"node01", "node02", "node05", "node06", "node09", "node10", "node13", "node14",
		"storage1/1", "storage1/2", "login_mlx4_0", "login_mlx4_1"}
	fattree, err := os.ReadFile(filepath.Join("fabric", "testdata", "ibnetdiscover", "fattree.txt"))
	if err != nil {
		t.Fatal(err)
	}
	topos := []goldenTopo{
		{name: "testbed-s1", sc: workload.LookupScenario("testbed-s1"), desc: "testbed (built-in testbed-s1), minhop, lmc 0"},
		{name: "testbed-s2", sc: workload.LookupScenario("testbed-s2"), desc: "testbed (built-in testbed-s2), minhop, lmc 0"},
		{name: "fattree", desc: "fattree k=4 levels=2 (16 hosts, 8 switches), ftree, lmc 2",
			sc: &workload.Scenario{Name: "golden-fattree", Phases: 2, Routing: "ftree", LMC: 2,
				Build: gen("fattree", fabric.TopoParams{K: 4, Levels: 2}),
				Flows: incast("H1", []string{"H5", "H9", "H13", "H6"}, [2]string{"H10", "H2"}), Traffic: background}},
		{name: "clos", desc: "clos 4 leaves x 4 hosts, 2 spines, 1 link per pair, ftree, lmc 1",
			sc: &workload.Scenario{Name: "golden-clos", Phases: 2, Routing: "ftree", LMC: 1,
				Build: gen("clos", fabric.TopoParams{Leaves: 4, Spines: 2, HostsPerLeaf: 4}),
				Flows: incast("H1", []string{"H5", "H9", "H13", "H6"}, [2]string{"H10", "H2"}), Traffic: background}},
		{name: "clos-failed", desc: "clos 4 leaves x 4 hosts, 2 spines, the cable L1-S1 gone, read as an import (no levels), updn, lmc 0",
			sc: &workload.Scenario{Name: "golden-clos-failed", Phases: 2, Routing: "updn",
				Build: func(c *params.Config) (*fabric.Topology, error) {
					top, err := gen("clos", fabric.TopoParams{Leaves: 4, Spines: 2, HostsPerLeaf: 4})(c)
					if err != nil {
						return nil, err
					}
					l1, s1 := top.Lookup("L1"), top.Lookup("S1")
					top.Links = slices.DeleteFunc(top.Links, func(l fabric.Link) bool { return l.A == l1 && l.B == s1 || l.A == s1 && l.B == l1 })
					for n := range top.Nodes {
						top.Nodes[n].Level = 0
					}
					top.Kind = "ibnetdiscover"
					return top, nil
				},
				Flows: incast("H1", []string{"H5", "H9", "H13", "H6"}, [2]string{"H10", "H2"}), Traffic: background}},
		{name: "mesh", desc: "mesh 4x4, 1 host per router, dor, lmc 1, 2 VLs", set: []string{"vls=2"},
			sc: &workload.Scenario{Name: "golden-mesh", Phases: 2, Routing: "dor", LMC: 1,
				Build: gen("mesh", fabric.TopoParams{Dims: []int{4, 4}, HostsPerRouter: 1}),
				Flows: incast("H6", []string{"H1", "H4", "H13", "H16", "H8"}, [2]string{"H5", "H7"}), Traffic: background}},
		{name: "torus", desc: "torus 4x4, 1 host per router, dor, lmc 1, 2 VLs", set: []string{"vls=2"},
			sc: &workload.Scenario{Name: "golden-torus", Phases: 2, Routing: "dor", LMC: 1,
				Build: gen("torus", fabric.TopoParams{Dims: []int{4, 4}, HostsPerRouter: 1}),
				Flows: incast("H1", []string{"H3", "H11", "H9", "H6", "H16"}, [2]string{"H2", "H4"}), Traffic: background}},
		{name: "ibnet", desc: "ibnetdiscover testdata/ibnetdiscover/fattree.txt (4 leaves, 2 spines, 20 hosts, mixed rates; FDR hosts send), updn, lmc 1",
			set: []string{"host_io_gbps=32"},
			sc: &workload.Scenario{Name: "golden-ibnet", Phases: 2, Routing: "updn", LMC: 1,
				Build: func(*params.Config) (*fabric.Topology, error) {
					return fabric.ParseIBNetDiscover("fattree.txt", fattree)
				},
				Flows:   incast("node01", []string{"node05", "node06", "node09", "node13", "node10"}, [2]string{"node14", "node02"}),
				Traffic: fdrBackground}},
	}
	// fattree-apps is the fat tree's incast with closed-loop apps and a
	// random permutation instead of uniform background: what a rank's
	// program does, the random ring orders and the permutation are drawn
	// from the run's seed, and the goldens pin which draws they are.
	ft := topos[2].sc
	topos = append(topos, goldenTopo{name: "fattree-apps",
		desc: "fattree k=4 levels=2 (16 hosts, 8 switches), ftree, lmc 2; a random permutation and four apps",
		sc: &workload.Scenario{Name: "golden-fattree-apps", Phases: 2, Routing: "ftree", LMC: 2, Build: ft.Build, Flows: ft.Flows,
			Traffic: []workload.TrafficSpec{{Name: "perm", Pattern: "permutation", Arrival: "poisson", Load: 0.2,
				MessageSize: 4096, SizeDist: "fixed", Role: workload.Background}},
			Apps: goldenApps()}})
	m := map[string]goldenTopo{}
	for _, tp := range topos {
		if tp.sc == nil {
			t.Fatalf("no scenario %s", tp.name)
		}
		m[tp.name] = tp
	}
	return m
}

// goldenApps are fattree-apps' applications: a random ring of two ranks
// per host (shared memory between them), a recursive-doubling allreduce
// with computation between iterations, an alltoall that starts when the
// ring has finished and a broadcast that starts at phase 1.
func goldenApps() []workload.AppSpec {
	hosts := func(from, to int) []string {
		var hs []string
		for h := from; h <= to; h++ {
			hs = append(hs, fmt.Sprintf("H%d", h))
		}
		return hs
	}
	ring := workload.DefaultApp("ring", "ring")
	ring.Hosts, ring.RanksPerHost, ring.Order, ring.Patterns, ring.Size, ring.Iterations = hosts(1, 8), 2, "random", 2, 4096, 4
	ar := workload.DefaultApp("ar", "allreduce")
	ar.Hosts, ar.Algorithm, ar.Size, ar.Iterations, ar.Compute = hosts(9, 16), "rd", 65536, 3, 5*engine.Microsecond
	a2a := workload.DefaultApp("a2a", "alltoall")
	a2a.Hosts, a2a.Size, a2a.Iterations, a2a.After = hosts(1, 4), 2048, 2, "ring"
	bc := workload.DefaultApp("bc", "bcast")
	bc.Hosts, bc.Size, bc.Iterations, bc.Root, bc.StartPhase = hosts(5, 12), 32768, 2, 1, 1
	return []workload.AppSpec{ring, ar, a2a, bc}
}

// goldenCase is one golden run: a topology, a scheme and the parameters
// that select its variant.
type goldenCase struct {
	name   string // the golden file's name, without .txt
	topo   string
	scheme string
	set    []string // NAME=VALUE
}

// santosCovers are santos' marking variants and source responses, three
// per topology, each row a Latin square: on every topology each variant
// and each response appears once, and across rows every pairing appears.
var santosCovers = [][3][2]string{
	{{"naive", "aimd"}, {"input", "fimd"}, {"input_output", "lipd"}},
	{{"naive", "fimd"}, {"input", "lipd"}, {"input_output", "aimd"}},
	{{"naive", "lipd"}, {"input", "aimd"}, {"input_output", "fimd"}},
}

// goldenCases lists the golden cases in the order of VERSIONS' digest:
// every scheme on every topology kind. DRB is on every topology too, but
// on the testbed's single switch link every LID offset is the same path,
// so DRB only marks there (its one path never has another to open). The
// santos variants: all nine (marking, response) pairs on testbed-s1, the
// default pair on testbed-s2, and one Latin-square row of three on each
// other topology.
func goldenCases() []goldenCase {
	var cases []goldenCase
	topos := []string{"testbed-s1", "testbed-s2", "fattree", "clos", "mesh", "torus", "ibnet"}
	for i, tp := range topos {
		for _, s := range []string{"off", "ib", "nicrate", "drb"} {
			cases = append(cases, goldenCase{name: tp + "-" + s, topo: tp, scheme: s})
		}
		var pairs [][2]string
		switch tp {
		case "testbed-s1":
			for _, row := range santosCovers {
				pairs = append(pairs, row[:]...)
			}
		case "testbed-s2":
			// Under santos no buffer fills here: a window of one packet
			// holds each flow to about 8.3 Gbit/s, the three together
			// below the 32 Gbit/s switch link. One case pins that.
			pairs = [][2]string{{"input", "fimd"}}
		default:
			pairs = santosCovers[i%3][:]
		}
		for _, p := range pairs {
			// Sources with a window of one packet fill a buffer of three
			// MTU packets where three flows share an input; input_output's
			// output trigger fires above two packets.
			set := []string{"switch_buffer_credits=99", "santos.marking=" + p[0], "santos.response=" + p[1]}
			if p[0] == "input_output" {
				set = append(set, "santos.output_threshold=2")
			}
			cases = append(cases, goldenCase{name: tp + "-santos-" + p[0] + "-" + p[1], topo: tp, scheme: "santos", set: set})
		}
	}
	// IB CC's other modes on the testbed: the per-VoQ fill with a buffer
	// of 16 MTU packets, so that the threshold falls on whole packets (a
	// fill equal to it, which decides < against <=, then happens);
	// counter marking; a CCTI per port-SL; CNPs instead of ACKs. DRB with
	// throttling, and with a timer short enough that pairs close paths
	// and halve their counts within the run.
	cases = append(cases,
		goldenCase{name: "testbed-s1-ib-voq-counter", topo: "testbed-s1", scheme: "ib",
			set: []string{"fill_mode=voq", "switch_buffer_credits=528", "threshold=8", "marking_mode=counter"}},
		goldenCase{name: "testbed-s1-ib-sl-cnp", topo: "testbed-s1", scheme: "ib",
			set: []string{"cc_level=sl", "becn_return=cnp", "fill_mode=port_avg"}},
		goldenCase{name: "mesh-drb-throttle", topo: "mesh", scheme: "drb", set: []string{"drb.throttle=on", "drb.timer=200us"}},
		goldenCase{name: "fattree-drb-timer", topo: "fattree", scheme: "drb", set: []string{"drb.timer=50us"}},
		goldenCase{name: "fattree-apps-off", topo: "fattree-apps", scheme: "off"},
		goldenCase{name: "fattree-apps-ib", topo: "fattree-apps", scheme: "ib"},
		// updn's roots on a Clos that lost a cable are OpenSM's (model
		// ib-11): the spine S1 is no root and carries no route between
		// leaves, so every leaf-to-leaf route crosses S2.
		goldenCase{name: "clos-failed-off", topo: "clos-failed", scheme: "off"},
		goldenCase{name: "clos-failed-ib", topo: "clos-failed", scheme: "ib"},
	)
	return cases
}

// goldenConfig returns the configuration of case c on topology tp: 1 ms
// phases sampled every 100 µs.
func goldenConfig(t *testing.T, c goldenCase, tp goldenTopo) params.Config {
	t.Helper()
	cfg := params.DefaultConfig()
	sets := append([]string{"phase=1ms", "sample=100us", "cc=" + c.scheme}, tp.set...)
	for _, kv := range append(sets, c.set...) {
		name, val, _ := strings.Cut(kv, "=")
		if err := cfg.Set(name, val); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
	}
	return cfg
}

// goldenSeed is every golden run's seed.
const goldenSeed = 1

// TestGolden runs every golden case and compares its summary byte for byte
// with testdata/golden/<case>.txt; then it checks the digest of all of
// them against VERSIONS' line for model.Version (checkVersion). With
// -update it rewrites the files, unless the model's behaviour changed
// under the same model.Version.
func TestGolden(t *testing.T) {
	topos := goldenTopos(t)
	cases := goldenCases()
	outs := make([][]byte, len(cases))
	ran := 0
	added, changed := 0, 0 // with -update: cases without a file, cases whose file differs
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tp := topos[c.topo]
			cfg := goldenConfig(t, c, tp)
			r, err := model.Run(tp.sc, cfg, goldenSeed)
			if err != nil {
				t.Fatal(err)
			}
			outs[i] = goldenText(c, tp, r)
			ran++
			want, err := os.ReadFile(filepath.Join(goldenDir, c.name+".txt"))
			if *update {
				// Written below, once the version check has passed.
				switch {
				case errors.Is(err, os.ErrNotExist):
					added++
				case err != nil:
					t.Fatal(err)
				case !bytes.Equal(outs[i], want):
					changed++
				}
				return
			}
			if err != nil {
				t.Fatalf("%v; rerun with go test ./model -run TestGolden -update", err)
			}
			if !bytes.Equal(outs[i], want) {
				t.Errorf("%s.txt differs (-want +got); rerun with go test ./model -run TestGolden -update\n%s",
					c.name, lineDiff(string(want), string(outs[i])))
			}
		})
	}
	if ran < len(cases) {
		if *update {
			t.Fatalf("-update needs every case (%d of %d ran): the version check covers them all", ran, len(cases))
		}
		t.Logf("%d of %d cases ran: VERSIONS not checked", ran, len(cases))
		return
	}
	sum := sha256.New()
	for _, o := range outs {
		sum.Write(o)
	}
	digest := hex.EncodeToString(sum.Sum(nil))
	vpath := filepath.Join(goldenDir, "VERSIONS")
	versions, err := os.ReadFile(vpath)
	if err != nil && !(errors.Is(err, os.ErrNotExist) && *update) {
		t.Fatal(err)
	}
	newVersions, err := checkVersion(versions, model.Version, digest, *update, added > 0 && changed == 0)
	if err != nil {
		t.Fatal(err)
	}
	if !*update {
		return
	}
	if err := os.MkdirAll(goldenDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		if err := os.WriteFile(filepath.Join(goldenDir, c.name+".txt"), outs[i], 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(vpath, newVersions, 0o644); err != nil {
		t.Fatal(err)
	}
}

// checkVersion applies the model-version rule to VERSIONS' contents
// (lines "VERSION DIGEST"), the current model version and the digest of
// the current golden outputs. A line for version with another digest is an
// error (the model's behaviour changed, and its version must change with
// it) unless update is set and onlyAdded says the digest changed only
// because cases were added: every case that had a file reproduced it byte
// for byte, so no behaviour the goldens pinned changed; update then
// replaces the line's digest. With no line for version, update appends
// one and returns the new contents; without update that is an error too.
// A matching line returns versions unchanged.
func checkVersion(versions []byte, version, digest string, update, onlyAdded bool) ([]byte, error) {
	sc := bufio.NewScanner(bytes.NewReader(versions))
	var kept []string // the lines read so far, for a replaced digest
	for ln := 1; sc.Scan(); ln++ {
		kept = append(kept, sc.Text())
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 2 {
			return nil, fmt.Errorf("VERSIONS line %d: %q: want VERSION SHA256", ln, line)
		}
		if f[0] != version {
			continue
		}
		if f[1] != digest && update && onlyAdded {
			kept[len(kept)-1] = version + " " + digest
			for sc.Scan() {
				kept = append(kept, sc.Text())
			}
			return []byte(strings.Join(kept, "\n") + "\n"), nil
		}
		if f[1] != digest {
			return nil, fmt.Errorf("model behaviour changed but model.Version is still %s: bump it "+
				"(VERSIONS has %s for %s, the goldens now digest to %s)", version, f[1], version, digest)
		}
		return versions, nil
	}
	if !update {
		return nil, fmt.Errorf("VERSIONS has no line for model version %s: rerun with go test ./model -run TestGolden -update", version)
	}
	out := bytes.Clone(versions)
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, '\n')
	}
	return append(out, version+" "+digest+"\n"...), nil
}

// goldenText is case c's golden file: the run's identity, counters and
// metrics, then per flow its mean over the window and digests of its
// series. Floats are in strconv's shortest 'g' form, exact to the bit.
func goldenText(c goldenCase, tp goldenTopo, r *model.Result) []byte {
	var b bytes.Buffer
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	fmt.Fprintf(&b, "# model.Run summary; regenerate with go test ./model -run TestGolden -update\n")
	fmt.Fprintf(&b, "model_version %s\ncase %s\nscenario %s\ntopology %s\nscheme %s\n",
		r.ModelVersion, c.name, r.Scenario, tp.desc, c.scheme)
	def := params.DefaultConfig()
	for _, name := range params.ParamNames() {
		if v := r.Config.Canonical(name); v != def.Canonical(name) {
			fmt.Fprintf(&b, "param %s %s\n", name, v)
		}
	}
	fmt.Fprintf(&b, "seed %d\nend %v\nsample %v\nevents %d\n", r.Seed, r.End, r.Sample, r.Events)
	k := r.Counters
	fmt.Fprintf(&b, "counter packets %d\ncounter fecn %d\ncounter cnps %d\ncounter becns %d\n", k.Packets, k.FECN, k.CNPs, k.BECNs)
	m := r.Metrics()
	for i, v := range m.Values() {
		fmt.Fprintf(&b, "metric %s %s\n", model.MetricNames[i], g(v))
	}
	s := r.Stats
	for i, role := range []string{"victim", "contributor", "background"} {
		fmt.Fprintf(&b, "latency_count %s %d\n", role, s.Latency[i].Count)
	}
	fmt.Fprintf(&b, "latency_count all %d\noffered_gbps %s\nsender_gbps %s\n", s.All.Count, g(s.OfferedGbps), g(s.SenderGbps))
	from, to := r.Window()
	for i, f := range r.Flows {
		gb := make([]byte, 0, 8*len(f.Gbps))
		for _, x := range f.Gbps {
			gb = binary.LittleEndian.AppendUint64(gb, math.Float64bits(x))
		}
		ccti := "none"
		if f.CCTI != nil {
			cb := make([]byte, 0, 4*len(f.CCTI))
			for _, x := range f.CCTI {
				cb = binary.LittleEndian.AppendUint32(cb, uint32(x))
			}
			ccti = shortSum(cb)
		}
		fmt.Fprintf(&b, "flow %s %s->%s %s start %v mean_gbps %s admitted_gbps %s refused %t samples %d gbps_sha256 %s ccti_sha256 %s\n",
			f.Name, f.Src, f.Dst, f.Role, f.Start, g(r.MeanGbps(i, from, to)), g(f.AdmittedGbps), f.Refused,
			len(f.Gbps), shortSum(gb), ccti)
	}
	for _, a := range r.Apps {
		it := make([]byte, 0, 8*len(a.IterationUs))
		for _, x := range a.IterationUs {
			it = binary.LittleEndian.AppendUint64(it, math.Float64bits(x))
		}
		fmt.Fprintf(&b, "app %s %s iterations %d iteration_us_sha256 %s\n", a.Name, a.Program, len(a.IterationUs), shortSum(it))
		for _, m := range a.Metrics {
			fmt.Fprintf(&b, "app_metric %s %s\n", m.Name, g(m.Value))
		}
	}
	return b.Bytes()
}

// shortSum is the first 16 hex digits of the SHA-256 of b.
func shortSum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:8])
}

// lineDiff returns the lines of want and got that differ, marked - and +
// with their line numbers, from a longest common subsequence of lines.
func lineDiff(want, got string) string {
	a, b := strings.Split(want, "\n"), strings.Split(got, "\n")
	// lcs[i][j] is the LCS length of a[i:] and b[j:].
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out strings.Builder
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			i, j = i+1, j+1
		case j < len(b) && (i == len(a) || lcs[i][j+1] >= lcs[i+1][j]):
			fmt.Fprintf(&out, "+%d: %s\n", j+1, b[j])
			j++
		default:
			fmt.Fprintf(&out, "-%d: %s\n", i+1, a[i])
			i++
		}
	}
	return out.String()
}

// TestCheckVersion pins the model-version rule with made-up digests: a
// known version must keep its digest, with -update or without, unless
// -update only added cases; an unknown version is added by -update only,
// after the lines already there.
func TestCheckVersion(t *testing.T) {
	const versions = "# comment\nib-2 aaaa\nib-3 bbbb\n"
	cases := []struct {
		name     string
		versions string
		version  string
		digest   string
		update   bool
		// onlyAdded: every case with a file reproduced it, some had none
		onlyAdded bool
		want      string // the new contents; "" when an error is expected
		err       string // a substring of the error
	}{
		{name: "same digest", versions: versions, version: "ib-3", digest: "bbbb", want: versions},
		{name: "same digest update", versions: versions, version: "ib-3", digest: "bbbb", update: true, want: versions},
		{name: "changed under same version", versions: versions, version: "ib-3", digest: "cccc",
			err: "model behaviour changed but model.Version is still ib-3: bump it"},
		{name: "changed under same version update", versions: versions, version: "ib-3", digest: "cccc", update: true,
			err: "model behaviour changed but model.Version is still ib-3: bump it"},
		{name: "cases added update", versions: versions + "# last\n", version: "ib-2", digest: "cccc", update: true, onlyAdded: true,
			want: "# comment\nib-2 cccc\nib-3 bbbb\n# last\n"},
		{name: "cases added without update", versions: versions, version: "ib-3", digest: "cccc", onlyAdded: true,
			err: "model behaviour changed but model.Version is still ib-3: bump it"},
		{name: "older version's digest", versions: versions, version: "ib-2", digest: "bbbb",
			err: "still ib-2: bump it"},
		{name: "new version", versions: versions, version: "ib-4", digest: "cccc",
			err: "no line for model version ib-4: rerun with go test ./model -run TestGolden -update"},
		{name: "new version update", versions: versions, version: "ib-4", digest: "cccc", update: true,
			want: versions + "ib-4 cccc\n"},
		{name: "new version update no final newline", versions: "ib-3 bbbb", version: "ib-4", digest: "cccc", update: true,
			want: "ib-3 bbbb\nib-4 cccc\n"},
		{name: "first version update", versions: "", version: "ib-3", digest: "bbbb", update: true, want: "ib-3 bbbb\n"},
		{name: "malformed line", versions: "ib-3\n", version: "ib-3", digest: "bbbb", update: true,
			err: `VERSIONS line 1: "ib-3": want VERSION SHA256`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := checkVersion([]byte(c.versions), c.version, c.digest, c.update, c.onlyAdded)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want one containing %q", err, c.err)
				}
				return
			}
			if err != nil || string(got) != c.want {
				t.Fatalf("got %q, %v; want %q", got, err, c.want)
			}
		})
	}
}
