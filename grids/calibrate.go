package grids

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// Calibrate asks to fit the model to measurements: the grid's numeric axes
// are the parameters to fit and their ranges, its points the first round of
// a search; each later round lays a grid of as many values per axis over a
// box around the best fit so far, Shrink times as wide as the last, until
// Rounds rounds have run or the box is narrower than the values can tell
// apart. The error of a point is the root mean square of the difference
// between its throughput series and the measured one, over every measured
// sample of every flow.
//
// In a grid file:
//
//	[calibrate]
//	measured = "fabric.csv"    # time_s,flow,throughput_gbps, as ccsweep sim --format csv prints it
//	rounds   = 8               # search rounds after the grid's own points (default 8)
//	shrink   = 0.5             # each round's box, relative to the last (default 0.5)
//	log      = ["ccti_timer"]  # axes searched on a log scale
type Calibrate struct {
	// Measured is the measurement file as the grid names it; Data its
	// content.
	Measured string
	Data     *Measurement
	Rounds   int
	Shrink   float64
	// Axes are the fitted parameters: the grid's numeric axes.
	Axes []RefineAxis
}

// Measurement is a measured throughput series per flow, in the long form
// `ccsweep sim --format csv` prints: time_s,flow,throughput_gbps, time at
// the end of each sample interval.
type Measurement struct {
	// Path is the file it was read from.
	Path string
	// Flows are the flows in order of first appearance.
	Flows []string
	// Sample is the sampling interval.
	Sample engine.Time
	// Gbps holds each flow's samples by index: sample i covers
	// (i·Sample, (i+1)·Sample].
	Gbps map[string]map[int]float64
}

// MeasurementHeader is the header line a measurement file must have.
const MeasurementHeader = "time_s,flow,throughput_gbps"

// MaxMeasurementSize is the largest measurement file read: 64 MiB.
const MaxMeasurementSize = 64 << 20

var calibrateKeys = []string{"measured", "rounds", "shrink", "log"}

// parseCalibrate reads the [calibrate] table n; it returns nil after
// reporting a problem.
func (g *Grid) parseCalibrate(ps *problems, n *node) *Calibrate {
	t := tableOf(ps, "calibrate", n)
	if t == nil {
		return nil
	}
	bad := false
	add := func(line int, key, format string, args ...any) {
		ps.add(line, key, format, args...)
		bad = true
	}
	bad = unknownKeys(ps, t, "calibrate", calibrateKeys, "calibrate")
	c := &Calibrate{Rounds: 8, Shrink: 0.5}
	if m := t.m["rounds"]; m != nil {
		if v, ok := m.val.(int64); !ok || v < 0 || v > 1000 {
			add(m.line, "calibrate.rounds", "want a whole number of rounds from 0 to 1000, not %s", show(m.val))
		} else {
			c.Rounds = int(v)
		}
	}
	if m := t.m["shrink"]; m != nil {
		v, ok := m.val.(float64)
		if !ok || !(v > 0 && v < 1) {
			add(m.line, "calibrate.shrink", "want a fraction between 0 and 1, not %s", show(m.val))
		} else {
			c.Shrink = v
		}
	}
	for _, a := range g.Axes() {
		if NumericKind(a.Kind) {
			c.Axes = append(c.Axes, RefineAxis{Name: a.Name, Kind: a.Kind})
		}
	}
	if len(c.Axes) == 0 {
		add(n.line, "calibrate", "the grid sweeps no numeric parameter: its numeric axes are the parameters to fit, over their ranges")
	}
	if m := t.m["log"]; m != nil && !g.markLogAxes(ps, "calibrate.log", m, c.Axes, "a numeric axis of the grid") {
		bad = true
	}
	m := t.m["measured"]
	if m == nil {
		add(n.line, "calibrate", "needs measured, the file of measured throughput (%s)", MeasurementHeader)
		return nil
	}
	name, ok := str(ps, "calibrate.measured", m)
	if !ok || bad {
		return nil
	}
	c.Measured = name
	path := name
	if !filepath.IsAbs(path) && g.Path != "" {
		path = filepath.Join(filepath.Dir(g.Path), path)
	}
	data, err := ReadFile(path, MaxMeasurementSize)
	if err != nil {
		add(m.line, "calibrate.measured", "cannot read %v", err)
		return nil
	}
	mp := &problems{file: path}
	c.Data = parseMeasurement(mp, path, data)
	if len(mp.list) > 0 {
		ps.list = append(ps.list, mp.list...)
		return nil
	}
	g.checkMeasurement(ps, m.line, c.Data)
	if len(ps.list) > 0 {
		return nil
	}
	return c
}

// ParseMeasurement reads a measurement file's data, path naming it in
// problems (an *Error).
func ParseMeasurement(path string, data []byte) (*Measurement, error) {
	ps := &problems{file: path}
	m := parseMeasurement(ps, path, data)
	if err := ps.err(); err != nil {
		return nil, err
	}
	return m, nil
}

func parseMeasurement(ps *problems, path string, data []byte) *Measurement {
	m := &Measurement{Path: path, Gbps: map[string]map[int]float64{}}
	r := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))))
	r.FieldsPerRecord = 3
	r.ReuseRecord = true
	head, err := r.Read()
	if err != nil || strings.Join(head, ",") != MeasurementHeader {
		got := "nothing"
		if len(head) > 0 { // csv returns a record with the wrong number of fields too
			got = strconv.Quote(strings.Join(head, ","))
		}
		ps.add(1, "", "the header must be %s, as ccsweep sim --format csv prints it, not %s", MeasurementHeader, got)
		return nil
	}
	type row struct {
		t    float64
		gbps float64
		line int
	}
	rows := map[string][]row{}
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		line, _ := r.FieldPos(0)
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				line = pe.Line
			}
			ps.add(line, "", "%v", unwrapCSV(err))
			if len(ps.list) >= MaxProblems {
				return nil
			}
			continue
		}
		tm, err1 := strconv.ParseFloat(strings.TrimSpace(rec[0]), 64)
		flow := strings.TrimSpace(rec[1])
		v, err2 := strconv.ParseFloat(strings.TrimSpace(rec[2]), 64)
		switch {
		case err1 != nil || !(tm > 0) || math.IsInf(tm, 0):
			ps.add(line, "time_s", "%q: want a positive time in seconds", rec[0])
		case flow == "":
			ps.add(line, "flow", "empty flow name")
		case err2 != nil || !(v >= 0) || math.IsInf(v, 0):
			ps.add(line, "throughput_gbps", "%q: want a throughput of 0 or more Gbit/s", rec[2])
		default:
			if _, ok := rows[flow]; !ok {
				m.Flows = append(m.Flows, flow)
			}
			rows[flow] = append(rows[flow], row{tm, v, line})
		}
		if len(ps.list) >= MaxProblems {
			return nil
		}
	}
	if len(ps.list) > 0 {
		return nil
	}
	if len(m.Flows) == 0 {
		ps.add(1, "", "no samples after the header")
		return nil
	}
	// The sample interval is the smallest step between a flow's times.
	step := math.Inf(1)
	for _, f := range m.Flows {
		rs := rows[f]
		slices.SortStableFunc(rs, func(a, b row) int { return cmpFloat(a.t, b.t) })
		step = min(step, rs[0].t)
		for i := 1; i < len(rs); i++ {
			if d := rs[i].t - rs[i-1].t; d > 0 {
				step = min(step, d)
			}
		}
	}
	m.Sample = engine.Time(math.Round(step*1e12/1e3)) * engine.Nanosecond // to the nanosecond
	if m.Sample <= 0 {
		ps.add(1, "time_s", "samples closer than a nanosecond apart")
		return nil
	}
	s := m.Sample.Seconds()
	for _, f := range m.Flows {
		m.Gbps[f] = map[int]float64{}
		for _, r := range rows[f] {
			k := math.Round(r.t / s)
			if math.Abs(r.t-k*s) > 1e-6*s {
				ps.add(r.line, "time_s", "%g is not a multiple of the sample interval %s", r.t, m.Sample)
				continue
			}
			if _, dup := m.Gbps[f][int(k)-1]; dup {
				ps.add(r.line, "time_s", "flow %s has two samples at %g s", f, r.t)
				continue
			}
			m.Gbps[f][int(k)-1] = r.gbps
		}
	}
	return m
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func unwrapCSV(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// checkMeasurement checks m against the grid: every sub-grid samples at
// m's interval, its scenario has m's flows, and its runs last as long as
// the measurement.
func (g *Grid) checkMeasurement(ps *problems, line int, m *Measurement) {
	for _, s := range g.Subs {
		sc := workload.LookupScenario(s.Scenario)
		if sc == nil {
			continue
		}
		for _, v := range s.values("sample") {
			if t, err := engine.ParseTime(v); err == nil && t != m.Sample {
				key, l := s.locate("sample")
				ps.add(l, key, "%s: the measurements in %s are sampled every %s; set sample = %q", v, m.Path, m.Sample, m.Sample.String())
				return
			}
		}
		for _, f := range m.Flows {
			if !slices.ContainsFunc(sc.Flows, func(fs workload.FlowSpec) bool { return fs.Name == f }) {
				var names []string
				for _, fs := range sc.Flows {
					names = append(names, fs.Name)
				}
				ps.add(line, "calibrate.measured", "%s: flow %s is not a flow of scenario %s (%s)", m.Path, f, s.Scenario, strings.Join(names, ", "))
				return
			}
		}
		last := 0
		for _, f := range m.Flows {
			for k := range m.Gbps[f] {
				last = max(last, k)
			}
		}
		for _, v := range s.values("phase") {
			if p, err := engine.ParseTime(v); err == nil && engine.Time(sc.Phases)*p < engine.Time(last+1)*m.Sample {
				key, l := s.locate("phase")
				ps.add(l, key, "%s: runs of %d phases end at %s, before the measurements in %s do (%s)", v, sc.Phases,
					engine.Time(sc.Phases)*p, m.Path, engine.Time(last+1)*m.Sample)
				return
			}
		}
	}
}

// BaseGrid returns the text of a grid file that fixes values in [base]:
// the starting point a calibration hands to further sweeps. comment goes
// at the top, each line prefixed with "# ".
func BaseGrid(name, scenario string, values []Param, comment string) []byte {
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimRight(comment, "\n"), "\n") {
		b.WriteString(strings.TrimRight("# "+line, " ") + "\n")
	}
	fmt.Fprintf(&b, "name     = %s\nscenario = %s\n\n[base]\n", strconv.Quote(name), strconv.Quote(scenario))
	for _, p := range values {
		v := p.Value
		if x := params.LookupParam(p.Name); x == nil || (x.Kind != params.KindInt && x.Kind != params.KindFloat) {
			v = strconv.Quote(v)
		}
		fmt.Fprintf(&b, "%-22s = %s\n", p.Name, v)
	}
	b.WriteString("\n# [sweep]                      # sweep from here, e.g.\n# marking_rate = [0, 1, 2, 4, 8, 16]\n")
	return []byte(b.String())
}
