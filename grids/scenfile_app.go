package grids

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/model/workload"
)

// appKeys are the keys of a scenario file's [[app]] tables:
//
//	[[app]]                      # a closed-loop application (docs/apps.md)
//	name = "ar"; program = "allreduce"   # pingpong, ring, allreduce, alltoall,
//	                             # bcast, barrier, trace
//	hosts = ["H1", "H4"]         # or ranks = 32 on the topology's hosts
//	ranks_per_host = 1
//	size = 67108864; iterations = 10; compute = "1ms"
//	algorithm = "ring"           # allreduce: ring or rd
//	order = "natural"            # ring: natural or random (patterns rings)
//	trace = "app.goal"           # trace: a GOAL schedule, relative to the file
var appKeys = []string{"name", "label", "program", "hosts", "ranks", "ranks_per_host", "order", "patterns",
	"algorithm", "size", "iterations", "compute", "root", "start_phase", "after", "report",
	"send_overhead", "recv_overhead", "shm_latency", "shm_gbps", "trace"}

func init() {
	scenarioKeys["app"] = appKeys
	scenarioKeys[""] = append(scenarioKeys[""], "app")
}

// apps reads the file's [[app]] tables, reading trace files with read.
func (r scenReader) apps(root *table, phases int, read func(string) ([]byte, error), files map[string][]byte) ([]workload.AppSpec, []lineTable) {
	tables := r.tables(root, "app")
	var out []workload.AppSpec
	names := map[string]bool{}
	for i, t := range tables {
		key := fmt.Sprintf("app[%d]", i)
		a := workload.DefaultApp(r.str(t, key, "name", fmt.Sprintf("app%d", i+1)), r.enum(t, key, "program", "", workload.AppPrograms))
		a.Label = r.str(t, key, "label", "")
		a.Hosts = r.strs(t, key, "hosts")
		a.Ranks = r.int(t, key, "ranks", 0, 2, 1<<20-1)
		a.RanksPerHost = r.int(t, key, "ranks_per_host", 1, 1, 1024)
		a.Order = r.enum(t, key, "order", "natural", []string{"natural", "random"})
		a.Patterns = r.int(t, key, "patterns", 1, 1, 1000)
		a.Algorithm = r.enum(t, key, "algorithm", "ring", []string{"ring", "rd"})
		a.Size = r.int(t, key, "size", a.Size, 0, 1<<30)
		a.Iterations = r.int(t, key, "iterations", a.Iterations, 1, 1<<24)
		a.Compute = r.durZero(t, key, "compute", 0)
		a.Root = r.int(t, key, "root", 0, 0, 1<<20-1)
		a.StartPhase = r.int(t, key, "start_phase", 0, 0, 1000)
		a.After = r.str(t, key, "after", "")
		a.Report = r.enum(t, key, "report", "", []string{"latency", "bandwidth"})
		a.SendOverhead = r.durZero(t, key, "send_overhead", a.SendOverhead)
		a.RecvOverhead = r.durZero(t, key, "recv_overhead", a.RecvOverhead)
		a.SHMLatency = r.durZero(t, key, "shm_latency", a.SHMLatency)
		a.SHMGbps = r.float(t, key, "shm_gbps", a.SHMGbps, 0.001, 10000)
		r.need(t, key, "program")
		if strings.ContainsAny(a.Name, ". ") || names[a.Name] {
			r.ps.add(t.line, key+".name", "%q: want a unique name without dots or spaces", a.Name)
		}
		names[a.Name] = true
		if n := t.m["start_phase"]; n != nil && a.StartPhase >= phases {
			r.ps.add(n.line, key+".start_phase", "%d: the scenario has %d phases (0 to %d); an app starting at the end never runs",
				a.StartPhase, phases, phases-1)
		}
		if n := t.m["trace"]; n != nil {
			if a.Program != "trace" {
				r.ps.add(n.line, key+".trace", "a trace file is for program = \"trace\"")
			} else if name, ok := str(r.ps, key+".trace", n); ok {
				if text, err := read(name); err != nil {
					r.ps.add(n.line, key+".trace", "%v", err)
				} else if tr, err := workload.ParseGOAL(text); err != nil {
					var ge *workload.GOALError
					if errors.As(err, &ge) && ge.Line > 0 {
						path := name
						if !filepath.IsAbs(path) {
							path = filepath.Join(filepath.Dir(r.ps.file), path)
						}
						r.ps.list = append(r.ps.list, Problem{File: path, Line: ge.Line, Msg: ge.Msg})
					} else {
						r.ps.add(n.line, key+".trace", "%s: %v", name, err)
					}
				} else {
					files[name] = text
					a.Trace = tr
				}
			}
		} else if a.Program == "trace" {
			r.ps.add(t.line, key, "program trace needs trace = \"FILE.goal\"")
		}
		out = append(out, a)
	}
	return out, tables
}

// durZero reads a duration of 0 or more.
func (r scenReader) durZero(t lineTableLike, prefix, k string, def engine.Time) engine.Time {
	n := t.get(k)
	if n == nil {
		return def
	}
	if v, ok := n.val.(int64); ok && v == 0 {
		return 0
	}
	s, ok := str(r.ps, dotted(prefix, k), n)
	if !ok {
		return def
	}
	v, err := engine.ParseTime(s)
	if err != nil || v < 0 {
		r.ps.add(n.line, dotted(prefix, k), "%q: want a time of 0 or more with a unit, e.g. \"300ns\"", s)
		return def
	}
	return v
}

// appProblem places a model.AppError at the line of the app's field.
func (ps *problems) appProblem(tables []lineTable, ae *model.AppError) bool {
	if ae.App >= len(tables) {
		return false
	}
	t := tables[ae.App]
	line := t.line
	if n := t.m[ae.Field]; n != nil {
		line = n.line
	}
	ps.add(line, fmt.Sprintf("app[%d].%s", ae.App, ae.Field), "%s", ae.Msg)
	return true
}
