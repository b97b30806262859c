//go:build unix

package store

import "syscall"

// writable reports whether this process may write the file or directory at
// path (a read-only mount or missing permission says no; root passes
// permission checks, as it does when it writes).
func writable(path string) bool {
	return syscall.Access(path, 2 /* W_OK */) == nil
}

// onReadOnlyFS returns " (read-only file system)" if path is on one, else "".
func onReadOnlyFS(path string) string {
	if syscall.Access(path, 2) == syscall.EROFS {
		return " (read-only file system)"
	}
	return ""
}

// diskFull reports whether the file system holding dir has (almost) no
// space left for an unprivileged write: less than 64 KiB.
func diskFull(dir string) bool {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return false
	}
	return st.Bavail*uint64(st.Bsize) < 64<<10
}
