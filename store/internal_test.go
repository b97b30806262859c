package store

import (
	"database/sql"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// SQLDB exposes the database/sql handle to the black-box tests.
func SQLDB(d *DB) *sql.DB { return d.sql }

func TestMisspelledPragmaFailsOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.db")
	good := dsn(path, false)
	for _, tc := range []struct{ name, from, to string }{
		{"journal mode", "journal_mode(WAL)", "journal_mod(WAL)"},
		{"busy timeout", "busy_timeout(5000)", "busy_timout(5000)"},
		{"foreign keys", "foreign_keys(1)", "foreign_key(1)"},
		{"synchronous", "synchronous(NORMAL)", "synchronus(NORMAL)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := strings.Replace(good, tc.from, tc.to, 1)
			d, err := openDSN(path, bad, false)
			if err == nil {
				d.Close()
				t.Fatalf("open with %s succeeded", bad)
			}
			if !strings.Contains(err.Error(), "did not take effect") {
				t.Errorf("error %q does not say the setting did not take effect", err)
			}
		})
	}
}

func TestDSNEscapesPath(t *testing.T) {
	got := dsn("/tmp/a?b#c%d e.db", true)
	want := "file:/tmp/a%3Fb%23c%25d%20e.db?_pragma=busy_timeout(5000)&_pragma=foreign_keys(1)&mode=ro"
	if got != want {
		t.Errorf("dsn = %s, want %s", got, want)
	}
}

func TestProcessAlive(t *testing.T) {
	if !processAlive(os.Getpid()) {
		t.Error("this process is not alive")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if processAlive(cmd.Process.Pid) {
		t.Errorf("exited process %d is alive", cmd.Process.Pid)
	}
	if processAlive(0) || processAlive(-1) {
		t.Error("pid 0 or -1 is alive")
	}
}

func TestCompareValuesIsATotalOrder(t *testing.T) {
	values := []string{"10us", "9us", "1ms", "150us", "2", "10", "0.5", "-1", "qp", "sl", "1e3", "1.0", "1", "NaN", "", ".5us"}
	want := []string{"", "-1", "0.5", "1", "1.0", "2", "10", "1e3", "NaN", "qp", ".5us", "9us", "10us", "150us", "1ms", "sl"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 100 {
		r.Shuffle(len(values), func(i, j int) { values[i], values[j] = values[j], values[i] })
		got := slices.Clone(values)
		slices.SortFunc(got, func(a, b string) int { return compareValues(a, true, b, true) })
		if !slices.Equal(got, want) {
			t.Fatalf("sorted %v, want %v", got, want)
		}
	}
}
