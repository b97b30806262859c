package store_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/ccsweep/ccsweep/store"
)

// mountOrSkip runs mount with args; without the privilege to mount it skips
// the test, unless CI=true, where the test must run.
func mountOrSkip(t *testing.T, args ...string) {
	t.Helper()
	if out, err := exec.Command("mount", args...).CombinedOutput(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("mount %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		t.Skipf("cannot mount here: %v %s", err, out)
	}
}

// readOnlyView returns a read-only bind mount of dir.
func readOnlyView(t *testing.T, dir string) string {
	t.Helper()
	mnt := t.TempDir()
	mountOrSkip(t, "--bind", dir, mnt)
	t.Cleanup(func() { exec.Command("umount", mnt).Run() })
	mountOrSkip(t, "-o", "remount,bind,ro", mnt)
	if err := os.WriteFile(filepath.Join(mnt, "probe"), nil, 0o644); err == nil {
		t.Fatal("the read-only mount is writable")
	}
	return mnt
}

// smallDisk returns the directory of a new tmpfs of the given size.
func smallDisk(t *testing.T, size string) string {
	t.Helper()
	mnt := t.TempDir()
	mountOrSkip(t, "-t", "tmpfs", "-o", "size="+size, "tmpfs", mnt)
	t.Cleanup(func() { exec.Command("umount", mnt).Run() })
	return mnt
}

// fillDisk fills the file system of dir with one file until it is full.
func fillDisk(t *testing.T, dir string) {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 4096)
	for {
		if _, err := f.Write(buf); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			return
		}
	}
}

// finishedDB returns the directory of a closed database, results.db, with
// one done point and neither -wal nor -shm beside it.
func finishedDB(t *testing.T) string {
	t.Helper()
	d, path := newDB(t)
	if err := d.SaveResults(t.Context(), []store.Result{doneResult("p1", testGrid.ID)}); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if names := dirNames(t, filepath.Dir(path)); !slices.Equal(names, []string{"results.db"}) {
		t.Fatalf("after closing, the directory holds %v", names)
	}
	return filepath.Dir(path)
}

// readBack opens the database read-only and returns how many results it
// holds.
func readBack(path string) (int, error) {
	d, err := store.OpenReadOnly(path)
	if err != nil {
		return 0, err
	}
	defer d.Close()
	rs, err := d.Results(context.Background(), store.Filter{})
	return len(rs), err
}

func TestOpenReadOnlyOfAFinishedDatabase(t *testing.T) {
	for _, tc := range []struct {
		name string
		view func(t *testing.T, dir string) string // where the reader finds the directory
	}{
		{"writable directory", func(t *testing.T, dir string) string { return dir }},
		{"read-only mount", readOnlyView},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := finishedDB(t)
			before := readFile(t, filepath.Join(dir, "results.db"))
			n, err := readBack(filepath.Join(tc.view(t, dir), "results.db"))
			if err != nil || n != 1 {
				t.Fatalf("read %d results, %v; want 1, nil", n, err)
			}
			if names := dirNames(t, dir); !slices.Equal(names, []string{"results.db"}) {
				t.Errorf("reading left %v, want only results.db", names)
			}
			if !bytes.Equal(readFile(t, filepath.Join(dir, "results.db")), before) {
				t.Error("reading changed the database file")
			}
		})
	}
}

// TestOpenReadOnlyAsAnotherUser reads a database in a directory of mode
// 0555 as user nobody, in a child process: root would pass the permission
// checks.
func TestOpenReadOnlyAsAnotherUser(t *testing.T) {
	dir := finishedDB(t)
	// The child must reach the directory and run a copy of this binary.
	for d := dir; d != os.TempDir() && d != "/"; d = filepath.Dir(d) {
		os.Chmod(d, 0o755)
	}
	bin := filepath.Join(filepath.Dir(dir), "store.test")
	copyFile(t, os.Args[0], bin, 0o755)
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), helperEnv+"=read", "STORE_TEST_DB="+filepath.Join(dir, "results.db"))
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		if len(out) == 0 {
			if os.Getenv("CI") == "true" {
				t.Fatalf("cannot run a process as nobody: %v", err)
			}
			t.Skipf("cannot run a process as nobody: %v", err)
		}
		t.Fatalf("reader: %v\n%s", err, out)
	}
	if got := strings.TrimSpace(string(out)); got != "cannot create files; read 1 results" {
		t.Errorf("reader said %q", got)
	}
	if names := dirNames(t, dir); !slices.Equal(names, []string{"results.db"}) {
		t.Errorf("reading left %v, want only results.db", names)
	}
}

// helperRead checks that it cannot create files beside STORE_TEST_DB (or
// the test would prove nothing) and reads the database.
func helperRead() {
	path := os.Getenv("STORE_TEST_DB")
	probe := filepath.Join(filepath.Dir(path), "probe")
	if err := os.WriteFile(probe, nil, 0o644); err == nil {
		os.Remove(probe)
		fatal(errors.New("this process can write the directory: the test is vacuous"))
	}
	n, err := readBack(path)
	if err != nil {
		fatal(err)
	}
	os.Stdout.WriteString("cannot create files; read " + strconv.Itoa(n) + " results\n")
	os.Exit(0)
}

func copyFile(t *testing.T, from, to string, mode os.FileMode) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, mode)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestOpenUnwritable(t *testing.T) {
	for _, tc := range []struct {
		name string
		path func(t *testing.T) string
		want string
	}{
		{"directory", func(t *testing.T) string { return t.TempDir() }, "it is a directory"},
		{"missing directory", func(t *testing.T) string {
			return filepath.Join(t.TempDir(), "none", "x.db")
		}, "does not exist"},
		{"read-only directory", func(t *testing.T) string {
			return filepath.Join(readOnlyView(t, t.TempDir()), "x.db")
		}, "is read-only"},
		{"database on a read-only mount", func(t *testing.T) string {
			return filepath.Join(readOnlyView(t, finishedDB(t)), "results.db")
		}, "is read-only"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := tc.path(t)
			d, err := store.Open(path)
			if err == nil {
				d.Close()
				t.Fatal("Open succeeded")
			}
			if !errors.Is(err, store.ErrUnwritable) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q: want ErrUnwritable saying %q", err, tc.want)
			}
			if strings.Count(err.Error(), path) != 1 || strings.Contains(err.Error(), "(14)") {
				t.Errorf("error %q should name %s once and carry no SQLite code", err, path)
			}
		})
	}
}

func TestOpenOnAFullDiskLeavesNoStub(t *testing.T) {
	dir := smallDisk(t, "256k")
	fillDisk(t, dir)
	path := filepath.Join(dir, "results.db")
	d, err := store.Open(path)
	if err == nil {
		d.Close()
		t.Fatal("Open succeeded on a full disk")
	}
	if !errors.Is(err, store.ErrNoSpace) || !strings.Contains(err.Error(), "no space left on device: "+path) {
		t.Errorf("error %q, want ErrNoSpace naming %s", err, path)
	}
	if names := dirNames(t, dir); !slices.Equal(names, []string{"filler"}) {
		t.Errorf("the directory holds %v, want only the filler", names)
	}
}

func TestSaveOnAFullDisk(t *testing.T) {
	dir := smallDisk(t, "1m")
	path := filepath.Join(dir, "results.db")
	d, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ctx := t.Context()
	if err := d.SaveGrid(ctx, testGrid); err != nil {
		t.Fatal(err)
	}
	fillDisk(t, dir)
	var saveErr error
	for i := 0; i < 1000 && saveErr == nil; i++ {
		r := doneResult(strconv.Itoa(i), testGrid.ID)
		r.Series = []store.Series{{Flow: "F1", SampleSeconds: 1e-3, Gbps: noise(4096, uint64(i))}}
		saveErr = d.SaveResults(ctx, []store.Result{r})
	}
	if !errors.Is(saveErr, store.ErrNoSpace) || !strings.Contains(saveErr.Error(), "no space left on device: "+path) {
		t.Errorf("error %v, want ErrNoSpace naming %s", saveErr, path)
	}
}

// noise returns n random throughputs, which compress badly.
func noise(n int, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, 3))
	v := make([]float64, n)
	for i := range v {
		v[i] = r.Float64() * 16
	}
	return v
}
