//go:build !unix

package store

import "os"

// writable reports whether path may be written, as far as its permission
// bits tell.
func writable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().Perm()&0o200 != 0
}

// onReadOnlyFS returns "": the file system's mount flags are not looked at.
func onReadOnlyFS(string) string { return "" }

// diskFull reports false: without statfs a full disk is recognised only by
// SQLite's own SQLITE_FULL.
func diskFull(string) bool { return false }
