package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// inPlace writes into the file that is there, from its start, without
// truncating or replacing it (what a device needs), and returns fill's
// error. Tried on a regular file, whose content shows what was written.
func TestInPlaceWritesIntoTheFileAndReturnsFillsError(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, []byte("xxxxxx"), 0o644); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(p)
	if err := inPlace(p, func(w io.Writer) error { _, err := io.WriteString(w, "abc"); return err }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "abcxxx" {
		t.Errorf("in place: the file holds %q, want abcxxx", b)
	}
	if after, _ := os.Stat(p); !os.SameFile(before, after) {
		t.Error("in place: the file was replaced")
	}
	boom := errors.New("boom")
	if err := inPlace(p, func(w io.Writer) error { return boom }); err != boom {
		t.Errorf("in place, fill failing: %v, want fill's error", err)
	}
}

// The temporary files' host part is this host's name with "/", "\" and
// "-" replaced by "_" (so that the pid after it is found again).
func TestHostnameIsThisHostsName(t *testing.T) {
	h, err := os.Hostname()
	if err != nil || h == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("no host name:", err)
		}
		t.Skip("no host name:", err)
	}
	want := strings.NewReplacer("/", "_", "\\", "_", "-", "_").Replace(h)
	if got := hostname(); got != want {
		t.Errorf("hostname() = %q, want %q (os.Hostname %q)", got, want, h)
	}
}

// Replacing a file another user or group owns keeps its owner and group
// where the process may set them (root).
func TestReplaceKeepsAnotherOwnerAndGroup(t *testing.T) {
	if os.Getuid() != 0 {
		if os.Getenv("CI") == "true" {
			t.Fatal("only root may give a file to another user, and CI runs as root")
		}
		t.Skip("only root may give a file to another user")
	}
	uid, gid := os.Getuid(), os.Getgid()
	for _, c := range []struct {
		name     string
		uid, gid int
	}{{"another user", 4321, gid}, {"another group", uid, 4321}} {
		p := filepath.Join(t.TempDir(), "f")
		if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(p, c.uid, c.gid); err != nil {
			t.Fatal(err)
		}
		if err := WriteFile(p, []byte("new"), 0o644); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		st := fi.Sys().(*syscall.Stat_t)
		if int(st.Uid) != c.uid || int(st.Gid) != c.gid {
			t.Errorf("%s: the new file is %d:%d, want %d:%d", c.name, st.Uid, st.Gid, c.uid, c.gid)
		}
	}
}
