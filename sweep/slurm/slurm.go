package slurm

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"text/template"
	"unicode"

	"github.com/ccsweep/ccsweep/grids"
)

// The files of a Slurm output directory, relative to it.
const (
	GridFile    = "grid.toml"    // the copy of the grid file the jobs read
	ArrayFile   = "job.sbatch"   // the job array: task I runs shard I
	MergeFile   = "merge.sbatch" // the merge job, queued after the array
	SubmitFile  = "submit.sh"    // queues the array and the merge job
	ShardDir    = "shards"       // one database per shard: shard-I.db
	LogDir      = "logs"         // the jobs' output
	ResultsFile = "results.db"   // the merged database
	ReportFile  = "report.html"  // the report of the merged database
)

// DefaultMaxArraySize is Slurm's default MaxArraySize, assumed when the
// cluster's cannot be read.
const DefaultMaxArraySize = 1001

// Errors of the Slurm layer.
var (
	// ErrOption reports an option of a Job that sbatch would
	// reject or that the scripts cannot carry. Validate's errors are
	// *OptionError values that wrap it.
	ErrOption = errors.New("bad Slurm option")
	// ErrNotDir reports an output directory that is not a directory.
	ErrNotDir = errors.New("not a directory")
	// ErrForeignDir reports an output directory with files but no manifest.
	ErrForeignDir = errors.New("not empty and was not set up by ccsweep slurm; choose a new or empty directory")
	// ErrBadManifest reports a ManifestFile that does not parse as one.
	ErrBadManifest = errors.New(ManifestFile + ": not a manifest written by ccsweep slurm")
	// ErrNoSbatch reports that sbatch is not on PATH: this is not a Slurm
	// login node.
	ErrNoSbatch = errors.New("sbatch is not on PATH: submit from a Slurm login node")
	// ErrNoExecutable reports that the running program's path could not
	// be found (Executable), so the jobs' ccsweep binary must be given.
	ErrNoExecutable = errors.New("cannot find the ccsweep binary")
)

// OptionError reports one bad option of a Job. It names the option by
// its field of Job, so that a caller can name it as its user gave it (a
// command-line flag); Error names it in words.
type OptionError struct {
	// Field is the Job field at fault: "Tasks", "Time", "Extra", ...
	Field string
	// Value is the bad value as written in messages: quoted for strings.
	Value string
	// Reason says what is wrong or what is wanted, such as "want at least 1".
	Reason string
}

// optionNames are the Job fields in words, for OptionError.Error.
var optionNames = map[string]string{
	"Ccsweep": "ccsweep binary", "Dir": "output directory", "Name": "grid name", "Tasks": "task count",
	"Time": "time limit", "Mem": "memory", "Partition": "partition", "Account": "account",
	"CPUsPerTask": "CPUs per task", "Throttle": "throttle", "MaxArraySize": "MaxArraySize",
	"Extra": "sbatch option", "RunFlags": "run flag", "Assets": "assets directory",
}

func (e *OptionError) Error() string {
	name := optionNames[e.Field]
	if name == "" {
		name = e.Field
	}
	return name + " " + e.Value + ": " + e.Reason
}

// Unwrap returns ErrOption.
func (e *OptionError) Unwrap() error { return ErrOption }

// Job describes the Slurm jobs that run a grid on a cluster: a job array
// whose task I runs shard I of Tasks (see sweep.Shard) into its own database
// Dir/shards/shard-I.db, and a job that runs once the array has ended
// (dependency afterany), merges every shard database into Dir/results.db and
// writes Dir/report.html. The scripts name every file by absolute path, so
// the jobs do not depend on the directory they are submitted from.
type Job struct {
	// Ccsweep is the absolute path of the ccsweep binary the jobs run; the
	// compute nodes must see it at that path.
	Ccsweep string
	// Dir is the absolute output directory, shared between the login and
	// compute nodes. It holds the copy of the grid file (GridFile)
	// that the tasks run.
	Dir string
	// Name is the grid's name; the jobs are called ccsweep-Name and
	// ccsweep-Name-merge.
	Name string
	// Tasks is the number of shards, and so of array tasks: at least 1.
	Tasks int
	// Partition, Time, Mem and Account are the sbatch options of the same
	// names for both jobs; empty leaves them to the cluster's defaults.
	Partition, Time, Mem, Account string
	// CPUsPerTask is sbatch --cpus-per-task of the array tasks, each running
	// that many simulations at once; 0 leaves it to the cluster (one).
	CPUsPerTask int
	// Throttle, if positive, lets at most this many tasks of each array run
	// at once (sbatch --array=...%Throttle).
	Throttle int
	// Extra holds further sbatch options, such as "--qos=long", each written
	// as an #SBATCH line of both jobs after the others.
	Extra []string
	// RunFlags are further flags for the tasks' ccsweep run.
	RunFlags []string
	// MaxArraySize is the cluster's MaxArraySize: array task IDs stay below
	// it, and larger arrays are split (see SplitArray). At least 2.
	MaxArraySize int
	// NextRound, if not empty, are the arguments after `ccsweep slurm` with
	// which the merge job, once it has merged, submits the next round of a
	// grid with rounds (see RoundPlans); empty for a grid without.
	NextRound []string
	// Assets, if not empty, is the absolute path of a folder holding
	// echarts.min.js and echarts-gl.min.js as the compute nodes see it; the
	// merge job passes it to ccsweep report --assets, so that the report
	// inlines the scripts and opens without internet access.
	Assets string
}

var (
	timeRE = regexp.MustCompile(`^(\d+|\d+:\d+|\d+:\d+:\d+|\d+-\d+|\d+-\d+:\d+|\d+-\d+:\d+:\d+|(?i:unlimited|infinite))$`)
	memRE  = regexp.MustCompile(`^\d+[KMGTkmgt]?$`)
)

// Validate reports, as an *OptionError, the first option sbatch would
// reject or the scripts could not carry.
func (j *Job) Validate() error {
	bad := func(field, value, reason string) error {
		return &OptionError{Field: field, Value: value, Reason: reason}
	}
	q := strconv.Quote
	n := strconv.Itoa
	switch {
	case !filepath.IsAbs(j.Ccsweep):
		return bad("Ccsweep", q(j.Ccsweep), "not an absolute path")
	case !filepath.IsAbs(j.Dir):
		return bad("Dir", q(j.Dir), "not an absolute path")
	case strings.ContainsFunc(j.Dir, badPathRune):
		return bad("Dir", q(j.Dir), "holds a space, quote, backslash or %, which #SBATCH lines cannot carry; choose another")
	case strings.ContainsFunc(j.Ccsweep, unicode.IsControl):
		return bad("Ccsweep", q(j.Ccsweep), "holds a control character")
	case !grids.ValidName(j.Name):
		return bad("Name", q(j.Name), "not a valid job name")
	case j.Tasks < 1:
		return bad("Tasks", n(j.Tasks), "want at least 1")
	case j.Time != "" && !timeRE.MatchString(j.Time):
		return bad("Time", q(j.Time), "want minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS")
	case j.Mem != "" && !memRE.MatchString(j.Mem):
		return bad("Mem", q(j.Mem), "want a size in megabytes or with a unit, such as 4000 or 4G")
	case j.Partition != "" && !plainValue(j.Partition):
		return bad("Partition", q(j.Partition), "want a partition name (or a comma-separated list) without spaces or quotes")
	case j.Account != "" && !plainValue(j.Account):
		return bad("Account", q(j.Account), "want an account name without spaces or quotes")
	case j.CPUsPerTask < 0:
		return bad("CPUsPerTask", n(j.CPUsPerTask), "want at least 1")
	case j.Throttle < 0:
		return bad("Throttle", n(j.Throttle), "want at least 1, or 0 for no limit")
	case j.MaxArraySize < 2:
		return bad("MaxArraySize", n(j.MaxArraySize), "the cluster takes no job arrays; run the shards with ccsweep run --shard under another launcher")
	case j.Assets != "" && !filepath.IsAbs(j.Assets):
		return bad("Assets", q(j.Assets), "not an absolute path")
	case strings.ContainsFunc(j.Assets, unicode.IsControl):
		return bad("Assets", q(j.Assets), "holds a control character")
	}
	for _, e := range j.Extra {
		if reason := checkExtra(e); reason != "" {
			return bad("Extra", q(e), reason)
		}
	}
	for _, f := range append(slices.Clone(j.RunFlags), j.NextRound...) {
		if strings.ContainsFunc(f, unicode.IsControl) {
			return bad("RunFlags", q(f), "holds a control character")
		}
	}
	return nil
}

func badPathRune(r rune) bool {
	return unicode.IsSpace(r) || unicode.IsControl(r) || strings.ContainsRune(`"'\%`, r)
}

func plainValue(s string) bool {
	return !strings.ContainsFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsControl(r) || strings.ContainsRune(`"'\`+"`$;&|<>#", r)
	})
}

// managedOptions are the sbatch options the generated jobs set themselves,
// long and short, with the reason a user may not set them.
var managedOptions = map[string]string{
	"--array":      "the jobs set the array themselves (a throttle limits the tasks running at once)",
	"-a":           "the jobs set the array themselves (a throttle limits the tasks running at once)",
	"--dependency": "the merge job depends on the array already",
	"-d":           "the merge job depends on the array already",
	"--wrap":       "the jobs are batch scripts",
}

// checkExtra checks one further sbatch option and returns what is wrong
// with it, or "".
func checkExtra(e string) string {
	if !strings.HasPrefix(e, "-") || strings.Trim(e, "-") == "" {
		return "want an sbatch option such as --qos=long"
	}
	if strings.ContainsFunc(e, unicode.IsControl) {
		return "holds a line break or control character"
	}
	name := e
	if strings.HasPrefix(e, "--") {
		name, _, _ = strings.Cut(e, "=")
		name, _, _ = strings.Cut(name, " ")
	} else {
		name = e[:2] // a short option, its value possibly attached: -a1-5
	}
	return managedOptions[name]
}

// ArrayChunk is one job array of a submission: array task ID t runs shard
// t+Offset. A chunk's task IDs lie in 1..MaxArraySize-1.
type ArrayChunk struct {
	// Shards are the shards the chunk runs, ascending.
	Shards []int
	// Offset is added to SLURM_ARRAY_TASK_ID to give the shard.
	Offset int
	// Spec is the sbatch --array value: task IDs as ranges, such as
	// "1-7,9", and "%K" when throttled.
	Spec string
}

// SplitArray splits the submission of shards (ascending, 1-based, no
// repeats) into as few job arrays as keep every task ID below maxArraySize:
// shards 1..maxArraySize-1 go in the first, with their own numbers as task
// IDs, and each further block of maxArraySize-1 shards in one more. A
// positive throttle limits each array to that many running tasks.
func SplitArray(shards []int, maxArraySize, throttle int) ([]ArrayChunk, error) {
	if maxArraySize < 2 {
		return nil, fmt.Errorf("%w: MaxArraySize %d leaves no array task IDs", ErrOption, maxArraySize)
	}
	width := maxArraySize - 1
	var chunks []ArrayChunk
	for k, s := range shards {
		if s < 1 || (k > 0 && s <= shards[k-1]) {
			return nil, fmt.Errorf("shards %v: want ascending shard numbers from 1", shards)
		}
		off := (s - 1) / width * width
		if len(chunks) == 0 || chunks[len(chunks)-1].Offset != off {
			chunks = append(chunks, ArrayChunk{Offset: off})
		}
		c := &chunks[len(chunks)-1]
		c.Shards = append(c.Shards, s)
	}
	for i := range chunks {
		c := &chunks[i]
		ids := make([]int, len(c.Shards))
		for k, s := range c.Shards {
			ids[k] = s - c.Offset
		}
		c.Spec = RangeList(ids)
		if throttle > 0 {
			c.Spec += "%" + strconv.Itoa(throttle)
		}
	}
	return chunks, nil
}

// RangeList spells ascending integers as ranges: "1-3,5,7-9".
func RangeList(ids []int) string {
	var b strings.Builder
	for i := 0; i < len(ids); {
		j := i
		for j+1 < len(ids) && ids[j+1] == ids[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(ids[i]))
		if j > i {
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(ids[j]))
		}
		i = j + 1
	}
	return b.String()
}

// ArraySubmitArgs returns the arguments of the sbatch command that submits
// chunk c of the job array; sbatch --parsable then prints the job ID.
func (j *Job) ArraySubmitArgs(c ArrayChunk) []string {
	return []string{"--parsable", "--array=" + c.Spec, filepath.Join(j.Dir, ArrayFile), strconv.Itoa(c.Offset)}
}

// MergeSubmitArgs returns the arguments of the sbatch command that submits
// the merge job to run after the jobs afterIDs have ended, whatever their
// outcome; with none it runs at once.
func (j *Job) MergeSubmitArgs(afterIDs []string) []string {
	args := []string{"--parsable"}
	if len(afterIDs) > 0 {
		args = append(args, "--dependency=afterany:"+strings.Join(afterIDs, ":"))
	}
	return append(args, filepath.Join(j.Dir, MergeFile))
}

// ParseMaxArraySize reads MaxArraySize from the output of
// `scontrol show config`.
func ParseMaxArraySize(config string) (int, error) {
	m := regexp.MustCompile(`(?m)^\s*MaxArraySize\s*=\s*(\d+)\s*$`).FindStringSubmatch(config)
	if m == nil {
		return 0, errors.New("no MaxArraySize in the output of scontrol show config")
	}
	n, err := strconv.Atoi(m[1])
	if err != nil {
		return 0, fmt.Errorf("MaxArraySize %q: %w", m[1], err)
	}
	return n, nil
}

// ArrayScript renders the job array's batch script, ArrayFile. Its
// task ID plus the offset given as its first argument (0 by default) is the
// shard it runs. When every shard's number is a valid task ID the script
// carries the whole array (#SBATCH --array), so that plain
// `sbatch job.sbatch` runs it.
func (j *Job) ArrayScript() (string, error) {
	if err := j.Validate(); err != nil {
		return "", err
	}
	data := j.templateData()
	if j.Tasks < j.MaxArraySize {
		all := make([]int, j.Tasks)
		for i := range all {
			all[i] = i + 1
		}
		chunks, _ := SplitArray(all, j.MaxArraySize, j.Throttle)
		data.Array = chunks[0].Spec
	}
	return render(arrayTemplate, data)
}

// MergeScript renders the merge job's batch script, MergeFile. It
// merges whatever shard databases exist, prints the status, and writes the
// report, inlining the chart scripts of Assets if set; it fails only if the
// merge fails.
func (j *Job) MergeScript() (string, error) {
	if err := j.Validate(); err != nil {
		return "", err
	}
	return render(mergeTemplate, j.templateData())
}

// SubmitScript renders SubmitFile, a shell script that submits chunks (see
// SplitArray) and then the merge job after them, printing the job IDs: what
// `ccsweep slurm --submit` does, for those who submit by hand.
func (j *Job) SubmitScript(chunks []ArrayChunk) (string, error) {
	if err := j.Validate(); err != nil {
		return "", err
	}
	data := j.templateData()
	for _, c := range chunks {
		data.Submits = append(data.Submits, shellWords(j.ArraySubmitArgs(c)))
	}
	data.Merge = shellQuote(filepath.Join(j.Dir, MergeFile))
	return render(submitTemplate, data)
}

type templateData struct {
	*Job
	GridFile, Array, Merge string
	Directives             []string
	MergeDirectives        []string
	Submits                []string
}

func (j *Job) templateData() templateData {
	d := templateData{Job: j, GridFile: GridFile}
	var common []string
	if j.Partition != "" {
		common = append(common, "--partition="+j.Partition)
	}
	if j.Account != "" {
		common = append(common, "--account="+j.Account)
	}
	if j.Time != "" {
		common = append(common, "--time="+j.Time)
	}
	if j.Mem != "" {
		common = append(common, "--mem="+j.Mem)
	}
	d.Directives = append(d.Directives, common...)
	if j.CPUsPerTask > 0 {
		d.Directives = append(d.Directives, "--cpus-per-task="+strconv.Itoa(j.CPUsPerTask))
	}
	d.Directives = append(d.Directives, j.Extra...)
	d.MergeDirectives = append(append(common, "--cpus-per-task=1"), j.Extra...)
	return d
}

func render(t *template.Template, data templateData) (string, error) {
	var b strings.Builder
	if err := t.Execute(&b, data); err != nil {
		return "", fmt.Errorf("render %s: %w", t.Name(), err)
	}
	return b.String(), nil
}

// shellQuote quotes s for a POSIX shell, leaving plain words as they are.
func shellQuote(s string) string {
	if s != "" && !strings.ContainsFunc(s, func(r rune) bool {
		return !(r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("-_./=:,+@%", r)))
	}) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func shellWords(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = shellQuote(a)
	}
	return strings.Join(q, " ")
}

var templateFuncs = template.FuncMap{"q": shellQuote}

var arrayTemplate = template.Must(template.New(ArrayFile).Funcs(templateFuncs).Parse(`#!/bin/bash
# ccsweep job array for grid {{.Name}}, {{.Tasks}} shards. Array task I runs shard
# I+OFFSET into shards/shard-<I+OFFSET>.db, OFFSET being this script's
# argument (0 if none), in {{.Dir}}.
# Written by ccsweep slurm. Submit it with submit.sh, or with
# ccsweep slurm ... --submit, which submits only the shards still missing
# points, and then merge.sbatch.
#SBATCH --job-name=ccsweep-{{.Name}}
{{- with .Array}}
#SBATCH --array={{.}}
{{- end}}
#SBATCH --output={{.Dir}}/logs/%x-%A_%a.out
{{- range .Directives}}
#SBATCH {{.}}
{{- end}}
set -euo pipefail
ccsweep={{q .Ccsweep}}
dir={{q .Dir}}
tasks={{.Tasks}}
if [ -z "${SLURM_ARRAY_TASK_ID:-}" ]; then
	echo "$dir/job.sbatch: not a job array task (SLURM_ARRAY_TASK_ID is unset); submit it with $dir/submit.sh" >&2
	exit 2
fi
shard=$((SLURM_ARRAY_TASK_ID + ${1:-0}))
if [ "$shard" -lt 1 ] || [ "$shard" -gt "$tasks" ]; then
	echo "$dir/job.sbatch: array task $SLURM_ARRAY_TASK_ID with offset ${1:-0} is shard $shard, not one of 1..$tasks" >&2
	exit 2
fi
echo "ccsweep: grid {{.Name}}, shard $shard/$tasks, job ${SLURM_ARRAY_JOB_ID:-?}_${SLURM_ARRAY_TASK_ID} on $(hostname)"
exec "$ccsweep" run "$dir/{{.GridFile}}" --shard "$shard/$tasks" --db "$dir/shards/shard-$shard.db" \
	-j "${SLURM_CPUS_PER_TASK:-1}" --quiet{{range .RunFlags}} {{q .}}{{end}}
`))

var mergeTemplate = template.Must(template.New(MergeFile).Funcs(templateFuncs).Parse(`#!/bin/bash
# ccsweep merge job for grid {{.Name}}: merges every shard database into
# {{.Dir}}/results.db and writes {{.Dir}}/report.html. Written by
# ccsweep slurm, which queues it to run once the job array has ended (afterany).
#SBATCH --job-name=ccsweep-{{.Name}}-merge
#SBATCH --output={{.Dir}}/logs/%x-%j.out
{{- range .MergeDirectives}}
#SBATCH {{.}}
{{- end}}
set -uo pipefail
ccsweep={{q .Ccsweep}}
dir={{q .Dir}}
shopt -s nullglob
shards=("$dir"/shards/shard-*.db)
if [ ${#shards[@]} -eq 0 ]; then
	echo "$dir/merge.sbatch: no shard databases in $dir/shards: no array task ran" >&2
	exit 1
fi
"$ccsweep" merge "$dir/results.db" "${shards[@]}" || exit 1
"$ccsweep" status "$dir" || true
if ! "$ccsweep" report "$dir/results.db" -o "$dir/report.html"{{with .Assets}} --assets {{q .}}{{end}}; then
	echo "$dir/merge.sbatch: the results are merged into $dir/results.db, but the report could not be written" >&2
fi
{{- with .NextRound}}
# The grid runs in rounds: submit the next one, if any, from what is merged.
"$ccsweep" slurm{{range .}} {{q .}}{{end}} || exit 1
{{- end}}
exit 0
`))

var submitTemplate = template.Must(template.New(SubmitFile).Funcs(templateFuncs).Parse(`#!/bin/bash
# Submits the ccsweep job array for grid {{.Name}}, {{.Tasks}} shards in {{len .Submits}} array(s)
# (MaxArraySize {{.MaxArraySize}}), and then the merge job, which runs once every
# array task has ended. Written by ccsweep slurm; ccsweep slurm ... --submit
# does the same, and run again it submits only the shards still missing points.
set -euo pipefail
ids=()
{{- range .Submits}}
ids+=("$(sbatch {{.}} | cut -d';' -f1)")
{{- end}}
merge=$(sbatch --parsable --dependency=afterany:"$(IFS=:; echo "${ids[*]}")" {{.Merge}} | cut -d';' -f1)
echo "array job(s) ${ids[*]}; merge job $merge"
echo "follow with: squeue -j $(IFS=,; echo "${ids[*]}"),$merge; {{q .Ccsweep}} status {{q .Dir}}"
`))
