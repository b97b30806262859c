//go:build unix

package atomicfile

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// TestWriteRemovesWhatKilledWritersLeft leaves the temporary files of a
// writer killed mid-write (a process that no longer exists) beside the
// output, with those of a live writer and of another host's: the next
// Write removes only the first.
func TestWriteRemovesWhatKilledWritersLeft(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "r.html")
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		skipOrFail(t, "no true command:", err)
	}
	live := exec.Command("sleep", "30")
	if err := live.Start(); err != nil {
		skipOrFail(t, "no sleep command:", err)
	}
	defer func() { live.Process.Kill(); live.Wait() }()
	stale := tempPrefix(out, hostname(), dead.Process.Pid) + "123"
	kept := []string{
		tempPrefix(out, hostname(), live.Process.Pid) + "456",
		tempPrefix(out, "otherhost", dead.Process.Pid) + "789",
		tempPrefix(filepath.Join(dir, "other.html"), hostname(), dead.Process.Pid) + "1",
	}
	for _, name := range append([]string{stale}, kept...) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("part"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := WriteFile(out, []byte("whole"), 0o644); err != nil {
		t.Fatal(err)
	}
	var got []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		got = append(got, e.Name())
	}
	want := append(slices.Clone(kept), "r.html")
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("directory holds %q, want %q", got, want)
	}
}

// skipOrFail skips where a command a test needs is missing, on a laptop;
// CI has it, so there it fails.
func skipOrFail(t *testing.T, args ...any) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatal(args...)
	}
	t.Skip(args...)
}
