//go:build unix

package atomicfile

import (
	"io/fs"
	"os"
	"syscall"
)

// keepOwner gives f the owner and group of old where the process may (root
// may; a plain user may not, and then f keeps the user's).
func keepOwner(f *os.File, old fs.FileInfo) {
	if s, ok := old.Sys().(*syscall.Stat_t); ok && (int(s.Uid) != os.Getuid() || int(s.Gid) != os.Getgid()) {
		_ = f.Chown(int(s.Uid), int(s.Gid))
	}
}

// writable reports whether this process may write the file at path.
func writable(path string) bool { return syscall.Access(path, 2 /* W_OK */) == nil }

// alive reports whether a process with this pid exists on this host.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}
