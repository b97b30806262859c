package atomicfile_test

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/ccsweep/ccsweep/store/atomicfile"
)

func write(path, s string) error { return atomicfile.WriteFile(path, []byte(s), 0o644) }

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestWriteReplacesRegularFiles(t *testing.T) {
	dir := t.TempDir()
	t.Run("new file gets perm", func(t *testing.T) {
		p := filepath.Join(dir, "new.txt")
		if err := atomicfile.WriteFile(p, []byte("a"), 0o640); err != nil {
			t.Fatal(err)
		}
		if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o640 || read(t, p) != "a" {
			t.Errorf("mode %v content %q, want 0640 and a", fi.Mode().Perm(), read(t, p))
		}
	})
	t.Run("existing file keeps its mode", func(t *testing.T) {
		p := filepath.Join(dir, "private.txt")
		if err := os.WriteFile(p, []byte("old"), 0o600); err != nil {
			t.Fatal(err)
		}
		os.Chmod(p, 0o600)
		if err := write(p, "new"); err != nil {
			t.Fatal(err)
		}
		if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 || read(t, p) != "new" {
			t.Errorf("mode %v content %q, want 0600 and new", fi.Mode().Perm(), read(t, p))
		}
	})
	t.Run("failed fill leaves the old content and no temporary", func(t *testing.T) {
		p := filepath.Join(dir, "keep.txt")
		if err := write(p, "old"); err != nil {
			t.Fatal(err)
		}
		boom := errors.New("boom")
		err := atomicfile.Write(p, 0o644, func(w io.Writer) error {
			io.WriteString(w, "half")
			return boom
		})
		if !errors.Is(err, boom) || read(t, p) != "old" {
			t.Errorf("err %v content %q, want boom and old", err, read(t, p))
		}
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if filepath.Ext(e.Name()) != ".txt" {
				t.Errorf("left behind %s", e.Name())
			}
		}
	})
	t.Run("symlink is followed and stays a link", func(t *testing.T) {
		target := filepath.Join(dir, "target.txt")
		link := filepath.Join(dir, "link.txt")
		if err := write(target, "old"); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("target.txt", link); err != nil {
			t.Fatal(err)
		}
		if err := write(link, "new"); err != nil {
			t.Fatal(err)
		}
		fi, _ := os.Lstat(link)
		if fi.Mode()&fs.ModeSymlink == 0 || read(t, target) != "new" {
			t.Errorf("link mode %v, target %q: want a link and new content in the target", fi.Mode(), read(t, target))
		}
	})
	t.Run("dangling symlink creates its target", func(t *testing.T) {
		link := filepath.Join(dir, "dangling.txt")
		if err := os.Symlink("made.txt", link); err != nil {
			t.Fatal(err)
		}
		if err := write(link, "x"); err != nil {
			t.Fatal(err)
		}
		if read(t, filepath.Join(dir, "made.txt")) != "x" {
			t.Error("target not written")
		}
	})
}

func TestWriteDirectoryIsRefused(t *testing.T) {
	dir := t.TempDir()
	err := write(dir, "x")
	if !errors.Is(err, atomicfile.ErrNotFile) {
		t.Fatalf("err %v, want ErrNotFile", err)
	}
	if fi, _ := os.Stat(dir); !fi.IsDir() {
		t.Error("directory replaced")
	}
}

func TestWriteDevicesAndFIFOsInPlace(t *testing.T) {
	t.Run("/dev/null stays a device", func(t *testing.T) {
		if err := write(os.DevNull, "x"); err != nil {
			t.Fatal(err)
		}
		if fi, _ := os.Stat(os.DevNull); fi.Mode()&fs.ModeCharDevice == 0 {
			t.Fatalf("%s is now %v", os.DevNull, fi.Mode())
		}
	})
	t.Run("fifo stays a fifo", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "pipe")
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Fatal("mkfifo:", err)
		}
		got := make(chan string)
		go func() {
			f, err := os.Open(p)
			if err != nil {
				got <- err.Error()
				return
			}
			b, _ := io.ReadAll(f)
			f.Close()
			got <- string(b)
		}()
		if err := write(p, "through the pipe"); err != nil {
			t.Fatal(err)
		}
		if s := <-got; s != "through the pipe" {
			t.Errorf("reader got %q", s)
		}
		if fi, _ := os.Lstat(p); fi.Mode()&fs.ModeNamedPipe == 0 {
			t.Errorf("fifo is now %v", fi.Mode())
		}
	})
}

// TestWriteReadOnlyFileIsRefused: a 0444 file, directly or through a link,
// is left as it was, as a shell's redirect would leave it, with nothing
// beside it.
func TestWriteReadOnlyFileIsRefused(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "ro.txt")
	if err := os.WriteFile(p, []byte("keep"), 0o444); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.txt")
	if err := os.Symlink("ro.txt", link); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{p, link} {
		err := write(path, "new")
		if !errors.Is(err, atomicfile.ErrReadOnly) || !errors.Is(err, fs.ErrPermission) {
			t.Errorf("%s: err %v, want ErrReadOnly", path, err)
		}
	}
	if got := read(t, p); got != "keep" {
		t.Errorf("content %q", got)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o444 {
		t.Errorf("mode %v", fi.Mode().Perm())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("left behind: %v", entries)
	}
}
