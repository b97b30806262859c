package main

import (
	"strings"
	"testing"
)

func TestCompletion(t *testing.T) {
	out, _, code := ccsweep(t, "completion", "bash")
	if code != 0 || !strings.Contains(out, "complete -o bashdefault -o default -F _ccsweep_complete ccsweep") {
		t.Fatalf("bash script: exit %d\n%s", code, out)
	}
	// urfave/cli reads os.Args for completion: ask a real process.
	out2, err := ccsweepProcess(t, "--generate-bash-completion").Output()
	if err != nil {
		t.Fatal(err)
	}
	words := string(out2)
	for _, cmd := range []string{"run", "sim", "export", "scenarios"} {
		if !strings.Contains(words, cmd+"\n") {
			t.Errorf("completion words lack %q: %q", cmd, words)
		}
	}
	if _, _, code := ccsweep(t, "completion", "fish"); code != 2 {
		t.Errorf("completion fish: exit %d, want 2", code)
	}
}
