package grids

import (
	"errors"

	"fmt"
	"slices"
	"strings"

	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// Errors of DecodeCanonical and ParseCanonical, for errors.Is.
var (
	// ErrFormatTooNew means canonical grid text was written in a later
	// format version than this ccsweep reads (see CanonicalFormat).
	ErrFormatTooNew = errors.New("canonical grid format is newer than this ccsweep reads")
	// ErrNotCanonical means text is not a canonical grid: not JSON of its
	// shape, without a format name of the form ccsweep-grid/N, or without
	// sub-grids.
	ErrNotCanonical = errors.New("not a canonical grid")
)

// Problem is one thing wrong with a grid file.
type Problem struct {
	// File is the grid file's path as given to Load or Parse.
	File string
	// Line is the 1-based line of the key or value at fault.
	Line int
	// Key is the dotted path of the key at fault, e.g. "sweep.ccti_timer" or
	// "grid[0].base.threshold" (sub-grids count from 0); empty when the
	// problem is not about one key, as for some TOML syntax errors.
	Key string
	// Msg says what is wrong, in lower case without a final period.
	Msg string
}

// String formats p as "file:line: key: msg", or "file:line: msg" without a key.
func (p Problem) String() string {
	if p.Key == "" {
		return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Msg)
	}
	return fmt.Sprintf("%s:%d: %s: %s", p.File, p.Line, p.Key, p.Msg)
}

// MaxProblems is the most problems an Error lists; the rest are counted in
// Error.More, so that a file with a hundred thousand bad keys reads as a
// screenful, not a flood.
const MaxProblems = 20

// Error reports the problems found in a grid file. Load and Parse return it
// for any file they reject other than for I/O failures.
type Error struct {
	// Problems are the first MaxProblems problems sorted by line; there is at
	// least one.
	Problems []Problem
	// More counts the problems found after those listed.
	More int
}

// Error returns one line per problem, in the form of Problem.String, joined
// by newlines, and a last line counting the problems not listed.
func (e *Error) Error() string {
	lines := make([]string, len(e.Problems), len(e.Problems)+1)
	for i, p := range e.Problems {
		lines[i] = p.String()
	}
	if e.More > 0 {
		lines = append(lines, e.MoreLine())
	}
	return strings.Join(lines, "\n")
}

// MoreLine says how many problems are not listed, e.g. "grid.toml: 99980
// more problems not shown"; it is empty when More is 0.
func (e *Error) MoreLine() string {
	if e.More == 0 {
		return ""
	}
	return fmt.Sprintf("%s: %d more problems not shown", e.Problems[0].File, e.More)
}

// problems collects the problems of one file.
type problems struct {
	file string
	list []Problem
	// sc is the scenario of the sub-grid being read, whose own parameters
	// (workload.Scenario.Param) are parameters too; nil: model parameters only.
	sc *workload.Scenario
	// scenarios are the scenario files read, by registered name.
	scenarios map[string]CanonicalScenario
}

// param returns the parameter called name in the scenario being read.
func (ps *problems) param(name string) *params.Param {
	if ps.sc != nil {
		return ps.sc.Param(name)
	}
	return params.LookupParam(name)
}

// paramNames lists the parameter names of the scenario being read.
func (ps *problems) paramNames() []string {
	names := params.ParamNames()
	if ps.sc != nil {
		for _, p := range ps.sc.ScenarioParams() {
			names = append(names, p.Name)
		}
	}
	return names
}

func (ps *problems) add(line int, key, format string, args ...any) {
	ps.list = append(ps.list, Problem{File: ps.file, Line: line, Key: key, Msg: fmt.Sprintf(format, args...)})
}

// err returns the collected problems as an *Error sorted by line, without
// repeats (an inherited constraint can fail in several sub-grids), or nil.
func (ps *problems) err() error {
	if len(ps.list) == 0 {
		return nil
	}
	slices.SortStableFunc(ps.list, func(a, b Problem) int { return a.Line - b.Line })
	list := slices.Compact(ps.list)
	e := &Error{Problems: list[:min(len(list), MaxProblems)]}
	e.More = len(list) - len(e.Problems)
	return e
}
