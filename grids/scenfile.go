package grids

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/model/fabric"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// A scenario file describes a network and its workload in TOML:
//
//	name = "ft-hotspot"          # optional; the file's name without .toml
//	description = "..."
//	phases = 2                   # run length in phases; the last is measured
//	[params]                     # model parameters (any --set name)
//	cc = "on"
//	[topology]
//	kind = "fattree"             # fattree, clos, mesh, torus, ibnetdiscover
//	k = 4                        # fattree: k, levels; clos: leaves, spines,
//	levels = 2                   # hosts_per_leaf or preset = "648";
//	                             # mesh/torus: dims = [8, 8], hosts_per_router;
//	                             # ibnetdiscover: file = "fabric.txt"
//	[routing]                    # default: ftree on fattree and clos, dor on
//	algorithm = "ftree"          # mesh and torus, updn on a read fabric;
//	                             # minhop, updn, ftree, dor
//	lmc = 0
//	lfts = "opensm-lfts.dump"    # or: the tables a subnet manager computed
//	                             # (opensm-lfts.dump, ibroute output)
//	roots = ["spine1"]           # updn, ftree: root switches (names or
//	root_guid_file = "roots.txt" # 0xGUIDs), or OpenSM's root GUID file;
//	compute_nodes = ["node01"]   # ftree: the hosts whose switches are
//	cn_guid_file = "cn.txt"      # the leaves, or OpenSM's compute node file
//	allow_deadlock = true        # run a routing with a channel cycle
//	adaptive = true              # adaptive routing among equal-cost ports
//	[[flow]]                     # greedy flows, as the testbed's
//	name = "F1"; src = "H1"; dst = "H4"; role = "victim"; start_phase = 0
//	rate = 4                     # Gbit/s the flow requests under cc nicrate
//	                             # (default: nicrate.rates, else a max-min share)
//	[[traffic]]                  # generated traffic
//	name = "bg"; pattern = "uniform"; arrival = "poisson"; load = 0.3
//	[[app]]                      # closed-loop applications (scenfile_app.go)
//	name = "ar"; program = "allreduce"; ranks = 16; size = 1048576
//
// Scenario files are read by LoadScenario, for --scenario and a grid's
// scenario key.

// scenarioKeys are the keys of each table of a scenario file.
var scenarioKeys = map[string][]string{
	"":         {"name", "description", "phases", "params", "topology", "routing", "flow", "traffic"},
	"topology": {"kind", "k", "levels", "leaves", "spines", "hosts_per_leaf", "preset", "dims", "hosts_per_router", "file"},
	"routing":  {"algorithm", "lmc", "lfts", "roots", "root_guid_file", "compute_nodes", "cn_guid_file", "allow_deadlock", "adaptive"},
	"flow":     {"name", "src", "dst", "role", "start_phase", "sl", "rate"},
	"traffic": {"name", "pattern", "arrival", "load", "message_size", "size_dist", "burst", "hot", "hot_nodes",
		"hotspot_fraction", "hotspot_mode", "senders", "sources", "role", "start_phase", "sl"},
}

// guidLine is a line of an OpenSM GUID file.
var guidLine = regexp.MustCompile(`^0[xX][0-9a-fA-F]{1,16}$`)

// IsScenarioFile reports whether a --scenario or scenario value names a
// file rather than a built-in scenario: it ends in .toml.
func IsScenarioFile(name string) bool { return strings.HasSuffix(name, ".toml") }

// LoadScenario reads the scenario file at path (and the ibnetdiscover file
// it names, relative to it) and returns its scenario, registered with the
// model (workload.NewScenario). A rejected file gives an *Error whose problems
// name file, line and key.
func LoadScenario(path string) (*workload.Scenario, error) {
	sc, _, err := LoadScenarioFiles(path)
	return sc, err
}

// LoadScenarioFiles is LoadScenario that also lists the files it read:
// path, then the files it names, as paths relative to the current
// directory.
func LoadScenarioFiles(path string) (*workload.Scenario, []string, error) {
	f, err := readScenarioFile(path)
	return f.sc, f.paths, err
}

// scenarioFile is a scenario file read from disk by readScenarioFile.
type scenarioFile struct {
	sc    *workload.Scenario // the scenario, registered; nil if rejected
	data  []byte             // the file's text; nil if it could not be read
	files map[string][]byte  // the files it named, by the names it gave
	paths []string           // the path, then the files it named, as opened
}

// readScenarioFile is the one reader of scenario files on disk, for
// --scenario and for a grid's scenario key: it reads the file at path and
// the files it names, relative to its directory, and parses it
// (ParseScenario). A file that cannot be read is an error wrapping the
// read's, with "read scenario" before it; a rejected file is an *Error.
func readScenarioFile(path string) (scenarioFile, error) {
	f := scenarioFile{paths: []string{path}}
	data, err := ReadFile(path, MaxFileSize)
	if err != nil {
		return f, fmt.Errorf("read scenario: %w", err)
	}
	f.data = data
	read := func(name string) ([]byte, error) {
		if !filepath.IsAbs(name) {
			name = filepath.Join(filepath.Dir(path), name)
		}
		f.paths = append(f.paths, name)
		return ReadFile(name, MaxFabricSize)
	}
	f.sc, f.files, err = ParseScenario(path, data, read)
	return f, err
}

// ParseScenario parses scenario file data (path names it in problems),
// reading included files with read. It returns the scenario and the files
// it read by the names the file gives, for embedding.
func ParseScenario(path string, data []byte, read func(string) ([]byte, error)) (*workload.Scenario, map[string][]byte, error) {
	ps := &problems{file: path}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	root, tp := decodeTOML(data)
	if tp != nil {
		tp.File = path
		ps.list = append(ps.list, *tp)
		return nil, nil, ps.err()
	}
	files := map[string][]byte{}
	spec := workload.ScenarioSpec{Name: strings.TrimSuffix(filepath.Base(path), ".toml"), Phases: 1}
	r := scenReader{ps: ps}
	r.keys(root, "", "")
	if n := root.m["name"]; n != nil {
		if s, ok := str(ps, "name", n); ok {
			if !ValidName(s) {
				ps.add(n.line, "name", "%q must be a file name stem: letters, digits, '.', '_' or '-', at most %d", s, MaxNameLen)
			}
			spec.Name = s
		}
	}
	if n := root.m["description"]; n != nil {
		spec.Description, _ = str(ps, "description", n)
	}
	spec.Phases = r.int(root, "", "phases", 1, 1, 1000)
	if n := root.m["params"]; n != nil {
		if t := tableOf(ps, "params", n); t != nil {
			spec.Defaults = map[string]string{}
			for _, k := range t.keys {
				set := parseSetting(ps, "params."+k, k, t.m[k])
				if set != nil {
					spec.Defaults[k] = set.text
				}
			}
		}
	}
	topo := r.table(root, "topology")
	line := 1
	if n := root.m["topology"]; n != nil {
		line = n.line
	}
	if topo == nil {
		ps.add(line, "topology", "missing: a scenario file needs a [topology] table with a kind")
	} else {
		spec.Topology = r.enum(topo, "topology", "kind", "", []string{"fattree", "clos", "mesh", "torus", "ibnetdiscover"})
		tp := &spec.Topo
		switch spec.Topology {
		case "fattree":
			tp.K = r.int(topo, "topology", "k", 0, 2, 64)
			tp.Levels = r.int(topo, "topology", "levels", 2, 1, 4)
			r.need(topo, "topology", "k")
		case "clos":
			tp.Preset = r.enum(topo, "topology", "preset", "-", []string{"648"})
			if tp.Preset == "-" {
				tp.Preset = ""
				tp.Leaves = r.int(topo, "topology", "leaves", 0, 1, fabric.MaxSwitchPorts)
				tp.Spines = r.int(topo, "topology", "spines", 0, 1, fabric.MaxSwitchPorts)
				tp.HostsPerLeaf = r.int(topo, "topology", "hosts_per_leaf", 0, 1, fabric.MaxSwitchPorts)
				r.need(topo, "topology", "leaves", "spines", "hosts_per_leaf")
			}
		case "mesh", "torus":
			tp.HostsPerRouter = r.int(topo, "topology", "hosts_per_router", 1, 1, 64)
			if n := topo.m["dims"]; n == nil {
				ps.add(line, "topology", "missing dims, e.g. dims = [8, 8]")
			} else if list, ok := n.val.([]*node); !ok || len(list) < 1 || len(list) > 3 {
				ps.add(n.line, "topology.dims", "want a list of one to three sizes, e.g. [8, 8]")
			} else {
				for _, e := range list {
					v, ok := e.val.(int64)
					if !ok || v < 2 || v > 1024 {
						ps.add(e.line, "topology.dims", "%s: want a whole number from 2 to 1024", show(e.val))
						continue
					}
					tp.Dims = append(tp.Dims, int(v))
				}
			}
		case "ibnetdiscover":
			if n := topo.m["file"]; n == nil {
				ps.add(line, "topology", "missing file: the ibnetdiscover output to read")
			} else if name, ok := str(ps, "topology.file", n); ok {
				text, err := read(name)
				if err != nil {
					ps.add(n.line, "topology.file", "%v", err)
				} else {
					files[name] = text
					spec.Fabric, spec.FabricName = text, name
				}
			}
		}
	}
	// Each kind's default routing is one that cannot deadlock on it.
	spec.Routing = map[string]string{"fattree": "ftree", "clos": "ftree", "mesh": "dor", "torus": "dor"}[spec.Topology]
	if spec.Routing == "" {
		spec.Routing = "updn"
	}
	lftsLine := 0 // the line of routing.lfts, where its tables' problems are reported
	if rt := r.table(root, "routing"); rt != nil {
		spec.Routing = r.enum(rt, "routing", "algorithm", spec.Routing, fabric.RoutingAlgorithms)
		spec.LMC = r.int(rt, "routing", "lmc", 0, 0, 7)
		if n := rt.m["lfts"]; n != nil {
			lftsLine = n.line
			if name, ok := str(ps, "routing.lfts", n); ok {
				if a := rt.m["algorithm"]; a != nil {
					ps.add(a.line, "routing.algorithm", "give algorithm or lfts, not both: lfts are the routing")
				}
				text, err := read(name)
				if err != nil {
					ps.add(n.line, "routing.lfts", "%v", err)
				} else {
					files[name] = text
					spec.LFTs, spec.LFTsName, spec.Routing = text, name, "lfts"
				}
			}
		}
		// Roots and compute nodes: listed, or in a GUID file as OpenSM
		// takes them (-a, -u: one GUID a line, '#' comments).
		guidFile := func(key string) []string {
			n := rt.m[key]
			if n == nil {
				return nil
			}
			name, ok := str(ps, "routing."+key, n)
			if !ok {
				return nil
			}
			text, err := read(name)
			if err != nil {
				ps.add(n.line, "routing."+key, "%v", err)
				return nil
			}
			files[name] = text
			var guids []string
			for i, l := range strings.Split(string(text), "\n") {
				l, _, _ = strings.Cut(l, "#")
				if l = strings.TrimSpace(l); l == "" {
					continue
				}
				if !guidLine.MatchString(l) {
					ps.add(n.line, "routing."+key, "%s:%d: %q: want one GUID a line, e.g. 0x0002c90200410a20", name, i+1, l)
					return nil
				}
				guids = append(guids, l)
			}
			return guids
		}
		for _, b := range []struct {
			key string
			dst *bool
		}{{"allow_deadlock", &spec.AllowDeadlock}, {"adaptive", &spec.Adaptive}} {
			key, dst := b.key, b.dst
			if n := rt.m[key]; n != nil {
				if b, ok := n.val.(bool); ok {
					*dst = b
				} else {
					ps.add(n.line, "routing."+key, "want true or false")
				}
			}
		}
		spec.Roots = append(r.strs(rt, "routing", "roots"), guidFile("root_guid_file")...)
		spec.ComputeNodes = append(r.strs(rt, "routing", "compute_nodes"), guidFile("cn_guid_file")...)
		if len(spec.Roots)+len(spec.ComputeNodes) > 0 && !slices.Contains([]string{"updn", "ftree"}, spec.Routing) {
			ps.add(root.m["routing"].line, "routing", "roots and compute nodes are for updn and ftree, not %s", spec.Routing)
		}
		if len(spec.ComputeNodes) > 0 && spec.Routing == "updn" {
			ps.add(root.m["routing"].line, "routing", "compute nodes are for ftree; updn takes roots only")
		}
	}
	flowTables := r.tables(root, "flow")
	for i, t := range flowTables {
		key := fmt.Sprintf("flow[%d]", i)
		f := workload.FlowSpec{
			Name:       r.str(t, key, "name", fmt.Sprintf("F%d", i+1)),
			Src:        r.str(t, key, "src", ""),
			Dst:        r.str(t, key, "dst", ""),
			Role:       workload.Role(r.enum(t, key, "role", "background", []string{"victim", "contributor", "background"})),
			StartPhase: r.int(t, key, "start_phase", 0, 0, 1000),
			SL:         r.int(t, key, "sl", 0, 0, 15),
			RateGbps:   r.float(t, key, "rate", 0, 0, 1e6),
		}
		r.need(t, key, "src", "dst")
		spec.Flows = append(spec.Flows, f)
	}
	names := map[string]bool{}
	trafficTables := r.tables(root, "traffic")
	for i, t := range trafficTables {
		key := fmt.Sprintf("traffic[%d]", i)
		ts := workload.TrafficSpec{
			Name:            r.str(t, key, "name", fmt.Sprintf("t%d", i+1)),
			Pattern:         r.enum(t, key, "pattern", "", workload.Patterns),
			Arrival:         r.enum(t, key, "arrival", "saturate", workload.Arrivals),
			Load:            r.float(t, key, "load", 0, 0, 1),
			MessageSize:     r.int(t, key, "message_size", 0, 1, 1<<30),
			SizeDist:        r.enum(t, key, "size_dist", "fixed", workload.SizeDists),
			Burst:           r.dur(t, key, "burst", 10*engine.Microsecond),
			Hot:             r.strs(t, key, "hot"),
			HotNodes:        r.int(t, key, "hot_nodes", 0, 1, 1<<20),
			HotspotFraction: r.float(t, key, "hotspot_fraction", 0, 0, 1),
			HotspotMode:     r.enum(t, key, "hotspot_mode", "hosts", []string{"hosts", "traffic"}),
			Senders:         r.int(t, key, "senders", 0, 1, 1<<20),
			Sources:         r.strs(t, key, "sources"),
			Role:            workload.Role(r.enum(t, key, "role", "", []string{"victim", "contributor", "background"})),
			StartPhase:      r.int(t, key, "start_phase", 0, 0, 1000),
			SL:              r.int(t, key, "sl", 0, 0, 15),
		}
		r.need(t, key, "pattern")
		line := t.line
		if ts.Arrival != "saturate" && ts.Load == 0 {
			ps.add(line, key, "arrival %s needs a load above 0 (a fraction of the host link)", ts.Arrival)
		}
		if ts.Arrival == "saturate" && t.m["load"] != nil {
			ps.add(t.m["load"].line, key+".load", "a saturating source sends all it can; give arrival = \"poisson\" or \"onoff\" for a load")
		}
		if ts.HotspotMode == "traffic" && ts.Arrival == "saturate" {
			ps.add(line, key, "hotspot_mode traffic splits a load: give arrival = \"poisson\" or \"onoff\"")
		}
		if strings.ContainsAny(ts.Name, ". ") || names[ts.Name] {
			ps.add(line, key+".name", "%q: want a unique name without dots or spaces", ts.Name)
		}
		names[ts.Name] = true
		spec.Traffic = append(spec.Traffic, ts)
	}
	var appTables []lineTable
	spec.Apps, appTables = r.apps(root, spec.Phases, read, files)
	// A start at or past the end of the run sends nothing: every metric
	// of the run would be null.
	checkStart := func(kind string, tables []lineTable, starts []int) {
		for i, t := range tables {
			if n := t.m["start_phase"]; n != nil && i < len(starts) && starts[i] >= spec.Phases {
				ps.add(n.line, fmt.Sprintf("%s[%d].start_phase", kind, i), "%d: the scenario has %d phase%s (0 to %d); a %s starting at the end never sends",
					starts[i], spec.Phases, map[bool]string{true: "s"}[spec.Phases > 1], spec.Phases-1, kind)
			}
		}
	}
	var flowStarts, trafficStarts []int
	for _, f := range spec.Flows {
		flowStarts = append(flowStarts, f.StartPhase)
	}
	for _, ts := range spec.Traffic {
		trafficStarts = append(trafficStarts, ts.StartPhase)
	}
	checkStart("flow", flowTables, flowStarts)
	checkStart("traffic", trafficTables, trafficStarts)
	if len(spec.Flows) == 0 && len(spec.Traffic) == 0 && len(spec.Apps) == 0 && len(ps.list) == 0 {
		ps.add(1, "", "no [[flow]], [[traffic]] or [[app]]: the scenario sends nothing")
	}
	if err := ps.err(); err != nil {
		return nil, nil, err
	}
	spec.Source = scenarioSource(data, files)
	sc, err := workload.NewScenario(spec)
	if err != nil {
		ps.add(1, "", "%v", err)
		return nil, nil, ps.err()
	}
	// What only a built topology can tell: the hosts flows name, the
	// patterns' host counts, the routing.
	_, err = model.NewNetwork(sc, sc.Config(), 1)
	if err != nil && routesWithMoreVLs(sc) {
		// The file's own vls is too few for its routing, but --set or a
		// grid may give more: CheckScenarioConfig checks the final
		// configuration, at this line.
		vlsChecks.Store(sc.Name, Problem{File: ps.file, Line: line, Key: "topology"})
		return sc, files, nil
	}
	vlsChecks.Delete(sc.Name)
	if err != nil {
		var fe *fabric.TopologyFileError
		if errors.As(err, &fe) { // a problem of the fabric file: its own line
			path := fe.Name
			if !filepath.IsAbs(path) {
				path = filepath.Join(filepath.Dir(ps.file), path)
			}
			ps.list = append(ps.list, Problem{File: path, Line: max(fe.Line, 1), Msg: fe.Reason})
		} else if he := (*model.FlowHostError)(nil); errors.As(err, &he) && he.Flow < len(flowTables) {
			// A host the topology lacks: the flow's own line.
			t, key := flowTables[he.Flow], fmt.Sprintf("flow[%d]", he.Flow)
			switch field := he.Field; field {
			case "src", "dst":
				ps.add(t.m[field].line, key+"."+field, "%q is not a host of the topology", map[string]string{"src": he.Src, "dst": he.Dst}[field])
			default:
				ps.add(t.m["dst"].line, key+".dst", "%q is the flow's src too: want two distinct hosts", he.Dst)
			}
		} else if te := (*model.TrafficError)(nil); errors.As(err, &te) && ps.trafficProblem(trafficTables, te) {
			// placed at the traffic's field
		} else if ae := (*model.AppError)(nil); errors.As(err, &ae) && ps.appProblem(appTables, ae) {
			// placed at the app's field
		} else if le := (*fabric.LFTsError)(nil); errors.As(err, &le) && lftsLine > 0 {
			ps.add(lftsLine, "routing.lfts", "%s: %s", le.Name, le.Reason)
		} else if reason, ok := workload.ScenarioReason(err); ok {
			ps.add(line, "topology", "%s", reason)
		} else {
			ps.add(line, "topology", "%v", err)
		}
		return nil, nil, ps.err()
	}
	return sc, files, nil
}

// vlsChecks holds, by scenario name, where each scenario file is (its
// [topology]'s line) whose routing needs more VLs than its own [params]
// give: ParseScenario leaves that check to CheckScenarioConfig.
var vlsChecks sync.Map // string -> Problem

// routesWithMoreVLs reports whether sc's network builds when given the
// most VLs a configuration may have.
func routesWithMoreVLs(sc *workload.Scenario) bool {
	c := sc.Config()
	c.VLs = int(params.LookupParam("vls").Max)
	_, err := model.NewNetwork(sc, c, 1)
	return err == nil
}

// CheckScenarioConfig checks what a scenario file's reader leaves to the
// configuration that runs it, the file's [params] overridden by --set or
// a grid: that its routing has the VLs it needs, when the file's own
// [params] give too few. It returns nil for every other scenario, and an
// *Error at the file's [topology] line when c lacks the VLs.
func CheckScenarioConfig(sc *workload.Scenario, c params.Config) error {
	v, ok := vlsChecks.Load(sc.Name)
	if !ok {
		return nil
	}
	_, err := model.NewNetwork(sc, c, 1)
	if err == nil {
		return nil
	}
	p := v.(Problem)
	p.Msg = err.Error()
	if reason, ok := workload.ScenarioReason(err); ok {
		p.Msg = reason
	}
	return &Error{Problems: []Problem{p}}
}

// trafficProblem places a model.TrafficError at the line of the traffic's
// field, or of its [[traffic]] when the file leaves the field out.
func (ps *problems) trafficProblem(tables []lineTable, te *model.TrafficError) bool {
	if te.Traffic < 0 || te.Traffic >= len(tables) {
		return false
	}
	t, key := tables[te.Traffic], fmt.Sprintf("traffic[%d]", te.Traffic)
	line := t.line
	if te.Field != "" {
		key += "." + te.Field
		if n := t.m[te.Field]; n != nil {
			line = n.line
		}
	}
	ps.add(line, key, "%s", te.Msg)
	return true
}

// loadScenario reads the scenario file a grid names (relative to the grid
// file's directory), keeping its text for the grid's canonical form. Its
// problems are the scenario file's own, naming that file.
func (ps *problems) loadScenario(line int, key, name string) *workload.Scenario {
	path := name
	if !filepath.IsAbs(path) {
		path = filepath.Join(filepath.Dir(ps.file), name)
	}
	f, err := readScenarioFile(path)
	var e *Error
	if errors.As(err, &e) {
		ps.list = append(ps.list, e.Problems...)
		return nil
	} else if err != nil {
		ps.add(line, key, "%v", err)
		return nil
	}
	if ps.scenarios == nil {
		ps.scenarios = map[string]CanonicalScenario{}
	}
	cs := CanonicalScenario{Path: name, Text: string(f.data), Files: map[string]string{}}
	for n, b := range f.files {
		cs.Files[n] = string(b)
	}
	ps.scenarios[f.sc.Name] = cs
	return f.sc
}

// CanonicalScenario is a scenario file as a canonical grid embeds it: its
// path as the grid gave it, its text and the files it read, so that the
// grid's points run the same scenario wherever the grid is read back.
type CanonicalScenario struct {
	Path  string            `json:"path"`
	Text  string            `json:"text"`
	Files map[string]string `json:"files,omitempty"`
}

// register parses and registers an embedded scenario file, checking that
// it is the scenario named name.
func (cs CanonicalScenario) register(name string) error {
	read := func(f string) ([]byte, error) {
		text, ok := cs.Files[f]
		if !ok {
			return nil, fmt.Errorf("%s: not embedded in the grid", f)
		}
		return []byte(text), nil
	}
	sc, _, err := ParseScenario(cs.Path, []byte(cs.Text), read)
	if err != nil {
		return err
	}
	if sc.Name != name {
		return fmt.Errorf("scenario %s: its text gives %s", name, sc.Name)
	}
	return nil
}

// scenarioSource is what identifies a scenario: its file and the files it
// read, in name order.
func scenarioSource(data []byte, files map[string][]byte) []byte {
	src := slices.Clone(data)
	for _, name := range slices.Sorted(maps.Keys(files)) {
		src = fmt.Appendf(src, "\x00%s\x00%s", name, files[name])
	}
	return src
}

// scenReader reads typed values from a scenario file's tables, reporting
// problems with the key's line.
type scenReader struct{ ps *problems }

// keys reports keys of t that its table (scenarioKeys[kind]) does not have.
func (r scenReader) keys(t *table, prefix, kind string) {
	unknownKeys(r.ps, t, prefix, scenarioKeys[kind], "")
}

func (r scenReader) table(root *table, name string) *table {
	n := root.m[name]
	if n == nil {
		return nil
	}
	t := tableOf(r.ps, name, n)
	if t != nil {
		r.keys(t, name, name)
	}
	return t
}

// lineTable is an element of an array of tables with its line.
type lineTable struct {
	*table
	line int
}

func (r scenReader) tables(root *table, name string) []lineTable {
	n := root.m[name]
	if n == nil {
		return nil
	}
	list, ok := n.val.([]*node)
	if !ok {
		r.ps.add(n.line, name, "want an array of tables: [[%s]]", name)
		return nil
	}
	var out []lineTable
	for i, e := range list {
		key := fmt.Sprintf("%s[%d]", name, i)
		if t := tableOf(r.ps, key, e); t != nil {
			r.keys(t, key, name)
			out = append(out, lineTable{t, e.line})
		}
	}
	return out
}

func (r scenReader) need(t lineTableLike, prefix string, keys ...string) {
	for _, k := range keys {
		if t.get(k) == nil {
			r.ps.add(t.at(), prefix, "missing %s", k)
		}
	}
}

// lineTableLike is a table with the line where it starts.
type lineTableLike interface {
	get(string) *node
	at() int
}

func (t *table) get(k string) *node { return t.m[k] }
func (t *table) at() int {
	line := 0
	for _, n := range t.m {
		if line == 0 || n.line < line {
			line = n.line
		}
	}
	return max(line, 1)
}
func (t lineTable) at() int { return t.line }

func (r scenReader) str(t lineTableLike, prefix, k, def string) string {
	n := t.get(k)
	if n == nil {
		return def
	}
	s, _ := str(r.ps, dotted(prefix, k), n)
	return s
}

func (r scenReader) strs(t lineTableLike, prefix, k string) []string {
	n := t.get(k)
	if n == nil {
		return nil
	}
	list, ok := n.val.([]*node)
	if !ok {
		r.ps.add(n.line, dotted(prefix, k), "want a list of host names")
		return nil
	}
	var out []string
	for _, e := range list {
		if s, ok := str(r.ps, dotted(prefix, k), e); ok {
			out = append(out, s)
		}
	}
	return out
}

func (r scenReader) enum(t lineTableLike, prefix, k, def string, choices []string) string {
	n := t.get(k)
	if n == nil {
		return def
	}
	s, ok := str(r.ps, dotted(prefix, k), n)
	if ok && !slices.Contains(choices, s) {
		r.ps.add(n.line, dotted(prefix, k), "%q: want one of %s", s, strings.Join(choices, ", "))
	}
	return s
}

func (r scenReader) int(t lineTableLike, prefix, k string, def, lo, hi int) int {
	n := t.get(k)
	if n == nil {
		return def
	}
	v, ok := n.val.(int64)
	if !ok || v < int64(lo) || v > int64(hi) {
		r.ps.add(n.line, dotted(prefix, k), "%s: want a whole number from %d to %d", show(n.val), lo, hi)
		return def
	}
	return int(v)
}

func (r scenReader) float(t lineTableLike, prefix, k string, def, lo, hi float64) float64 {
	n := t.get(k)
	if n == nil {
		return def
	}
	var v float64
	switch x := n.val.(type) {
	case int64:
		v = float64(x)
	case float64:
		v = x
	default:
		r.ps.add(n.line, dotted(prefix, k), "%s: want a number from %g to %g", show(n.val), lo, hi)
		return def
	}
	if v < lo || v > hi || v != v {
		r.ps.add(n.line, dotted(prefix, k), "%s: want a number from %g to %g", show(n.val), lo, hi)
		return def
	}
	return v
}

func (r scenReader) dur(t lineTableLike, prefix, k string, def engine.Time) engine.Time {
	n := t.get(k)
	if n == nil {
		return def
	}
	s, ok := str(r.ps, dotted(prefix, k), n)
	if !ok {
		return def
	}
	v, err := engine.ParseTime(s)
	if err != nil || v <= 0 {
		r.ps.add(n.line, dotted(prefix, k), "%q: want a positive time with a unit, e.g. \"10us\"", s)
		return def
	}
	return v
}
