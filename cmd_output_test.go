package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestOutputsNeverClobber runs `sim --out` at every kind of target and checks
// the exit status, stderr and what the target is afterwards: a regular file is
// replaced and keeps its mode, a symbolic link still links, a device or FIFO
// is written in place, a directory is refused.
func TestOutputsNeverClobber(t *testing.T) {
	dir := t.TempDir()
	private := filepath.Join(dir, "private.csv")
	if err := os.WriteFile(private, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	os.Chmod(private, 0o600)
	target := filepath.Join(dir, "target.csv")
	link := filepath.Join(dir, "link.csv")
	if err := os.Symlink("target.csv", link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, out string
		code      int
		stderr    string
		check     func(t *testing.T)
	}{
		{"0600 file keeps its mode", private, 0, "", func(t *testing.T) {
			fi, _ := os.Stat(private)
			b, _ := os.ReadFile(private)
			if fi.Mode().Perm() != 0o600 || !strings.HasPrefix(string(b), "time_s,flow") {
				t.Errorf("mode %v, content %.20q", fi.Mode().Perm(), b)
			}
		}},
		{"symbolic link stays a link", link, 0, "", func(t *testing.T) {
			fi, _ := os.Lstat(link)
			b, _ := os.ReadFile(target)
			if fi.Mode()&fs.ModeSymlink == 0 || !strings.HasPrefix(string(b), "time_s,flow") {
				t.Errorf("link mode %v, target content %.20q", fi.Mode(), b)
			}
		}},
		{"/dev/null stays a device", os.DevNull, 0, "", func(t *testing.T) {
			if fi, _ := os.Stat(os.DevNull); fi.Mode()&fs.ModeCharDevice == 0 {
				t.Errorf("%s is now %v", os.DevNull, fi.Mode())
			}
		}},
		{"directory refused", dir, 2, "ccsweep: cannot write " + dir + ": not a file: it is a directory", func(t *testing.T) {
			if fi, _ := os.Stat(dir); !fi.IsDir() {
				t.Error("the directory was replaced")
			}
		}},
		{"missing directory", filepath.Join(dir, "no", "x.csv"), 2, "ccsweep: cannot write " + filepath.Join(dir, "no", "x.csv") + ": no such file or directory", nil},
		{"fifo written in place", fifo, 0, "", func(t *testing.T) {
			if fi, _ := os.Lstat(fifo); fi.Mode()&fs.ModeNamedPipe == 0 {
				t.Errorf("fifo is now %v", fi.Mode())
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := make(chan string, 1)
			if c.out == fifo { // a reader on the other end
				go func() {
					b, _ := os.ReadFile(fifo)
					got <- string(b)
				}()
			}
			_, stderr, code := ccsweep(t, "sim", "--scenario", "testbed-s2", "--phase", "1ms", "--out", c.out)
			if code != c.code || !strings.HasPrefix(strings.TrimSpace(stderr), c.stderr) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
				t.Fatalf("exit %d, stderr %q; want %d and one line starting %q", code, stderr, c.code, c.stderr)
			}
			if c.out == fifo {
				if s := <-got; !strings.HasPrefix(s, "time_s,flow") {
					t.Errorf("the reader got %.20q", s)
				}
			}
			if c.check != nil {
				c.check(t)
			}
		})
	}
}
