package store

import (
	"errors"
	"testing"
)

// TestMutSqliteErrorDropsOnlyANumericCode checks sqliteError's message
// (a survivor of the sampled mutation run, store.go:483): the result code
// the driver appends, " (NNNN)" and then " (SQLITE_NAME)", is cut, any
// other parenthesis kept.
func TestMutSqliteErrorDropsOnlyANumericCode(t *testing.T) {
	for _, c := range []struct{ msg, want string }{
		{"disk I/O error (4874)", "disk I/O error"},
		{"database is locked (5)", "database is locked"},
		{"database is locked (5) (SQLITE_BUSY)", "database is locked"},
		{"disk I/O error (4874) (SQLITE_IOERR_SHORT_READ)", "disk I/O error"},
		{"no such table: x (SQLITE_ERROR)", "no such table: x"},
		{"no such table: x (see SQLITE_ERROR)", "no such table: x (see SQLITE_ERROR)"},
		{"no such table: x (not a code)", "no such table: x (not a code)"},
		{"(5)", "(5)"},
		{"constraint failed", "constraint failed"},
	} {
		err := sqliteError{errors.New(c.msg)}
		if got := err.Error(); got != c.want {
			t.Errorf("sqliteError(%q) = %q, want %q", c.msg, got, c.want)
		}
	}
}
