package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/ccsweep/ccsweep/store/atomicfile"
)

// Merge combines the results of the databases srcs into dst, creating dst if
// it does not exist; it is how the shards of a Slurm array become one
// database. Points are deduplicated by ID: a done result wins over a failed
// one, and otherwise the first one met (dst's own, then srcs in order) wins.
// Grids and runs are deduplicated by ID and UUID; claims are not merged.
// Merging the same sources again changes nothing.
//
// Unless force is set, Merge refuses with an error wrapping ErrMismatch when
// the inputs hold more than one grid or more than one model version.
//
// Merge is atomic: it builds the result in a temporary file next to dst
// (dst.merge-HOST-PID) and renames it over dst, so on any error dst is left
// as it was. The temporary files of merges into dst that were killed mid-way
// on this host are removed first. dst must not be
// in use while Merge runs, and Merge fails if it finds it open; the sources
// may be, as they are only read. A dst that is a symbolic link is written
// through: the file it names is replaced, and the link stays.
func Merge(ctx context.Context, dst string, srcs []string, force bool) error {
	if len(srcs) == 0 {
		return fmt.Errorf("merge into %s: no source databases", dst)
	}
	inputs, mode, err := mergeInputs(dst, srcs)
	if err != nil {
		return fmt.Errorf("merge into %s: %w", dst, err)
	}
	if err := checkIdentity(ctx, inputs, force); err != nil {
		return fmt.Errorf("merge into %s: %w", dst, err)
	}
	// A symbolic link is written through: the file it names is replaced,
	// and the link stays a link.
	real, err := atomicfile.Target(dst)
	if err != nil {
		return fmt.Errorf("merge into %s: %w", dst, err)
	}
	if err := mergeInto(ctx, real, inputs, mode); err != nil {
		return fmt.Errorf("merge into %s: %w", dst, err)
	}
	return nil
}

// mergeInputs returns the databases to copy, dst first if it exists, without
// repeats, and the file mode the merged file gets.
func mergeInputs(dst string, srcs []string) (inputs []string, mode fs.FileMode, err error) {
	var seen []os.FileInfo
	add := func(path string) error {
		fi, err := os.Stat(path)
		if err != nil {
			return err
		}
		for _, s := range seen {
			if os.SameFile(fi, s) {
				return nil
			}
		}
		seen = append(seen, fi)
		inputs = append(inputs, path)
		return nil
	}
	mode = 0o644
	switch fi, err := os.Stat(dst); {
	case err == nil:
		mode = fi.Mode().Perm()
		if err := add(dst); err != nil {
			return nil, 0, err
		}
	case !errors.Is(err, fs.ErrNotExist):
		return nil, 0, err
	}
	for _, src := range srcs {
		if err := add(src); err != nil {
			return nil, 0, err
		}
	}
	return inputs, mode, nil
}

// checkIdentity opens every input read-only, which checks its schema, and
// unless force fails if they hold more than one grid or model version.
func checkIdentity(ctx context.Context, inputs []string, force bool) error {
	grids, models := make(map[string]bool), make(map[string]bool)
	for _, path := range inputs {
		d, err := OpenReadOnly(path)
		if err != nil {
			return err
		}
		err = d.identity(ctx, grids, models)
		d.Close()
		if err != nil {
			return fmt.Errorf("read %s: %w", path, err)
		}
	}
	if force {
		return nil
	}
	if len(grids) > 1 {
		return fmt.Errorf("%w: the databases hold %d grids (%s); use force to merge them anyway",
			ErrMismatch, len(grids), strings.Join(slices.Sorted(maps.Keys(grids)), ", "))
	}
	if len(models) > 1 {
		return fmt.Errorf("%w: the databases hold results of %d model versions (%s); use force to merge them anyway",
			ErrMismatch, len(models), strings.Join(slices.Sorted(maps.Keys(models)), ", "))
	}
	return nil
}

// identity adds the database's grid IDs and model versions to the sets.
func (d *DB) identity(ctx context.Context, grids, models map[string]bool) error {
	rows, err := d.sql.QueryContext(ctx, `
		SELECT id, model_version FROM grids
		UNION SELECT grid_id, model_version FROM points`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var grid, model string
		if err := rows.Scan(&grid, &model); err != nil {
			return err
		}
		grids[grid], models[model] = true, true
	}
	return rows.Err()
}

// mergeInto copies the inputs into a new database next to dst and renames it
// over dst.
func mergeInto(ctx context.Context, dst string, inputs []string, mode fs.FileMode) (err error) {
	removeStaleMerges(dst)
	tmp := mergeTemp(dst, hostname(), os.Getpid())
	removeFiles(tmp) // a leftover of a dead process that had this PID
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	f.Close()
	defer func() {
		if err != nil {
			removeFiles(tmp)
		}
	}()
	out, err := Open(tmp)
	if err != nil {
		return err
	}
	for _, path := range inputs {
		if err = out.copyFrom(ctx, path); err != nil {
			out.Close()
			return fmt.Errorf("copy %s: %w", path, err)
		}
	}
	if err := out.Close(); err != nil {
		return err
	}
	if _, err := os.Stat(tmp + "-wal"); err == nil {
		return fmt.Errorf("%s-wal was not checkpointed", tmp)
	}
	if err := os.Chmod(tmp, mode); err != nil {
		return err
	}
	if err := closeWAL(dst); err != nil {
		return err
	}
	if err := os.Rename(tmp, dst); err != nil {
		return err
	}
	return syncDir(filepath.Dir(dst))
}

// mergeTemp is the file a merge into dst by process pid of host builds
// before renaming it over dst: "DST.merge-HOST-PID".
func mergeTemp(dst, host string, pid int) string {
	return fmt.Sprintf("%s.merge-%s-%d", dst, host, pid)
}

// removeStaleMerges removes what merges into dst killed mid-way left behind:
// the temporary files of processes of this host that are gone. Those of
// other hosts (on a shared file system) are left alone.
func removeStaleMerges(dst string) {
	matches, _ := filepath.Glob(globEscape(dst) + ".merge-*")
	prefix := dst + ".merge-" + hostname() + "-"
	for _, m := range matches {
		rest, ok := strings.CutPrefix(m, prefix)
		if !ok {
			continue
		}
		for _, suffix := range []string{"-wal", "-shm", "-journal"} {
			rest = strings.TrimSuffix(rest, suffix)
		}
		pid, err := strconv.Atoi(rest)
		if err == nil && pid != os.Getpid() && !processAlive(pid) {
			removeFiles(m)
		}
	}
}

// globEscape escapes the characters filepath.Match treats specially.
func globEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteRune('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// removeFiles removes the database at path and the files SQLite keeps
// beside it.
func removeFiles(path string) {
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		os.Remove(path + suffix)
	}
}

// closeWAL makes sure that no -wal or -shm file of the database at path
// remains, so that none can be applied to the file renamed over it: the last
// read-write connection to close checkpoints the WAL and deletes both, and
// read-only connections (Merge's own reads among them) leave them behind.
func closeWAL(path string) error {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	d, err := Open(path)
	if err != nil {
		return err
	}
	if err := d.Close(); err != nil {
		return err
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		if _, err := os.Stat(path + suffix); err == nil {
			return fmt.Errorf("%s is in use by another process", path)
		}
	}
	return nil
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// copyScript copies the attached database src into main in one transaction.
// Points from src replace those of main only where src has done and main has
// failed; run IDs are mapped through the runs' UUIDs.
var copyScript = `
INSERT INTO main.grids (id, name, scenario, model_version, canonical, created)
	SELECT id, name, scenario, model_version, canonical, created FROM src.grids WHERE true
	ON CONFLICT (id) DO NOTHING;

INSERT INTO main.runs (uuid, version, commit_hash, model_version, host, pid, args, workers, started, finished)
	SELECT uuid, version, commit_hash, model_version, host, pid, args, workers, started, finished
	FROM src.runs WHERE true ORDER BY id
	ON CONFLICT (uuid) DO NOTHING;

CREATE TEMP TABLE take (id TEXT PRIMARY KEY);

INSERT INTO temp.take
	SELECT s.id FROM src.points s LEFT JOIN main.points m ON m.id = s.id
	WHERE m.id IS NULL OR (m.status = 'failed' AND s.status = 'done');

DELETE FROM main.points WHERE id IN (SELECT id FROM temp.take);

INSERT INTO main.points (id, grid_id, scenario, seed, status, error, started, finished,
		wall_seconds, events, run_id, model_version, ` + strings.Join(metricNames, ", ") + `)
	SELECT s.id, s.grid_id, s.scenario, s.seed, s.status, s.error, s.started, s.finished,
		s.wall_seconds, s.events,
		(SELECT m.id FROM main.runs m JOIN src.runs r ON r.uuid = m.uuid WHERE r.id = s.run_id),
		s.model_version, s.` + strings.Join(metricNames, ", s.") + `
	FROM src.points s WHERE s.id IN (SELECT id FROM temp.take);

INSERT INTO main.point_params (point_id, name, value)
	SELECT point_id, name, value FROM src.point_params
	WHERE point_id IN (SELECT id FROM temp.take);

INSERT INTO main.series (point_id, flow, ord, role, sample_seconds, samples, gbps)
	SELECT point_id, flow, ord, role, sample_seconds, samples, gbps FROM src.series
	WHERE point_id IN (SELECT id FROM temp.take);

INSERT INTO main.app_metrics (point_id, name, value)
	SELECT point_id, name, value FROM src.app_metrics
	WHERE point_id IN (SELECT id FROM temp.take);
`

// copyIterations copies the iteration times of the points copyScript took;
// it runs only for a source of schema 6 or later.
const copyIterations = `
INSERT INTO main.app_iterations (point_id, app, iteration, us)
	SELECT point_id, app, iteration, us FROM src.app_iterations
	WHERE point_id IN (SELECT id FROM temp.take);
`

// copyFrom attaches the database at path read-only and copies it in.
func (d *DB) copyFrom(ctx context.Context, path string) error {
	conn, err := d.sql.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	params, quiet := readParams(path)
	if quiet {
		defer removeEmptyWAL(path)
	}
	if _, err := conn.ExecContext(ctx, `ATTACH DATABASE ? AS src`, fileURI(path)+"?mode=ro"+params); err != nil {
		return err
	}
	defer conn.ExecContext(context.Background(), `DETACH DATABASE src`)
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var version int
	if err := tx.QueryRowContext(ctx, `PRAGMA src.user_version`).Scan(&version); err != nil {
		return err
	}
	script := copyScript
	if version >= iterationsVersion {
		script += copyIterations
	}
	if _, err := tx.ExecContext(ctx, script+"DROP TABLE temp.take;\n"); err != nil {
		return err
	}
	return tx.Commit()
}
