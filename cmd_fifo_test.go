package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestDatabaseThatIsAFIFOIsRefused gives every command that reads a
// database a FIFO in its place: each answers at once, exit 2 and one line,
// instead of blocking in open until a writer comes.
func TestDatabaseThatIsAFIFOIsRefused(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "r.db")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"export", fifo},
		{"export", fifo, "--format", "json"},
		{"status", fifo},
		{"best", fifo, "--maximize", "victim_gbps"},
		{"report", fifo, "-o", "-"},
		{"serve", fifo, "--addr", "127.0.0.1:0"},
	} {
		t.Run(strings.Join(args[:1], " "), func(t *testing.T) {
			done := make(chan struct{})
			var stderr string
			var code int
			go func() {
				_, stderr, code = ccsweep(t, args...)
				close(done)
			}()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				t.Fatalf("%v still blocked after 5 s", args) // the goroutine stays blocked in open
			}
			want := "ccsweep: open " + fifo + ": not a ccsweep database: it is not a regular file"
			if code != exitUsage || strings.TrimSpace(stderr) != want {
				t.Errorf("exit %d, stderr %q; want 2, %q", code, stderr, want)
			}
		})
	}
}

// TestBlockedOutputStopsOnFirstSignal writes a report to a FIFO nobody
// reads: the first SIGTERM, as a scheduler sends before SIGKILL, ends the
// process within a second with status 143 and says so, leaving no file.
func TestBlockedOutputStopsOnFirstSignal(t *testing.T) {
	db := handMadeDB(t)
	dir := t.TempDir()
	fifo := filepath.Join(dir, "out.html")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(db + "-shm"); err == nil {
		t.Fatalf("%s-shm exists before report opens the database", db)
	}
	cmd := ccsweepProcess(t, "report", db, "-o", fifo)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Once report has opened the database (SQLite made its -shm beside
	// it), its stop signals are caught, and all it does next is wait for
	// the FIFO's reader. A fixed wait would not do: on a loaded machine a
	// signal could come before the process catches it, and kill it.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if _, err := os.Stat(db + "-shm"); err == nil {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("report did not open the database within 30 s; stderr: %s", stderr.String())
		}
	}
	time.Sleep(50 * time.Millisecond) // the rest of the open, then the wait for a reader
	sent := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatalf("still blocked 5 s after SIGTERM; stderr: %s", stderr.String())
	}
	if d := time.Since(sent); d > time.Second {
		t.Errorf("took %v to stop", d)
	}
	if got := cmd.ProcessState.ExitCode(); got != 128+int(syscall.SIGTERM) {
		t.Errorf("exit %d, want 143; stderr: %s", got, stderr.String())
	}
	if s := strings.TrimSpace(stderr.String()); s != "ccsweep: stopped by SIGTERM; finished work is kept" {
		t.Errorf("stderr %q", s)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("left behind: %v", entries)
	}
}

// TestServeStopsLikeEveryCommand stops serve with each stop signal: it
// exits 128+n and says which signal stopped it, as every other command
// does, instead of exiting 0 in silence.
func TestServeStopsLikeEveryCommand(t *testing.T) {
	db := handMadeDB(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(signalName(sig), func(t *testing.T) {
			cmd := ccsweepProcess(t, "serve", db, "--addr", "127.0.0.1:0")
			stderr, err := cmd.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			var lines []string
			sc := bufio.NewScanner(stderr)
			if sc.Scan() { // "serving ... at http://..."
				lines = append(lines, sc.Text())
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			for sc.Scan() {
				lines = append(lines, sc.Text())
			}
			cmd.Wait()
			if len(lines) == 0 || !strings.HasPrefix(lines[0], "serving ") {
				t.Fatalf("stderr %q", lines)
			}
			if got := cmd.ProcessState.ExitCode(); got != 128+int(sig) {
				t.Errorf("exit %d, want %d", got, 128+int(sig))
			}
			if last := lines[len(lines)-1]; last != "ccsweep: stopped by "+signalName(sig)+"; finished work is kept" {
				t.Errorf("stderr %q", lines)
			}
		})
	}
}

// TestStopIsPromptOnAMillionPoints interrupts a run of a 10^6-point grid
// once points are being stored: it ends within a second (it used to read
// every point back to count what is undone, seconds at this size) and
// counts as undone every point it did not run.
func TestStopIsPromptOnAMillionPoints(t *testing.T) {
	if testing.Short() {
		t.Skip("plans a 10^6-point grid")
	}
	dir := t.TempDir()
	grid := filepath.Join(dir, "m.toml")
	os.WriteFile(grid, []byte("name = \"m\"\nscenario = \"testbed-s2\"\nphase = \"1ms\"\nsample = \"1ms\"\n[sweep]\n"+
		"marking_rate = {from = 0, to = 999, step = 1}\nhost_io_gbps = {from = 1, to = 1000, count = 1000}\n"), 0o644)
	db := filepath.Join(dir, "m.db")
	cmd := ccsweepProcess(t, "run", grid, "--db", db, "-j", "2", "--quiet", "--no-report")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	for deadline := time.Now().Add(60 * time.Second); doneCount(t, db) == 0; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no point stored after 60 s")
		}
	}
	sent := time.Now()
	cmd.Process.Signal(syscall.SIGINT)
	cmd.Wait()
	took := time.Since(sent)
	t.Logf("stopped %v after SIGINT", took.Round(time.Millisecond))
	if took > time.Second {
		t.Errorf("took %v to stop", took)
	}
	var ran, undone int
	if _, err := fmt.Sscanf(stdout.String()[strings.Index(stdout.String(), "already done, ")+len("already done, "):], "%d ran", &ran); err != nil {
		t.Fatalf("stdout %q: %v", stdout.String(), err)
	}
	if i := strings.Index(stdout.String(), " undone;"); i > 0 {
		fields := strings.Fields(stdout.String()[:i])
		undone = atoi(fields[len(fields)-1])
	}
	if ran+undone != 1_000_000 || cmd.ProcessState.ExitCode() != 130 || doneCount(t, db) != ran {
		t.Errorf("exit %d, %d ran + %d undone, %d stored; want 130 and 10^6 in all\n%s%s", cmd.ProcessState.ExitCode(), ran, undone, doneCount(t, db), stdout.String(), stderr.String())
	}
}
