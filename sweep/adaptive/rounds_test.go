package adaptive_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
	"github.com/ccsweep/ccsweep/store"
	"github.com/ccsweep/ccsweep/sweep"
	"github.com/ccsweep/ccsweep/sweep/adaptive"
)

// fakeResult is a run whose measurement window holds victim throughput
// victim and two contributors at 3 Gbit/s.
func fakeResult(cfg params.Config, seed uint64, victim float64) *model.Result {
	return &model.Result{Scenario: "testbed-s1", Seed: seed, Config: cfg, Sample: cfg.Phase, End: 2 * cfg.Phase,
		Flows: []model.FlowResult{
			{Name: "F1", Role: workload.Victim, Gbps: []float64{victim, victim}},
			{Name: "F2", Role: workload.Contributor, Gbps: []float64{3, 3}},
			{Name: "F3", Role: workload.Contributor, Gbps: []float64{3, 3}},
		}}
}

// cliffSurface is victim throughput over ccti_timer and marking_rate with
// a cliff: 2 Gbit/s for timers shorter than 30 µs plus 7 µs per unit of
// marking rate, 12 above.
func cliffSurface(cfg params.Config) float64 {
	if cfg.CC.CCTITimer.Micros() < cliffAt(float64(cfg.CC.MarkingRate)) {
		return 2
	}
	return 12 - 0.001*cfg.CC.CCTITimer.Micros()
}

// cliffSim simulates a point by cliffSurface, as sweep.Options.Simulate.
func cliffSim(_ context.Context, _ *workload.Scenario, cfg params.Config, seed uint64) (*model.Result, error) {
	return fakeResult(cfg, seed, cliffSurface(cfg)), nil
}

// coarseGrid is a 4x4 log grid over the surface, refined along its
// victim = 7 boundary.
const coarseGrid = `
name     = "coarse"
scenario = "testbed-s1"
cc       = "on"
phase    = "1ms"
sample   = "1ms"

[sweep]
ccti_timer   = { from = "50us", to = "2000us", count = 4, scale = "log" }
marking_rate = { from = 1, to = 64, count = 4, scale = "log" }

[refine]
points    = 40
metric    = "victim_gbps"
where     = ["victim_gbps >= 7"]
log       = ["ccti_timer", "marking_rate"]
`

// brackets returns, per marking rate, the ccti_timer values in µs that
// bracket the first rise of victim throughput through 7 Gbit/s.
func brackets(t *testing.T, db *store.DB) map[string][2]float64 {
	t.Helper()
	rs, err := db.Results(context.Background(), store.Filter{Status: store.StatusDone})
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]map[float64]float64{}
	for _, r := range rs {
		var mr string
		var tm float64
		for _, p := range r.Point.Params {
			switch p.Name {
			case "marking_rate":
				mr = p.Value
			case "ccti_timer":
				x, _ := grids.AxisNumber(p.Name, p.Value)
				tm = x / 1e6
			}
		}
		if rows[mr] == nil {
			rows[mr] = map[float64]float64{}
		}
		rows[mr][tm] = r.Metrics["victim_gbps"]
	}
	out := map[string][2]float64{}
	for mr, row := range rows {
		var ts []float64
		for tm := range row {
			ts = append(ts, tm)
		}
		sort.Float64s(ts)
		for i := 1; i < len(ts); i++ {
			if row[ts[i-1]] < 7 && row[ts[i]] >= 7 {
				out[mr] = [2]float64{ts[i-1], ts[i]}
				break
			}
		}
	}
	return out
}

func TestRefinementFollowsTheBoundary(t *testing.T) {
	var calls atomic.Int64
	sim := func(ctx context.Context, sc *workload.Scenario, cfg params.Config, seed uint64) (*model.Result, error) {
		calls.Add(1)
		return fakeResult(cfg, seed, cliffSurface(cfg)), nil
	}
	g := parse(t, coarseGrid)
	rounds := adaptive.NewRounds(g, g.Refine)
	db := openDB(t, "refine.db")
	sum, err := adaptive.RunRounds(context.Background(), rounds, db, sweep.Options{Workers: 3, Simulate: sim})
	if err != nil {
		t.Fatal(err)
	}
	if !sum.State.Finished || sum.State.Added != 40 || sum.Points != 56 || calls.Load() != 56 {
		t.Fatalf("finished %v, %d added, %d points, %d simulations; want 40 added to the 16 of the grid, each simulated once",
			sum.State.Finished, sum.State.Added, sum.Points, calls.Load())
	}
	// The coarse grid brackets the boundary within a factor 3.4 of the
	// timer (its log step); refinement narrows it on each of the grid's
	// rows that has one below the 50 µs of a regular 50 µs grid, and
	// brackets it on rows of its own.
	for mr, b := range brackets(t, db) {
		if (mr == "4" || mr == "16" || mr == "64") && b[1]-b[0] >= 50 {
			t.Errorf("marking_rate %s: boundary between %.1f and %.1f µs; refinement should narrow it below 50 µs", mr, b[0], b[1])
		}
		if want := cliffAt(atof(mr)); b[0] >= want || b[1] < want {
			t.Errorf("marking_rate %s: bracket %v misses the boundary at %.0f µs", mr, b, want)
		}
	}
	if n := len(brackets(t, db)); n < 4 {
		t.Errorf("refinement bracketed the boundary on %d marking rates; want at least 4 (4, 16, 64 and rows it added)", n)
	}
	// A rerun replays the rounds and runs nothing.
	again, err := adaptive.RunRounds(context.Background(), rounds, db, sweep.Options{Workers: 2, Simulate: sim})
	if err != nil || again.Ran != 0 || !again.State.Finished || again.State.Planned != 56 {
		t.Fatalf("rerun: %+v, %v; want nothing to run", again, err)
	}
}

func cliffAt(markingRate float64) float64 { return 30 + 7*markingRate }

func atof(s string) float64 {
	var x float64
	fmt.Sscan(s, &x)
	return x
}

func TestRoundsResumeAfterAnInterrupt(t *testing.T) {
	g := parse(t, coarseGrid)
	rounds := adaptive.NewRounds(g, g.Refine)
	whole := openDB(t, "whole.db")
	sim := cliffSim
	if _, err := adaptive.RunRounds(context.Background(), rounds, whole, sweep.Options{Workers: 1, Simulate: sim}); err != nil {
		t.Fatal(err)
	}
	// Interrupt after 25 simulations (round 1 or 2), then rerun.
	db := openDB(t, "resumed.db")
	ctx, cancel := context.WithCancel(context.Background())
	var calls atomic.Int64
	sim = func(c context.Context, sc *workload.Scenario, cfg params.Config, seed uint64) (*model.Result, error) {
		if calls.Add(1) > 25 {
			cancel()
			return nil, c.Err()
		}
		return fakeResult(cfg, seed, cliffSurface(cfg)), nil
	}
	_, err := adaptive.RunRounds(ctx, rounds, db, sweep.Options{Workers: 1, Simulate: sim})
	if !errors.Is(err, sweep.ErrInterrupted) {
		t.Fatalf("interrupted sweep: %v, want ErrInterrupted", err)
	}
	st, err := rounds.Current(context.Background(), db)
	if err != nil || st.Round == 0 || st.Finished {
		t.Fatalf("after the interrupt: round %d finished %v (%v); want a round after 0 under way", st.Round, st.Finished, err)
	}
	calls.Store(-1000)
	sum, err := adaptive.RunRounds(context.Background(), rounds, db, sweep.Options{Workers: 2, Simulate: sim})
	if err != nil || sum.Ran != 56-25 {
		t.Fatalf("rerun ran %d (%v); want the 31 points the interrupt left", sum.Ran, err)
	}
	if a, b := export(t, whole), export(t, db); a != b {
		t.Errorf("the resumed sweep's results differ from an uninterrupted one's:\n%s\nvs\n%s", a, b)
	}
}

func TestRoundShardsPartitionTheRound(t *testing.T) {
	sim := cliffSim
	g := parse(t, coarseGrid)
	rounds := adaptive.NewRounds(g, g.Refine)
	db := openDB(t, "base.db")
	if _, err := sweep.Run(context.Background(), mustPlan(t, g), db, sweep.Options{Workers: 2, Simulate: sim}); err != nil {
		t.Fatal(err)
	}
	st, err := rounds.Current(context.Background(), db)
	if err != nil || st.Round != 1 || len(st.Points) != 10 {
		t.Fatalf("round %d with %d points (%v); want round 1 with 10", st.Round, len(st.Points), err)
	}
	var all []string
	for i := 1; i <= 3; i++ {
		plan, err := st.Plan(g, sweep.Shard{Index: i, Count: 3})
		if err != nil {
			t.Fatal(err)
		}
		for k := range plan.Len() {
			all = append(all, plan.ID(k))
		}
	}
	var want []string
	for _, p := range st.Points {
		want = append(want, grids.PointID(p.Point, model.Version))
	}
	slices.Sort(all)
	slices.Sort(want)
	if !slices.Equal(all, want) {
		t.Errorf("the shards of round 1 hold %v, want each point of the round once: %v", all, want)
	}
}

func mustPlan(t *testing.T, g *grids.Grid) *sweep.Plan {
	t.Helper()
	p, err := sweep.NewPlan(g, sweep.Shard{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// noisyGrid has points whose victim throughput is noisy from seed to seed,
// by how much depending on the point.
const noisyGrid = `
name     = "noisy"
scenario = "testbed-s1"
cc       = "on"
phase    = "1ms"
sample   = "1ms"
seeds    = { min = 3, max = 30, ci = 0.05, metric = "victim_gbps" }

[sweep]
marking_rate = [0, 1, 2, 4, 8]
`

// noise is a deterministic pseudo-random value in [-1, 1] of a seed.
func noise(seed uint64) float64 {
	x := seed*0x9e3779b97f4a7c15 + 0x632be59bd9b4e5
	x ^= x >> 31
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 29
	return float64(x%2001)/1000 - 1
}

func TestSeedTargetIsMetOrMaxReached(t *testing.T) {
	sim := func(ctx context.Context, sc *workload.Scenario, cfg params.Config, seed uint64) (*model.Result, error) {
		// Spread grows with the marking rate: rate 0 is exact, rate 8
		// too noisy for 30 seeds to reach 5 %.
		return fakeResult(cfg, seed, 10+float64(cfg.CC.MarkingRate)*noise(seed)), nil
	}
	g := parse(t, noisyGrid)
	db := openDB(t, "seeds.db")
	sum, err := adaptive.RunRounds(context.Background(), adaptive.NewRounds(g, nil), db, sweep.Options{Workers: 2, Simulate: sim})
	if err != nil || !sum.State.Finished {
		t.Fatal(sum, err)
	}
	rs, err := db.Results(context.Background(), store.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	seeds := map[string]int{}
	for _, s := range store.Summarize(rs) {
		mr, _ := s.Value("marking_rate")
		st := s.Metrics["victim_gbps"]
		seeds[mr] = st.N
		for i, seed := range s.Seeds {
			if seed != uint64(i+1) {
				t.Errorf("marking_rate %s: seeds %v, want 1..%d", mr, s.Seeds, len(s.Seeds))
				break
			}
		}
		switch {
		case st.N < 3 || st.N > 30:
			t.Errorf("marking_rate %s: %d seeds, want 3..30", mr, st.N)
		case st.N < 30 && !st.Precise(0.05):
			t.Errorf("marking_rate %s: stopped at %d seeds with half-width %.3g of mean %.3g, above 5 %%", mr, st.N, st.HalfWidth, st.Mean)
		case st.N > 3 && st.N < 30:
			// It needed the last round: one seed fewer would not have met
			// the target, or the seeds doubled from a count that did not.
			var xs []float64
			for _, seed := range s.Seeds[:st.N/2] {
				xs = append(xs, 10+atof(mr)*noise(seed))
			}
			if store.StatOf(xs).Precise(0.05) {
				t.Errorf("marking_rate %s: %d seeds, though %d already met the target", mr, st.N, st.N/2)
			}
		}
	}
	if seeds["0"] != 3 || seeds["8"] != 30 {
		t.Errorf("seeds per marking rate %v; want 3 for the exact point and 30 (max) for the noisiest", seeds)
	}
}

// TestRefinementLocatesTheTestbedCliff is the measurement of docs/sweeps.md on
// a shorter run: the coarse 4x4 grid of testbed-s1 over CCTI_Timer and
// Marking_Rate, refined with 40 points along victim = 7 Gbit/s, brackets
// the short-timer cliff of every marking rate it samples that a regular
// grid of 50 µs steps also samples more narrowly than 50 µs.
func TestRefinementLocatesTheTestbedCliff(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates 56 points of testbed-s1")
	}
	g := parse(t, strings.Replace(strings.Replace(coarseGrid, `phase    = "1ms"`, `phase    = "50ms"`, 1),
		`[sweep]`, "[base]\nccti_increase = 1\n[sweep]", 1))
	db := openDB(t, "testbed.db")
	sum, err := adaptive.RunRounds(context.Background(), adaptive.NewRounds(g, g.Refine), db, sweep.Options{Workers: 2})
	if err != nil || sum.Points > 56 {
		t.Fatal(sum, err)
	}
	b := brackets(t, db)
	var widths []float64
	for _, mr := range []string{"1", "2", "4", "8", "16", "32", "64"} { // the marking rates of examples/fig11-14.toml
		if br, ok := b[mr]; ok {
			t.Logf("marking_rate %s: cliff between %.1f and %.1f µs", mr, br[0], br[1])
			widths = append(widths, br[1]-br[0])
		}
	}
	sort.Float64s(widths)
	if len(widths) < 3 {
		t.Fatalf("refinement bracketed the cliff on %d of the regular grid's marking rates (%v); want at least 3", len(widths), b)
	}
	if med := widths[len(widths)/2]; med >= 50 {
		t.Errorf("median bracket of the cliff %.1f µs, not narrower than the regular grid's 50 µs step", med)
	}
}

// smallCalibration writes calibGrid with hostCount values of host_io_gbps
// (8 to 16), two of switch_link_gbps (16 and 40) and the given rounds beside
// a measurement of testbed-s2 with the given host_io_gbps and
// switch_link_gbps, and loads it.
func smallCalibration(t *testing.T, rounds, hostCount, hostIO, switchLink string) *grids.Grid {
	t.Helper()
	dir := t.TempDir()
	measure(t, filepath.Join(dir, "fabric.csv"), "testbed-s2", map[string]string{"host_io_gbps": hostIO, "switch_link_gbps": switchLink})
	host := "host_io_gbps     = { from = 8, to = 16, count = "
	src := strings.NewReplacer(host+"5", host+hostCount, "count = 5", "count = 2", "rounds   = 8", "rounds   = "+rounds).Replace(calibGrid)
	if !strings.Contains(src, host+hostCount) || !strings.Contains(src, "count = 2") || !strings.Contains(src, "rounds   = "+rounds) {
		t.Fatal("calibGrid changed: update smallCalibration")
	}
	path := filepath.Join(dir, "calib.toml")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := grids.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// A calibration of `rounds = N` runs the grid (round 0) and N search
// rounds, no more: docs/sweeps.md, "rounds search rounds after the grid's
// own points".
func TestCalibrationRunsExactlyItsRounds(t *testing.T) {
	for _, rounds := range []string{"0", "1"} {
		g := smallCalibration(t, rounds, "2", "11.5", "27")
		db := openDB(t, "calib.db")
		sum, err := adaptive.RunRounds(context.Background(), adaptive.NewRounds(g, nil), db, sweep.Options{Workers: 1})
		if err != nil || !sum.State.Finished {
			t.Fatal(sum, err)
		}
		want := map[string]int{"0": 0, "1": 1}[rounds]
		if sum.State.Round != want || sum.Rounds != want+1 {
			t.Errorf("rounds = %s: finished in round %d after running %d rounds; want round %d after %d (the grid and %s search rounds)",
				rounds, sum.State.Round, sum.Rounds, want, want+1, rounds)
		}
	}
}

// Each search round lays as many values per axis as the grid has (three
// of host_io_gbps, two of switch_link_gbps here) over a box Shrink^r times
// the axis's range (Shrink 0.5), around the best point so far and kept
// inside the range: docs/sweeps.md. The measurement is the model's own
// series at host_io_gbps 16 (the top of its range, 8 to 16) and
// switch_link_gbps 16 (the bottom of its, 16 to 40), so that grid point fits
// exactly and stays the best: round 1's box is 4 wide on host_io_gbps (12,
// 14, 16) and 12 on switch_link_gbps (16, 28); round 2's 2 (14, 15, 16) and
// 6 (16, 22).
func TestCalibrationRoundsShrinkAroundTheBest(t *testing.T) {
	g := smallCalibration(t, "2", "3", "16", "16")
	db := openDB(t, "calib.db")
	sum, err := adaptive.RunRounds(context.Background(), adaptive.NewRounds(g, nil), db, sweep.Options{Workers: 1})
	if err != nil || !sum.State.Finished || sum.State.Round != 2 {
		t.Fatal(sum, err)
	}
	var got []string
	for _, p := range sum.State.All {
		if p.Seed != 1 {
			continue
		}
		h, _ := p.Value("host_io_gbps")
		s, _ := p.Value("switch_link_gbps")
		x, _ := grids.AxisNumber("host_io_gbps", h)
		y, _ := grids.AxisNumber("switch_link_gbps", s)
		got = append(got, fmt.Sprintf("%g/%g", x, y))
	}
	// The grid's 6 points, then each round's points the sweep did not
	// have yet (16/16 is in every round's box), in the stepper's order.
	want := []string{"8/16", "8/40", "12/16", "12/40", "16/16", "16/40",
		"12/28", "14/16", "14/28", "16/28",
		"14/22", "15/16", "15/22", "16/22"}
	if !slices.Equal(got, want) {
		t.Errorf("points planned (host_io_gbps/switch_link_gbps):\n got %v\nwant %v", got, want)
	}
	fit, err := adaptive.FitOf(context.Background(), adaptive.NewRounds(g, nil), db)
	if err != nil {
		t.Fatal(err)
	}
	if h, _ := fit.Best.Value("host_io_gbps"); h != "16" || fit.RMSE > 1e-6 {
		t.Errorf("best fit %v, error %g; want the measured point, error 0 (to the measurement file's digits)", fit.Best.Params, fit.RMSE)
	}
}

// TestMutRoundsCountWhatWasDoneBefore checks RunRounds' summary of an
// adaptive sweep (coarseGrid's refinement, simulated by the cliff
// surface): run from an empty database every planned point ran here and
// none was done already; rerun, every one was done already and none ran.
func TestMutRoundsCountWhatWasDoneBefore(t *testing.T) {
	sim := cliffSim
	g := parse(t, coarseGrid)
	rounds := adaptive.NewRounds(g, g.Refine)
	db := openDB(t, "rounds.db")
	first, err := adaptive.RunRounds(context.Background(), rounds, db, sweep.Options{Workers: 1, Simulate: sim})
	if err != nil || !first.State.Finished {
		t.Fatal(first, err)
	}
	if first.Ran != first.Points || first.AlreadyDone != 0 || first.Elsewhere != 0 || first.Points != first.State.Planned {
		t.Errorf("first run: %d points, %d ran, %d already done, %d elsewhere; want all %d run here", first.Points, first.Ran,
			first.AlreadyDone, first.Elsewhere, first.State.Planned)
	}
	again, err := adaptive.RunRounds(context.Background(), rounds, db, sweep.Options{Workers: 1, Simulate: sim})
	if err != nil || again.Ran != 0 || again.AlreadyDone != first.Points {
		t.Errorf("rerun: %d ran, %d already done (%v); want 0 and %d", again.Ran, again.AlreadyDone, err, first.Points)
	}
}

// TestMutRoundsRefuseAShard: every round needs all results of the one
// before, so RunRounds refuses a shard of more than one (nothing run, an
// error naming why) and takes the one shard of one like no shard.
// Kills rounds.go's `opt.Shard != (sweep.Shard{})` negated.
func TestMutRoundsRefuseAShard(t *testing.T) {
	g := parse(t, coarseGrid)
	db := openDB(t, "shard.db")
	out, err := adaptive.RunRounds(context.Background(), adaptive.NewRounds(g, g.Refine), db,
		sweep.Options{Workers: 1, Simulate: cliffSim, Shard: sweep.Shard{Index: 1, Count: 2}})
	if err == nil || !strings.Contains(err.Error(), "runs its rounds in one database") || out.Ran != 0 {
		t.Fatalf("shard 1/2: %d ran, err %v; want nothing run and the one-database error", out.Ran, err)
	}
	out, err = adaptive.RunRounds(context.Background(), adaptive.NewRounds(g, g.Refine), db,
		sweep.Options{Workers: 1, Simulate: cliffSim, Shard: sweep.Shard{Index: 1, Count: 1}})
	if err != nil || !out.State.Finished {
		t.Fatalf("shard 1/1: %v, finished %v; want the sweep run", err, out.State.Finished)
	}
}

// TestRoundsRetryFailedPointsOnRerun: a round with failed points stops the
// sweep with ErrFailedRound, and a rerun retries them and goes on
// (RunRounds' doc): the second run of coarseGrid, where the point that
// failed now simulates, runs that point and the refinement after it and
// ends finished, with what the first run did counted as done already.
func TestRoundsRetryFailedPointsOnRerun(t *testing.T) {
	g := parse(t, coarseGrid)
	rounds := adaptive.NewRounds(g, g.Refine)
	db := openDB(t, "retry.db")
	failing := func(ctx context.Context, sc *workload.Scenario, cfg params.Config, seed uint64) (*model.Result, error) {
		if cfg.CC.MarkingRate == 4 && cfg.CC.CCTITimer.Micros() == 50 {
			return nil, errors.New("planted failure")
		}
		return cliffSim(ctx, sc, cfg, seed)
	}
	first, err := adaptive.RunRounds(context.Background(), rounds, db, sweep.Options{Workers: 1, Simulate: failing})
	if !errors.Is(err, adaptive.ErrFailedRound) || first.Failed != 1 || first.State.Round != 0 {
		t.Fatalf("first run: %v, %d failed in round %d; want ErrFailedRound for the one point of round 0", err, first.Failed, first.State.Round)
	}
	again, err := adaptive.RunRounds(context.Background(), rounds, db, sweep.Options{Workers: 1, Simulate: cliffSim})
	if err != nil || !again.State.Finished {
		t.Fatalf("rerun: %v, finished %v; want the failed point retried and the sweep finished", err, again.State.Finished)
	}
	if again.Failed != 0 || again.Rounds < 2 || again.AlreadyDone != first.Ran-first.Failed {
		t.Errorf("rerun: %d rounds, %d failed, %d already done; want round 0 and refinement rounds after it, none failed, the first run's %d done points already done",
			again.Rounds, again.Failed, again.AlreadyDone, first.Ran-first.Failed)
	}
}

// TestRoundsFindResultsStoredUnderLegacyIDs: a point stored by an older
// ccsweep under its legacy identity (grids.LegacyPointID: a parameter
// written out at the value it has anyway) is done for the rounds as for a plain
// sweep. A database holding coarseGrid's finished sweep with its points
// moved to its legacy ID replays to the same finished state.
func TestRoundsFindResultsStoredUnderLegacyIDs(t *testing.T) {
	g := parse(t, coarseGrid)
	rounds := adaptive.NewRounds(g, g.Refine)
	ctx := context.Background()
	db := openDB(t, "new.db")
	if _, err := adaptive.RunRounds(ctx, rounds, db, sweep.Options{Workers: 1, Simulate: cliffSim}); err != nil {
		t.Fatal(err)
	}
	want, err := rounds.Current(ctx, db)
	if err != nil || !want.Finished {
		t.Fatal(want, err)
	}
	var ids []string
	for _, p := range want.All {
		ids = append(ids, grids.PointID(p.Point, model.Version))
	}
	results, err := db.ResultsOf(ctx, ids)
	if err != nil || len(results) != len(ids) {
		t.Fatalf("%d results of %d points: %v", len(results), len(ids), err)
	}
	grs, err := db.Grids(ctx)
	if err != nil {
		t.Fatal(err)
	}
	old := openDB(t, "old.db")
	for _, gr := range grs {
		if err := old.SaveGrid(ctx, gr); err != nil {
			t.Fatal(err)
		}
	}
	moved := 0
	for i := range results {
		if l := grids.LegacyPointID(results[i].Point, model.Version); l != "" {
			results[i].ID = l
			moved++
		}
	}
	if moved == 0 {
		t.Fatalf("none of %d points has a legacy ID; the test needs some", len(results))
	}
	if err := old.SaveResults(ctx, results); err != nil {
		t.Fatal(err)
	}
	got, err := rounds.Current(ctx, old)
	if err != nil || !got.Finished || got.Round != want.Round || got.Planned != want.Planned {
		t.Errorf("legacy IDs: round %d, %d planned, finished %v (%v); want round %d, %d planned, finished",
			got.Round, got.Planned, got.Finished, err, want.Round, want.Planned)
	}
}

// TestRoundsCountPointsDoneElsewhere: a point of round 0 held by another
// process, which finishes it while this sweep waits, is counted done
// elsewhere, not run here nor done already: Ran + Elsewhere + AlreadyDone
// = Points, with Elsewhere 1 and AlreadyDone 0.
func TestRoundsCountPointsDoneElsewhere(t *testing.T) {
	g := parse(t, coarseGrid)
	rounds := adaptive.NewRounds(g, g.Refine)
	ctx := context.Background()
	db := openDB(t, "peer.db")
	st, err := rounds.Current(ctx, db)
	if err != nil || len(st.Points) != 16 {
		t.Fatal(len(st.Points), err)
	}
	held := st.Points[5].Point
	heldID := grids.PointID(held, model.Version)
	if got, err := db.Claim(ctx, []string{heldID}, "peer", time.Hour); err != nil || len(got) != 1 {
		t.Fatalf("the peer claimed %v, %v", got, err)
	}
	p := &peerFinishesARound{t: t, db: db, point: held, id: heldID, after: 15}
	out, err := adaptive.RunRounds(ctx, rounds, db, sweep.Options{Workers: 1, Simulate: cliffSim, Lease: 300 * time.Millisecond, Progress: p})
	if err != nil || !out.State.Finished {
		t.Fatalf("%v, finished %v", err, out.State.Finished)
	}
	if !p.finished {
		t.Fatal("the peer never finished its point")
	}
	if out.Elsewhere != 1 || out.AlreadyDone != 0 || out.Ran != out.Points-1 || slices.Contains(p.ran, heldID) {
		t.Errorf("%d points: %d ran, %d elsewhere, %d already done (held point run here: %v); want %d, 1, 0",
			out.Points, out.Ran, out.Elsewhere, out.AlreadyDone, slices.Contains(p.ran, heldID), out.Points-1)
	}
}

// peerFinishesARound is the Progress of TestRoundsCountPointsDoneElsewhere:
// after `after` points done here, the peer stores its point as done (by the
// cliff surface) and lets go.
type peerFinishesARound struct {
	t        *testing.T
	db       *store.DB
	point    grids.Point
	id       string
	after    int
	mu       sync.Mutex
	ran      []string
	finished bool
}

func (p *peerFinishesARound) Start(int) {}

func (p *peerFinishesARound) Finish() {}

func (p *peerFinishesARound) Done(pt grids.Point, failed bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ran = append(p.ran, grids.PointID(pt, model.Version))
	if len(p.ran) != p.after {
		return
	}
	cfg, err := grids.PointConfig(p.point)
	if err != nil {
		p.t.Error(err)
		return
	}
	ctx := context.Background()
	grs, err := p.db.Grids(ctx)
	if err != nil || len(grs) != 1 {
		p.t.Error(fmt.Sprint(len(grs), err))
		return
	}
	r := store.Result{ID: p.id, GridID: grs[0].ID, Point: p.point, Status: store.StatusDone, ModelVersion: model.Version,
		Metrics: map[string]float64{"victim_gbps": cliffSurface(cfg)}}
	if err := p.db.SaveResults(ctx, []store.Result{r}); err != nil {
		p.t.Error(err)
	}
	if err := p.db.Release(ctx, "peer"); err != nil {
		p.t.Error(err)
	}
	p.finished = true
}
