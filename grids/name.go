package grids

import "regexp"

// MaxNameLen is the longest grid (and Slurm job) name accepted. A name
// becomes a file name stem with suffixes such as ".db-wal" and
// ".merge-123456789", which must stay within a file system's 255 bytes.
const MaxNameLen = 128

var nameRE = regexp.MustCompile(`^[A-Za-z0-9_-][A-Za-z0-9._-]*$`)

// ValidName reports whether s can name a grid: a file name stem of at most
// MaxNameLen characters made of letters, digits, '.', '_' and '-', not
// starting with '.'.
func ValidName(s string) bool { return len(s) <= MaxNameLen && nameRE.MatchString(s) }

// ShortIDLen is how many leading hex digits of a grid or point ID are shown
// to people (status lines, report headings); the full ID is stored.
const ShortIDLen = 12

// ShortID returns the first ShortIDLen characters of id, or id if shorter.
func ShortID(id string) string { return id[:min(len(id), ShortIDLen)] }
