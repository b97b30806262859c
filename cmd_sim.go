package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
)

func simCommand() *cli.Command {
	return &cli.Command{
		Name:      "sim",
		Usage:     "run one simulation and print its throughput series",
		UsageText: "ccsweep sim --scenario NAME|FILE.toml [--cc off|ib|santos|nicrate|drb] [--preset NAME] [--set key=value ...] [--phase DUR] [--sample DUR] [--seed N] [--format csv|json] [--out FILE] [--max-events N] [--cpuprofile FILE] [--quiet]",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "scenario", Usage: "built-in scenario (required; see: ccsweep scenarios)"},
			&cli.StringFlag{Name: "cc", Usage: "congestion-control scheme: off, ib (IB CC with the testbed's parameters; on is the same), santos, nicrate or drb (default: the scenario's; off for the testbed, ib for clos648-*)"},
			&cli.StringFlag{Name: "preset", Usage: "named IB CC settings: " + strings.Join(model.PresetNames(), ", ") + " (default " + model.DefaultPreset + "; see docs/presets.md); --set overrides its fields"},
			&cli.StringSliceFlag{Name: "set", Usage: "set a parameter, e.g. --set ccti_timer=300us (repeatable; listed below)"},
			&cli.StringFlag{Name: "phase", Usage: "scenario phase length, e.g. 200ms (default: the scenario's; 1s for the testbed, 125ms for clos648-*)"},
			&cli.StringFlag{Name: "sample", Usage: "throughput sampling interval (default 1ms)"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "random seed"},
			&cli.StringFlag{Name: "format", Value: "csv", Usage: "csv (time_s,flow,throughput_gbps) or json (parameters, metrics, series)"},
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "write to FILE instead of standard output"},
			&cli.Float64Flag{Name: "max-events", Value: defaultMaxEvents, Usage: "refuse a run estimated to take more events than this (0: no limit); about 10 minutes of one core per 1e10"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress bar on a terminal"},
			&cli.StringFlag{Name: "cpuprofile", Usage: "write a CPU profile of the run to FILE (read it with go tool pprof)"},
		},
		Description:  paramHelp(),
		OnUsageError: commandUsageError,
		Action:       simAction,
	}
}

// paramHelp lists every parameter --set accepts.
func paramHelp() string {
	var b strings.Builder
	b.WriteString("Parameters for --set (defaults are the reference testbed's):\n")
	def := model.DefaultConfig()
	for _, p := range model.Params() {
		doc := p.Doc
		if p.Scheme != "" {
			doc = "[cc " + p.Scheme + "] " + doc
		}
		fmt.Fprintf(&b, "   %-24s %-12s %s\n", p.Name, def.Canonical(p.Name), doc)
	}
	return b.String()
}

// simConfig builds the run's configuration from the command's flags. The
// scenario file, if one is named, and the files it reads are set in
// *files.
func simConfig(c *cli.Context, files *[]string) (*model.Scenario, model.Config, error) {
	cfg := model.DefaultConfig()
	name := c.String("scenario")
	if name == "" {
		return nil, cfg, usagef("--scenario is required (known: %s)", strings.Join(model.ScenarioNames(), ", "))
	}
	var sc *model.Scenario
	if grids.IsScenarioFile(name) {
		var err error
		if sc, *files, err = grids.LoadScenarioFiles(name); err != nil {
			var ge *grids.Error
			if errors.As(err, &ge) {
				return nil, cfg, err // one line per problem (run)
			}
			return nil, cfg, usagef("%v", err)
		}
		printWarnings(c.App.ErrWriter, sc)
	} else if sc = model.LookupScenario(name); sc == nil {
		return nil, cfg, usagef("--scenario: unknown scenario %q (known: %s, or a scenario file NAME.toml)", name, strings.Join(model.ScenarioNames(), ", "))
	}
	cfg = sc.Config() // the defaults with the scenario's own
	if c.IsSet("cc") {
		if err := cfg.Set("cc", c.String("cc")); err != nil {
			return nil, cfg, usagef("--cc: want one of %s (on is ib), not %q", strings.Join(model.Schemes, ", "), c.String("cc"))
		}
	}
	for _, flag := range []string{"preset", "phase", "sample"} {
		if v := c.String(flag); v != "" {
			if err := cfg.Set(flag, v); err != nil {
				return nil, cfg, usagef("--%s: %v", flag, err)
			}
		}
	}
	// Each parameter is set once: a repeated --set, or --set cc/phase/sample
	// beside its own flag, is a conflict, not a silent last-one-wins.
	setBy := map[string]string{}
	for _, flag := range []string{"cc", "preset", "phase", "sample"} {
		if c.IsSet(flag) {
			setBy[flag] = "--" + flag
		}
	}
	if err := applySets(&cfg, c.StringSlice("set"), setBy, sc.Set); err != nil {
		return nil, cfg, err
	}
	if err := cfg.CheckSchemeParams(slices.Sorted(maps.Keys(setBy))); err != nil {
		return nil, cfg, usagef("--set: %v", err)
	}
	if err := cfg.Validate(); err != nil {
		return nil, cfg, usagef("%v", err)
	}
	return sc, cfg, nil
}

// applySets applies --set key=value flags to cfg. setBy names what already
// set each parameter (e.g. "--phase"); a parameter set twice is a usage
// error, not a silent last-one-wins.
func applySets(cfg *model.Config, sets []string, setBy map[string]string, set func(*model.Config, string, any) error) error {
	for _, kv := range sets {
		key, val, ok := strings.Cut(kv, "=")
		if !ok {
			return usagef("--set %q: want key=value", kv)
		}
		key = strings.TrimSpace(key)
		if prev, ok := setBy[key]; ok {
			return usagef("--set %s: %s is already set by %s; give each parameter once", kv, key, prev)
		}
		setBy[key] = "--set " + kv
		if err := set(cfg, key, strings.TrimSpace(val)); err != nil {
			return usagef("--set: %v", err)
		}
	}
	return nil
}

func simAction(c *cli.Context) error {
	if c.NArg() > 0 {
		return usagef("sim takes no arguments, got %q", c.Args().First())
	}
	format := c.String("format")
	if format != "csv" && format != "json" {
		return usagef("--format: want csv or json, not %q", format)
	}
	var files []string
	sc, cfg, err := simConfig(c, &files)
	if err != nil {
		return err
	}
	ins := scenarioInputs(files)
	outs := []ioPath{{"--out", c.String("out")}, {"--cpuprofile", c.String("cpuprofile")}}
	if err := checkOutputs(outs, ins); err != nil {
		return err
	}
	if c.Float64("max-events") < 0 {
		return usagef("--max-events %g: want 0 (no limit) or more", c.Float64("max-events"))
	}
	if _, err := sc.CheckWork(cfg, c.Float64("max-events")); err != nil {
		var we *model.WorkError
		if errors.As(err, &we) {
			return usagef("%v (--max-events)", err)
		}
		return usagef("%v", err)
	}
	var progress func(now, end engine.Time)
	if !c.Bool("quiet") && isTerminal(c.App.ErrWriter) {
		bar := newSimProgress(c.App.ErrWriter)
		defer bar.Finish()
		progress = bar.Update
	}
	stopProfile, err := startCPUProfile(c.String("cpuprofile"))
	if err != nil {
		return err
	}
	res, err := model.RunProgress(c.Context, sc, cfg, c.Uint64("seed"), progress)
	if perr := stopProfile(); perr != nil && err == nil {
		return perr
	}
	if err != nil {
		var pe *model.ParamError
		var me *model.MemoryError
		// A scenario the parameters make impossible (an lmc dor cannot
		// route, rates for flows that do not exist) is bad input too.
		if errors.As(err, &pe) || errors.As(err, &me) || errors.Is(err, model.ErrBadScenario) {
			return usageError{err}
		}
		return fmt.Errorf("simulation failed: %w", err)
	}
	if refused := refusedFlows(res); refused != "" {
		fmt.Fprintf(c.App.ErrWriter, "nicrate admission control refused %s: they never started (their requests would oversubscribe a source, link or destination)\n", refused)
	}
	return writeOutput(c.Context, c.String("out"), c.App.Writer, func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		if format == "csv" {
			writeSeriesCSV(bw, res)
		} else if err := writeSimJSON(bw, res); err != nil {
			return err
		}
		return bw.Flush()
	})
}

// refusedFlows names the flows admission control refused, or "".
func refusedFlows(r *model.Result) string {
	var names []string
	for _, f := range r.Flows {
		if f.Refused {
			names = append(names, f.Name)
		}
	}
	return strings.Join(names, ", ")
}

// startCPUProfile starts a CPU profile into file (none when file is "")
// and returns what stops it and writes the file.
func startCPUProfile(file string) (stop func() error, err error) {
	if file == "" {
		return func() error { return nil }, nil
	}
	f, err := os.Create(file)
	if err != nil {
		return nil, usagef("--cpuprofile: %v", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	return func() error {
		pprof.StopCPUProfile()
		return f.Close()
	}, nil
}

// defaultMaxEvents is the work sim and run accept without --max-events:
// about ten minutes of one core at the simulator's 15-25 M events/s.
const defaultMaxEvents = 1e10

// simProgress shows, on a terminal, the simulated time reached against the
// run's end, the rate (simulated time per wall second) and an ETA, once a
// run has taken more than two seconds; it redraws one line twice a second
// and clears it at the end.
type simProgress struct {
	w           io.Writer
	start, last time.Time
	shown       bool
}

func newSimProgress(w io.Writer) *simProgress { return &simProgress{w: w, start: time.Now()} }

// Update is the model's progress callback.
func (p *simProgress) Update(now, end engine.Time) {
	t := time.Now()
	el := t.Sub(p.start)
	if el < 2*time.Second || t.Sub(p.last) < 500*time.Millisecond || now <= 0 {
		return
	}
	p.last, p.shown = t, true
	rate := now.Seconds() / el.Seconds() // simulated seconds per wall second
	eta := time.Duration(float64(end-now) / float64(now) * float64(el))
	fmt.Fprintf(p.w, "\r\x1b[Ksimulated %v of %v (%.0f%%), %s per second, ETA %v", now, end,
		100*float64(now)/float64(end), seconds(rate), eta.Round(time.Second))
}

// seconds prints s seconds with three digits in s, ms or µs.
func seconds(s float64) string {
	switch {
	case s >= 1:
		return fmt.Sprintf("%.3g s", s)
	case s >= 1e-3:
		return fmt.Sprintf("%.3g ms", s*1e3)
	default:
		return fmt.Sprintf("%.3g µs", s*1e6)
	}
}

// Finish clears the line.
func (p *simProgress) Finish() {
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}

// writeSeriesCSV writes the long-form series: time_s,flow,throughput_gbps,
// one row per sample per flow, time at the end of each sample interval.
func writeSeriesCSV(w *bufio.Writer, r *model.Result) {
	w.WriteString("time_s,flow,throughput_gbps\n")
	if len(r.Flows) == 0 {
		return
	}
	var buf []byte
	for i := range r.Flows[0].Gbps {
		t := strconv.FormatFloat((engine.Time(i+1) * r.Sample).Seconds(), 'f', -1, 64)
		for _, f := range r.Flows {
			buf = append(buf[:0], t...)
			buf = append(buf, ',')
			buf = append(buf, f.Name...)
			buf = append(buf, ',')
			buf = strconv.AppendFloat(buf, f.Gbps[i], 'f', -1, 64)
			buf = append(buf, '\n')
			w.Write(buf)
		}
	}
}

// simJSON is the document `ccsweep sim --format json` prints.
type simJSON struct {
	Scenario     string              `json:"scenario"`
	ModelVersion string              `json:"model_version"`
	Seed         uint64              `json:"seed"`
	Params       map[string]string   `json:"params"`
	SampleS      float64             `json:"sample_s"`
	EndS         float64             `json:"end_s"`
	WindowS      [2]float64          `json:"window_s"`
	Metrics      map[string]*float64 `json:"metrics"`
	Events       uint64              `json:"events"`
	Flows        []flowJSON          `json:"flows"`
	// Apps are the closed-loop applications' per-iteration times; their
	// metrics are in Metrics, under the names model.AppResult gives.
	Apps []appJSON `json:"apps,omitempty"`
}

type appJSON struct {
	Name        string    `json:"name"`
	Program     string    `json:"program"`
	IterationUs []float64 `json:"iteration_us,omitempty"`
}

type flowJSON struct {
	Name   string    `json:"name"`
	Role   string    `json:"role"`
	Src    string    `json:"src"`
	Dst    string    `json:"dst"`
	StartS float64   `json:"start_s"`
	Gbps   []float64 `json:"throughput_gbps"`
	CCTI   []int32   `json:"ccti,omitempty"`
	// AdmittedGbps and Refused are nicrate's admission decision.
	AdmittedGbps float64 `json:"admitted_gbps,omitempty"`
	Refused      bool    `json:"refused,omitempty"`
}

func writeSimJSON(w io.Writer, r *model.Result) error {
	from, to := r.Window()
	doc := simJSON{
		Scenario: r.Scenario, ModelVersion: r.ModelVersion, Seed: r.Seed,
		Params: map[string]string{}, SampleS: r.Sample.Seconds(), EndS: r.End.Seconds(),
		WindowS: [2]float64{from.Seconds(), to.Seconds()}, Metrics: map[string]*float64{}, Events: r.Events,
	}
	for _, p := range model.Params() {
		if p.AppliesTo(r.Config.CC.Scheme) { // not another scheme's
			doc.Params[p.Name] = r.Config.Canonical(p.Name)
		}
	}
	for i, v := range r.Metrics().Values() {
		if !math.IsNaN(v) {
			v := v
			doc.Metrics[model.MetricNames[i]] = &v
		} else {
			doc.Metrics[model.MetricNames[i]] = nil
		}
	}
	for _, a := range r.Apps {
		for _, m := range a.Metrics {
			v := m.Value
			doc.Metrics[m.Name] = &v
			if math.IsNaN(v) {
				doc.Metrics[m.Name] = nil
			}
		}
		doc.Apps = append(doc.Apps, appJSON{Name: a.Name, Program: a.Program, IterationUs: a.IterationUs})
	}
	for _, f := range r.Flows {
		doc.Flows = append(doc.Flows, flowJSON{Name: f.Name, Role: string(f.Role), Src: f.Src, Dst: f.Dst,
			StartS: f.Start.Seconds(), Gbps: f.Gbps, CCTI: f.CCTI, AdmittedGbps: f.AdmittedGbps, Refused: f.Refused})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// printWarnings prints, one line each on w, what reading the scenarios'
// files worked around (model.Scenario.Warnings), each scenario's once.
func printWarnings(w io.Writer, scs ...*model.Scenario) {
	seen := map[*model.Scenario]bool{}
	for _, sc := range scs {
		if sc == nil || seen[sc] {
			continue
		}
		seen[sc] = true
		for _, m := range sc.Warnings {
			fmt.Fprintln(w, "ccsweep: warning: "+m)
		}
	}
}

// scenarioInputs names the files a scenario file was read from (the file,
// then its fabric) as inputs for checkOutputs.
func scenarioInputs(files []string) []ioPath {
	var ins []ioPath
	for i, f := range files {
		what := "a file of the scenario,"
		if i == 0 {
			what = "the scenario file"
		}
		ins = append(ins, ioPath{what, f})
	}
	return ins
}
