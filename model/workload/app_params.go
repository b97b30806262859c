package workload

import (
	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/params"
)

// appParams lists every app's numeric fields as scenario parameters named
// NAME.field, so that a grid sweeps them like a traffic's.
func (sp *ScenarioSpec) appParams() []scenParam {
	var out []scenParam
	for i := range sp.Apps {
		a := &sp.Apps[i]
		q := a.Name + "."
		intP := func(field, doc string, lo, hi float64, def int, set func(*AppSpec, int)) {
			p := &params.Param{Name: q + field, Kind: params.KindInt, Min: lo, Max: hi, Doc: "app " + a.Name + ": " + doc}
			params.Extra(p, def)
			out = append(out, scenParam{p, func(s *ScenarioSpec, v any) { set(&s.Apps[i], v.(int)) }})
		}
		durP := func(field, doc string, def engine.Time, set func(*AppSpec, engine.Time)) {
			p := &params.Param{Name: q + field, Kind: params.KindDuration, Min: 0, Max: float64(engine.Second), Unit: "time", Doc: "app " + a.Name + ": " + doc}
			params.Extra(p, def)
			out = append(out, scenParam{p, func(s *ScenarioSpec, v any) { set(&s.Apps[i], v.(engine.Time)) }})
		}
		intP("size", "message or buffer size in bytes", 0, 1<<30, a.Size, func(a *AppSpec, v int) { a.Size = v })
		intP("iterations", "loop length or repetitions", 1, 1<<24, a.Iterations, func(a *AppSpec, v int) { a.Iterations = v })
		intP("ranks", "ranks (0: every host's ranks_per_host)", 0, 1<<20-1, a.Ranks, func(a *AppSpec, v int) { a.Ranks = v })
		intP("ranks_per_host", "consecutive ranks on one host", 1, 1024, a.RanksPerHost, func(a *AppSpec, v int) { a.RanksPerHost = v })
		intP("patterns", "random rings measured", 1, 1000, a.Patterns, func(a *AppSpec, v int) { a.Patterns = v })
		intP("root", "bcast root rank", 0, 1<<20-1, a.Root, func(a *AppSpec, v int) { a.Root = v })
		intP("start_phase", "phase at which the app starts", 0, float64(max(sp.Phases, 1)-1), a.StartPhase,
			func(a *AppSpec, v int) { a.StartPhase = v })
		durP("compute", "computation before each collective", a.Compute, func(a *AppSpec, v engine.Time) { a.Compute = v })
		durP("send_overhead", "host software time per message sent", a.SendOverhead, func(a *AppSpec, v engine.Time) { a.SendOverhead = v })
		durP("recv_overhead", "host software time per message received", a.RecvOverhead, func(a *AppSpec, v engine.Time) { a.RecvOverhead = v })
		durP("shm_latency", "shared-memory message latency between ranks of one host", a.SHMLatency,
			func(a *AppSpec, v engine.Time) { a.SHMLatency = v })
		p := &params.Param{Name: q + "shm_gbps", Kind: params.KindFloat, Min: 0.001, Max: 10000, Unit: "Gbit/s", Doc: "app " + a.Name + ": shared-memory bandwidth"}
		params.Extra(p, a.SHMGbps)
		out = append(out, scenParam{p, func(s *ScenarioSpec, v any) { s.Apps[i].SHMGbps = v.(float64) }})
	}
	return out
}
