package grids_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/model/workload"
)

// TestScenarioFileAppProblems: each malformed [[app]] is named by file,
// line and key, a malformed trace by the trace file's own line.
func TestScenarioFileAppProblems(t *testing.T) {
	const topo = "[topology]\nkind = \"fattree\"\nk = 2\n" // H1..H4, lines 1-3
	const goal = "num_ranks 2\nrank 0 {\nl1: send 8b to 1\n}\nrank 1 {\nl1: recv 8b frm 0\n}\n"
	tests := []struct {
		name, text, want string
	}{
		{"unknown key", topo + "[[app]]\nprogram = \"ring\"\ncolour = 1\n", "s.toml:6: app[0].colour: unknown key"},
		{"bad program", topo + "[[app]]\nprogram = \"fft\"\n", `s.toml:5: app[0].program: "fft": want one of pingpong, ring`},
		{"no program", topo + "[[app]]\nname = \"x\"\n", "s.toml:4: app[0]: missing program"},
		{"unknown host", topo + "[[app]]\nprogram = \"pingpong\"\nhosts = [\"H1\", \"H9\"]\n", `s.toml:6: app[0].hosts: "H9" is not a host of the topology`},
		{"too many ranks", topo + "[[app]]\nprogram = \"barrier\"\nranks = 5\n", "s.toml:6: app[0].ranks: 5 ranks do not fit on 4 hosts"},
		{"rd needs a power of two", topo + "[[app]]\nprogram = \"allreduce\"\nalgorithm = \"rd\"\nranks = 3\n", "s.toml:7: app[0].ranks: allreduce rd (recursive doubling) needs a power of two ranks, not 3"},
		{"after nobody", topo + "[[app]]\nprogram = \"ring\"\nafter = \"ghost\"\n", `s.toml:6: app[0].after: "ghost" is not another app`},
		{"same name", topo + "[[app]]\nprogram = \"ring\"\n[[app]]\nprogram = \"ring\"\nname = \"app1\"\n", `s.toml:6: app[1].name: "app1": want a unique name`},
		{"same metric", topo + "[[app]]\nname = \"a\"\nprogram = \"ring\"\nlabel = \"x\"\n[[app]]\nname = \"b\"\nprogram = \"ring\"\nlabel = \"x\"\n", "s.toml:11: app[1].label: metric x_latency_us is reported by app a too"},
		{"metric name clash", topo + "[[app]]\nprogram = \"pingpong\"\nlabel = \"victim\"\n", "s.toml:6: app[0].label: metric victim_latency_mean_us is a metric of every run"},
		{"uppercase name", topo + "[[app]]\nprogram = \"ring\"\nname = \"Ring\"\n", `s.toml:6: app[0].name: "Ring": an app's metrics are named after it`},
		{"negative overhead", topo + "[[app]]\nprogram = \"ring\"\nsend_overhead = \"-1us\"\n", "s.toml:6: app[0].send_overhead:"},
		{"trace without file", topo + "[[app]]\nprogram = \"trace\"\n", "s.toml:4: app[0]: program trace needs trace"},
		{"malformed trace", topo + "[[app]]\nprogram = \"trace\"\ntrace = \"t.goal\"\n", "t.goal:6: want recv SIZEb from RANK"},
		// A schedule wrong as a whole (no line of its own) at the scenario's trace key.
		{"not a schedule", topo + "[[app]]\nprogram = \"trace\"\ntrace = \"empty.goal\"\n", "s.toml:6: app[0].trace: empty.goal: no num_ranks: not a GOAL schedule"},
		{"start past the end", topo + "[[app]]\nprogram = \"ring\"\nstart_phase = 1\n", "s.toml:6: app[0].start_phase: 1: the scenario has 1 phases (0 to 0); an app starting at the end never runs"},
		{"start at the end of 3 phases", "phases = 3\n" + topo + "[[app]]\nprogram = \"ring\"\nstart_phase = 3\n", "s.toml:7: app[0].start_phase: 3: the scenario has 3 phases (0 to 2); an app starting at the end never runs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "s.toml")
			os.WriteFile(path, []byte(tt.text), 0o644)
			os.WriteFile(filepath.Join(dir, "t.goal"), []byte(goal), 0o644)
			os.WriteFile(filepath.Join(dir, "empty.goal"), []byte("# nothing\n"), 0o644)
			_, err := grids.LoadScenario(path)
			var ge *grids.Error
			if !errors.As(err, &ge) {
				t.Fatalf("error %v, want a *grids.Error", err)
			}
			if msg := strings.ReplaceAll(err.Error(), dir+string(filepath.Separator), ""); !strings.Contains(msg, tt.want) {
				t.Errorf("got  %s\nwant %s", msg, tt.want)
			}
		})
	}
}

// TestScenarioFileAppAxes: every numeric field of an app is a parameter
// NAME.field, and its value reaches the run.
func TestScenarioFileAppAxes(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.toml")
	os.WriteFile(path, []byte("[topology]\nkind = \"fattree\"\nk = 2\n[[app]]\nname = \"pp\"\nprogram = \"pingpong\"\nhosts = [\"H1\", \"H2\"]\n"), 0o644)
	sc, err := grids.LoadScenario(path)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range sc.ScenarioParams() {
		names = append(names, p.Name)
	}
	for _, want := range []string{"pp.size", "pp.iterations", "pp.ranks", "pp.ranks_per_host", "pp.compute", "pp.send_overhead",
		"pp.recv_overhead", "pp.shm_latency", "pp.shm_gbps", "pp.start_phase", "pp.root", "pp.patterns"} {
		if !slices.Contains(names, want) {
			t.Errorf("parameter %s missing from %v", want, names)
		}
	}
	// Latency grows by exactly the added send overhead.
	lat := func(overhead string) float64 {
		c := sc.Config()
		c.Phase = 1e9 // 1 ms
		if err := sc.Set(&c, "pp.send_overhead", overhead); err != nil {
			t.Fatal(err)
		}
		res, err := model.Run(sc, c, 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range res.Apps[0].Metrics {
			if m.Name == "pp_latency_mean_us" {
				return m.Value
			}
		}
		t.Fatal("no pp_latency_mean_us")
		return 0
	}
	if d := lat("1300ns") - lat("300ns"); d < 0.999 || d > 1.001 {
		t.Errorf("pp.send_overhead 300ns -> 1300ns moved the latency by %.4f µs, want 1", d)
	}
}

// loadScenarioText writes text as a scenario file and loads it.
func loadScenarioText(t *testing.T, text string) (*workload.Scenario, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "s.toml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return grids.LoadScenario(path)
}

// TestMutAppRanksBound: an [[app]]'s ranks reach 2^20−1 and no further;
// the reader refuses 2^20 naming the range.
// Kills scenfile_app.go's bound `1<<20-1` turned into `1<<20+1`.
func TestMutAppRanksBound(t *testing.T) {
	for _, c := range []struct{ ranks, want string }{
		{"1048576", "app[0].ranks: 1048576: want a whole number from 2 to 1048575"},
		{"1048577", "app[0].ranks: 1048577: want a whole number from 2 to 1048575"},
		{"1", "app[0].ranks: 1: want a whole number from 2 to 1048575"},
	} {
		_, err := loadScenarioText(t, "[topology]\nkind = \"fattree\"\nk = 2\n[[app]]\nprogram = \"ring\"\nranks = "+c.ranks+"\n")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ranks = %s: error %v, want %q", c.ranks, err, c.want)
		}
	}
	_, err := loadScenarioText(t, "[topology]\nkind = \"fattree\"\nk = 2\n[[app]]\nprogram = \"ring\"\nranks = 1048575\n")
	if err != nil && strings.Contains(err.Error(), "app[0].ranks: 1048575: want") {
		t.Errorf("ranks = 1048575 refused by the reader's bound: %v", err)
	}
}

// TestMutDurationZeroAsANumber: a duration may be written as the bare
// number 0 (compute = 0), and no other bare number: compute = 5 is an
// error (5 of what?).
// Kills scenfile_app.go's durZero `v == 0` turned into `!=`.
func TestMutDurationZeroAsANumber(t *testing.T) {
	sc, err := loadScenarioText(t, "[topology]\nkind = \"fattree\"\nk = 2\n[[app]]\nprogram = \"allreduce\"\ncompute = 0\n")
	if err != nil || len(sc.Apps) != 1 || sc.Apps[0].Compute != 0 {
		t.Fatalf("compute = 0: %v", err)
	}
	sc, err = loadScenarioText(t, "[topology]\nkind = \"fattree\"\nk = 2\n[[app]]\nprogram = \"allreduce\"\ncompute = \"5us\"\n")
	if err != nil || sc.Apps[0].Compute.Micros() != 5 {
		t.Fatalf("compute = \"5us\": %v", err)
	}
	if _, err := loadScenarioText(t, "[topology]\nkind = \"fattree\"\nk = 2\n[[app]]\nprogram = \"allreduce\"\ncompute = 5\n"); err == nil || !strings.Contains(err.Error(), "app[0].compute") {
		t.Errorf("compute = 5: error %v, want one naming app[0].compute", err)
	}
}
