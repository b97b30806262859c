package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestStopSignalsEndEveryLongCommand starts long commands as real processes,
// sends each stop signal, and wants a prompt exit with status 128+signal and
// one line on stderr naming it, with no output file left behind.
func TestStopSignalsEndEveryLongCommand(t *testing.T) {
	grid := writeGrid(t, `name = "long"
scenario = "testbed-s1"
cc = "on"
phase = "30s"
[sweep]
marking_rate = [0, 1]
`)
	commands := map[string]func(dir string) []string{
		"sim": func(dir string) []string {
			return []string{"sim", "--scenario", "testbed-s1", "--cc", "on", "--phase", "30s", "--out", filepath.Join(dir, "out.csv")}
		},
		"run": func(dir string) []string {
			return []string{"run", grid, "-j", "1", "--no-report", "--db", filepath.Join(dir, "r.db")}
		},
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		for name, args := range commands {
			t.Run(name+"/"+signalName(sig), func(t *testing.T) {
				dir := t.TempDir()
				cmd := ccsweepProcess(t, args(dir)...)
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				time.Sleep(700 * time.Millisecond) // well into the simulation
				sent := time.Now()
				if err := cmd.Process.Signal(sig); err != nil {
					t.Fatal(err)
				}
				done := make(chan error, 1)
				go func() { done <- cmd.Wait() }()
				select {
				case <-done:
				case <-time.After(10 * time.Second):
					cmd.Process.Kill()
					t.Fatalf("still running 10 s after %s; stderr: %s", signalName(sig), stderr.String())
				}
				t.Logf("exited %v after the signal", time.Since(sent).Round(time.Millisecond))
				if got, want := cmd.ProcessState.ExitCode(), 128+int(sig); got != want {
					t.Errorf("exit status %d, want %d; stderr: %s", got, want, stderr.String())
				}
				lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
				if last := lines[len(lines)-1]; last != "ccsweep: stopped by "+signalName(sig)+"; finished work is kept" {
					t.Errorf("last stderr line %q", last)
				}
				if strings.Contains(stderr.String(), "context canceled") {
					t.Errorf("stderr speaks of context cancellation: %q", stderr.String())
				}
				if _, err := os.Stat(filepath.Join(dir, "out.csv")); err == nil {
					t.Error("sim wrote its output although it was stopped")
				}
			})
		}
	}
}

// TestGridFileMustBeARegularFileOfBoundedSize covers inputs that once hung
// (a FIFO) or read without limit (/dev/urandom).
func TestGridFileMustBeARegularFileOfBoundedSize(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.toml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	huge := filepath.Join(dir, "huge.toml")
	if err := os.WriteFile(huge, bytes.Repeat([]byte("# padding\n"), 500_000), 0o644); err != nil {
		t.Fatal(err)
	}
	bom := filepath.Join(dir, "bom.toml")
	if err := os.WriteFile(bom, []byte("\xef\xbb\xbfname = \"bom\"\nscenario = \"testbed-s1\"\nphase = \"1ms\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, path string
		code       int
		stderr     string
	}{
		{"fifo", fifo, 2, "ccsweep: read grid: " + fifo + ": not a regular file: it is a named pipe"},
		{"device", "/dev/urandom", 2, "ccsweep: read grid: /dev/urandom: not a regular file: it is a device"},
		{"directory", dir + "/", 2, "ccsweep: read grid: " + dir + "/: not a regular file: it is a directory"},
		{"too large", huge, 2, "ccsweep: read grid: " + huge + ": file too large: 5000000 bytes, the limit is 4194304"},
		{"byte order mark", bom, 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			db := filepath.Join(dir, c.name+".db")
			done := make(chan struct{})
			var stdout, stderr string
			var code int
			go func() {
				stdout, stderr, code = ccsweep(t, "run", c.path, "--dry-run", "--db", db)
				close(done)
			}()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("still reading after 10 s")
			}
			if code != c.code || strings.TrimSpace(stderr) != c.stderr {
				t.Errorf("exit %d, stderr %q; want %d, %q (stdout %q)", code, stderr, c.code, c.stderr, stdout)
			}
			if _, err := os.Stat(db); err == nil {
				t.Error("a dry run created the database")
			}
		})
	}
}
