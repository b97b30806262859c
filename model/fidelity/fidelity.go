package fidelity

import (
	"context"
	"fmt"
	"runtime"
	"sync"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// This file and fidelity_reference.go check the model against the published
// measurements of the reference testbed (ccsweep validate): CheckFidelity
// runs the reference experiments and sets the model's numbers beside the
// published ones, row by row, each with the measure it is judged by and a
// verdict. The rows are the CC-off and CC-on tables of SPEC §3 (testbed-s1,
// one row per phase) and the claims the hardware paper makes about its
// parameter surfaces (figures 11, 12 and 14: victim throughput, contributors'
// throughput and Var over CCTI_Timer × Marking_Rate) and that the OMNeT++
// model's validation makes about the hardware (two contributors with CC on
// reach about 11 Gbit/s of H5's 13). The published numbers were read off the
// papers' text (their figures were not available), so each row states the
// measure that turns a sentence into a check. A check is deterministic: the
// same options give the same report on every machine and with any number
// of jobs.

// FidelityOptions say how CheckFidelity runs the reference experiments.
type FidelityOptions struct {
	// Base is the configuration every run starts from; CheckFidelity sets
	// cc, phase, and on the grid ccti_timer and marking_rate, itself. Nil
	// means DefaultConfig(): the testbed with its Table I CC parameters.
	Base *params.Config
	// Phase is the phase of every run (flows join one phase apart); 0
	// means 1 s, as on the testbed. Shorter phases run faster and shift the
	// numbers a little.
	Phase engine.Time
	// Timers and Rates are the axes of the surfaces (CCTI_Timer ×
	// Marking_Rate); nil means FidelityTimers and FidelityRates. The claims
	// about the short-timer edge look at timers up to 100 µs, the rest at
	// timers from 150 µs.
	Timers []engine.Time
	Rates  []int
	// Jobs is how many simulations run at once; 0 means GOMAXPROCS.
	Jobs int
	// Seed is every run's seed; 0 means 1.
	Seed uint64
	// Progress, if not nil, is called after each simulation with the
	// number done and the total, from one goroutine at a time.
	Progress func(done, total int)
}

// FidelityTimers is the CCTI_Timer axis of the surfaces: the short-timer
// edge (20-100 µs) and the rest of the published figures' range, up to
// 2000 µs.
var FidelityTimers = []engine.Time{
	20 * engine.Microsecond, 50 * engine.Microsecond, 100 * engine.Microsecond,
	150 * engine.Microsecond, 200 * engine.Microsecond, 300 * engine.Microsecond,
	500 * engine.Microsecond, 1000 * engine.Microsecond, 1500 * engine.Microsecond,
	2000 * engine.Microsecond,
}

// FidelityRates is the Marking_Rate axis of the surfaces.
var FidelityRates = []int{0, 1, 2, 4, 8, 16}

// FidelityReport is what CheckFidelity found: the verdict rows and the
// numbers behind them.
type FidelityReport struct {
	// Rows are the checks in order: SPEC §3 with CC off, with CC on, then
	// the claims about the surfaces.
	Rows []FidelityRow
	// Flows names the flows of testbed-s1; Off and On hold each flow's
	// mean throughput (Gbit/s) per phase of the reference runs, [phase][flow],
	// over each phase after its first fifth.
	Flows   []string
	Off, On [][]float64
	// S2Flows names the flows of testbed-s2; S2Off and S2On hold each
	// flow's mean throughput (Gbit/s) over its last phase (all three
	// active) after its first fifth, with CC off and on.
	S2Flows     []string
	S2Off, S2On []float64
	// Surface is the grid the claims about figures 11, 12 and 14 read.
	Surface FidelitySurface
	// Config is the configuration the runs started from.
	Config params.Config

	onSD, offSD [][]float64 // each flow's sd over the samples per phase, [phase][flow]
}

// Simulations returns how many simulations the check ran: testbed-s1 and
// testbed-s2 with CC off and on, and the surface's grid.
func (rep *FidelityReport) Simulations() int {
	return 4 + len(rep.Surface.Timers)*len(rep.Surface.Rates)
}

// FidelityRow is one check: what is compared, the model's number, the published
// one, the measure that decides, and the verdict.
type FidelityRow struct {
	// Source is where the published number comes from, e.g. "SPEC §3, CC
	// off" or "claim 1".
	Source string
	// Item says what is compared, e.g. "F1–F3" or "victim, CCTI_Timer
	// ≤ 100 µs".
	Item string
	// Model and Published are the two numbers or descriptions side by side.
	Model, Published string
	// Measure is the rule the verdict applies.
	Measure string
	// Pass is the verdict.
	Pass bool
	// Group names the published figure, table or text the row comes from
	// (rows of one group are held out together by CrossValidate), and
	// Kind says how precise that source is: "table", "figure" or "text"
	// (see RowGroups).
	Group, Kind string
}

// FidelitySurface holds the last-phase metrics of testbed-s1 with CC on over
// CCTI_Timer × Marking_Rate, each [timer][rate].
type FidelitySurface struct {
	Timers                    []engine.Time
	Rates                     []int
	Victim, Contributors, Var [][]float64
}

// job is one simulation of CheckFidelity: of testbed-s1 unless sc is set.
type job struct {
	cfg  params.Config
	done func(*model.Result)
	sc   *workload.Scenario
}

// CheckFidelity runs the reference experiments and checks them: testbed-s1 with CC off
// and with CC on for the tables of SPEC §3 and claim 6, testbed-s1 with
// CC on over Timers × Rates for claims 1 to 5, and testbed-s2 with CC off
// and on for CC's cost on a shared switch link (the hardware paper's
// scenario-2 table). It returns early with ctx's
// error when ctx is done, and with the first simulation's error if one
// fails.
func CheckFidelity(ctx context.Context, opt FidelityOptions) (*FidelityReport, error) {
	base := params.DefaultConfig()
	if opt.Base != nil {
		base = *opt.Base
	}
	if opt.Phase == 0 {
		opt.Phase = engine.Second
	}
	if opt.Timers == nil {
		opt.Timers = FidelityTimers
	}
	if opt.Rates == nil {
		opt.Rates = FidelityRates
	}
	if opt.Jobs <= 0 {
		opt.Jobs = runtime.GOMAXPROCS(0)
	}
	if opt.Seed == 0 {
		opt.Seed = 1
	}
	base.Phase = opt.Phase
	base.Sample = min(base.Sample, opt.Phase)
	if err := base.Validate(); err != nil {
		return nil, err
	}
	sc := workload.LookupScenario("testbed-s1")
	rep := &FidelityReport{Config: base, Surface: newSurface(opt.Timers, opt.Rates)}
	for _, f := range sc.Flows {
		rep.Flows = append(rep.Flows, f.Name)
	}

	sc2 := workload.LookupScenario("testbed-s2")
	for _, f := range sc2.Flows {
		rep.S2Flows = append(rep.S2Flows, f.Name)
	}

	var jobs []job
	var offRes, onRes, s2Off, s2On *model.Result
	off, on := base, base
	off.CC.Scheme, on.CC.Scheme = params.SchemeOff, params.SchemeIB
	jobs = append(jobs, job{off, func(r *model.Result) { offRes = r }, nil}, job{on, func(r *model.Result) { onRes = r }, nil})
	jobs = append(jobs, job{off, func(r *model.Result) { s2Off = r }, sc2}, job{on, func(r *model.Result) { s2On = r }, sc2})
	s := &rep.Surface
	for i, t := range opt.Timers {
		for j, mr := range opt.Rates {
			c := on
			c.CC.CCTITimer, c.CC.MarkingRate = t, mr
			jobs = append(jobs, job{c, func(r *model.Result) {
				m := r.Metrics()
				s.Victim[i][j], s.Contributors[i][j], s.Var[i][j] = m.VictimGbps, m.ContributorsGbps, m.Var
			}, nil})
		}
	}
	if err := runAll(ctx, sc, jobs, opt); err != nil {
		return nil, err
	}
	rep.Off, rep.offSD = phaseStats(offRes, sc.Phases)
	rep.On, rep.onSD = phaseStats(onRes, sc.Phases)
	s2OffMeans, _ := phaseStats(s2Off, sc2.Phases)
	s2OnMeans, _ := phaseStats(s2On, sc2.Phases)
	rep.S2Off, rep.S2On = s2OffMeans[sc2.Phases-1], s2OnMeans[sc2.Phases-1]
	rep.Rows = append(rep.Rows, tableRows(rep)...)
	rep.Rows = append(rep.Rows, claimRows(rep)...)
	rep.Rows = append(rep.Rows, s2Rows(rep)...)
	for i := range rep.Rows {
		rep.Rows[i].Group, rep.Rows[i].Kind = groupOf(rep.Rows[i].Source)
	}
	return rep, nil
}

// runAll runs jobs on opt.Jobs workers; each job's done runs on the worker
// that ran it, and jobs write disjoint results.
func runAll(ctx context.Context, sc *workload.Scenario, jobs []job, opt FidelityOptions) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	next := make(chan int)
	var (
		mu       sync.Mutex
		firstErr error
		done     int
		wg       sync.WaitGroup
	)
	for w := 0; w < opt.Jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				jsc := sc
				if jobs[i].sc != nil {
					jsc = jobs[i].sc
				}
				r, err := model.RunContext(ctx, jsc, jobs[i].cfg, opt.Seed)
				mu.Lock()
				if err != nil {
					if firstErr == nil {
						firstErr = fmt.Errorf("%s, ccti_timer %v, marking_rate %d: %w", jsc.Name,
							jobs[i].cfg.CC.CCTITimer, jobs[i].cfg.CC.MarkingRate, err)
					}
					cancel()
				} else {
					jobs[i].done(r)
					done++
					if opt.Progress != nil {
						opt.Progress(done, len(jobs))
					}
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for i := range jobs {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}

func newSurface(timers []engine.Time, rates []int) FidelitySurface {
	s := FidelitySurface{Timers: timers, Rates: rates}
	for range timers {
		s.Victim = append(s.Victim, make([]float64, len(rates)))
		s.Contributors = append(s.Contributors, make([]float64, len(rates)))
		s.Var = append(s.Var, make([]float64, len(rates)))
	}
	return s
}

// settle is the share of each phase left out of its mean: the flow that
// joined and the CC loop settle first.
const settle = 0.2

// phaseStats returns each flow's mean throughput per phase and its
// standard deviation over the samples, [phase][flow], over each phase after
// its first fifth.
func phaseStats(r *model.Result, phases int) (means, sds [][]float64) {
	ph := r.Config.Phase
	means, sds = make([][]float64, phases), make([][]float64, phases)
	for p := range means {
		from := engine.Time(p)*ph + engine.Time(settle*float64(ph))
		first, last := model.WindowSamples(from, engine.Time(p+1)*ph, r.Sample, len(r.Flows[0].Gbps))
		for _, f := range r.Flows {
			m, sd := model.MeanSD(f.Gbps[first : last+1])
			means[p], sds[p] = append(means[p], m), append(sds[p], sd)
		}
	}
	return means, sds
}
