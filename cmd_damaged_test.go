package main

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDatabaseWithUnparsableParameterIsRefused damages a database by hand,
// as a bad edit or a broken disk would: a stored marking_rate reads
// "banana". Every command that opens it refuses it at once, exit 2, in one
// line naming the parameter and value, and writes nothing: no report, no
// merged database.
func TestDatabaseWithUnparsableParameterIsRefused(t *testing.T) {
	path := handMadeDB(t)
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	res, err := raw.Exec(`UPDATE point_params SET value = 'banana' WHERE name = 'marking_rate' AND value = '4'`)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		t.Fatal("damaged no value")
	}
	raw.Close()
	out := t.TempDir()
	merged, html := filepath.Join(out, "merged.db"), filepath.Join(out, "r.html")
	for _, args := range [][]string{
		{"export", path},
		{"export", path, "--summary", "--format", "json"},
		{"status", path},
		{"best", path, "--maximize", "victim_gbps"},
		{"report", path, "-o", html},
		{"serve", path, "--addr", "127.0.0.1:0"},
		{"merge", merged, path},
	} {
		t.Run(strings.Join(args[:1], " "), func(t *testing.T) {
			// A command that opened it anyway (serve would listen) is
			// stopped after a while, as by a signal.
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			var outb, errb bytes.Buffer
			code := run(ctx, append([]string{"ccsweep"}, args...), &outb, &errb)
			stdout, stderr := outb.String(), errb.String()
			want := "damaged: a point's parameter value does not parse: marking_rate = banana: not a whole number"
			if code != exitUsage || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, want) {
				t.Errorf("exit %d, stderr %q; want 2 and one line saying %q", code, stderr, want)
			}
			if stdout != "" {
				t.Errorf("printed %q", stdout)
			}
		})
	}
	if entries, _ := os.ReadDir(out); len(entries) != 0 {
		t.Errorf("left %d files in the output folder (%v): nothing should be written", len(entries), entries[0].Name())
	}
}
