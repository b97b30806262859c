package model

import (
	"bufio"
	"encoding/json"
	"io"
	"math"
	"strconv"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/params"
)

// WriteCSV writes r's series in long form, `time_s,flow,throughput_gbps`:
// one row per sample per flow, the time at the end of each sample interval,
// numbers in the shortest form that reads back exactly. It is what
// `ccsweep sim --format csv` prints.
func (r *Result) WriteCSV(w io.Writer) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("time_s,flow,throughput_gbps\n")
	if len(r.Flows) > 0 {
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
				bw.Write(buf)
			}
		}
	}
	return bw.Flush()
}

// ResultJSON is the document `ccsweep sim --format json` prints (WriteJSON):
// the run's parameters (those of its scheme, canonical spelling), metrics
// (null where undefined), window and per-flow series.
type ResultJSON struct {
	Scenario     string              `json:"scenario"`
	ModelVersion string              `json:"model_version"`
	Seed         uint64              `json:"seed"`
	Params       map[string]string   `json:"params"`
	SampleS      float64             `json:"sample_s"`
	EndS         float64             `json:"end_s"`
	WindowS      [2]float64          `json:"window_s"`
	Metrics      map[string]*float64 `json:"metrics"`
	Events       uint64              `json:"events"`
	Flows        []FlowJSON          `json:"flows"`
	// Apps are the closed-loop applications' per-iteration times; their
	// metrics are in Metrics, under the names AppResult gives.
	Apps []AppJSON `json:"apps,omitempty"`
}

// AppJSON is one application of a ResultJSON.
type AppJSON struct {
	Name        string    `json:"name"`
	Program     string    `json:"program"`
	IterationUs []float64 `json:"iteration_us,omitempty"`
}

// FlowJSON is one flow of a ResultJSON: its series in Gbit/s, one value
// per sample interval.
type FlowJSON struct {
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

// JSON returns r as the document WriteJSON prints.
func (r *Result) JSON() ResultJSON {
	from, to := r.Window()
	doc := ResultJSON{
		Scenario: r.Scenario, ModelVersion: r.ModelVersion, Seed: r.Seed,
		Params: map[string]string{}, SampleS: r.Sample.Seconds(), EndS: r.End.Seconds(),
		WindowS: [2]float64{from.Seconds(), to.Seconds()}, Metrics: map[string]*float64{}, Events: r.Events,
	}
	for _, p := range params.Params() {
		if p.AppliesTo(r.Config.CC.Scheme) { // not another scheme's
			doc.Params[p.Name] = r.Config.Canonical(p.Name)
		}
	}
	for i, v := range r.Metrics().Values() {
		if !math.IsNaN(v) {
			v := v
			doc.Metrics[MetricNames[i]] = &v
		} else {
			doc.Metrics[MetricNames[i]] = nil
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
		doc.Apps = append(doc.Apps, AppJSON{Name: a.Name, Program: a.Program, IterationUs: a.IterationUs})
	}
	for _, f := range r.Flows {
		doc.Flows = append(doc.Flows, FlowJSON{Name: f.Name, Role: string(f.Role), Src: f.Src, Dst: f.Dst,
			StartS: f.Start.Seconds(), Gbps: f.Gbps, CCTI: f.CCTI, AdmittedGbps: f.AdmittedGbps, Refused: f.Refused})
	}
	return doc
}

// WriteJSON writes r.JSON() indented by two spaces, with a final newline.
func (r *Result) WriteJSON(w io.Writer) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r.JSON()); err != nil {
		return err
	}
	return bw.Flush()
}

// RefusedFlows names, in flow order, the flows nicrate's admission control
// refused (they never started); nil if none.
func (r *Result) RefusedFlows() []string {
	var names []string
	for _, f := range r.Flows {
		if f.Refused {
			names = append(names, f.Name)
		}
	}
	return names
}
