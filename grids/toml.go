package grids

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// node is a decoded TOML value with the line it starts on. Val holds a
// string, int64, float64, bool, a date/time value, []*node or *table.
type node struct {
	val  any
	line int
}

// table is a TOML table whose keys keep their file order.
type table struct {
	keys []string
	m    map[string]*node
}

// decodeTOML decodes data into a tree of nodes. The go-toml decoder checks
// the document (syntax, duplicate keys, table redefinitions) and decodes the
// values; a second pass over go-toml's parser AST records where every key and
// array element starts, which gives lines and the keys' file order.
func decodeTOML(data []byte) (*table, *Problem) {
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		return nil, tomlProblem(err)
	}
	pos, err := positions(data)
	if err != nil {
		return nil, tomlProblem(err)
	}
	return buildTable(doc, "", 1, pos), nil
}

// tomlProblem turns a go-toml error into a Problem.
func tomlProblem(err error) *Problem {
	p := &Problem{Line: 1, Msg: err.Error()}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		p.Line, _ = de.Position()
		p.Line = max(p.Line, 1)
		p.Key = strings.Join(de.Key(), ".")
		p.Msg = "invalid TOML: " + strings.TrimPrefix(de.Error(), "toml: ")
	}
	return p
}

// offset is where a key or an element starts: its byte offset and line.
type offset struct{ off, line int }

// pathSep separates the parts of the paths that index positions. Array
// elements are parts of the form "#i".
const pathSep = "\x00"

func join(path, part string) string {
	if path == "" {
		return part
	}
	return path + pathSep + part
}

func index(path string, i int) string { return join(path, "#"+strconv.Itoa(i)) }

// positions walks the parser AST of data and maps the path of every key and
// array element to where it starts. Paths resolve arrays of tables to their
// elements, as a decoder does.
func positions(data []byte) (map[string]offset, error) {
	pos := make(map[string]offset)
	arrays := make(map[string]int) // array-of-tables path -> elements so far
	var newlines []int
	for i, c := range data {
		if c == '\n' {
			newlines = append(newlines, i)
		}
	}
	// at is the position of n, like the parser's Shape but without
	// rescanning the document for every node.
	at := func(n *unstable.Node, fallback offset) offset {
		if n.Raw.Length == 0 {
			return fallback
		}
		off := int(n.Raw.Offset)
		line, _ := slices.BinarySearch(newlines, off)
		return offset{off, line + 1}
	}
	var p unstable.Parser
	p.Reset(data)
	record := func(path string, o offset) {
		if _, ok := pos[path]; !ok {
			pos[path] = o
		}
	}
	// resolve appends the key parts of n to base, stepping into the last
	// element of arrays of tables, and records each part's position.
	resolve := func(base string, n *unstable.Node) (string, offset) {
		path, o := base, pos[base]
		for it := n.Key(); it.Next(); {
			k := it.Node()
			path = join(path, string(k.Data))
			o = at(k, o)
			record(path, o)
			if c, ok := arrays[path]; ok && !it.IsLast() {
				path = index(path, c-1)
			}
		}
		return path, o
	}
	var value func(path string, v *unstable.Node, o offset)
	value = func(path string, v *unstable.Node, o offset) {
		switch v.Kind {
		case unstable.Array:
			i := 0
			for it := v.Children(); it.Next(); {
				e := it.Node()
				if e.Kind == unstable.Comment {
					continue
				}
				eo := at(e, o)
				record(index(path, i), eo)
				value(index(path, i), e, eo)
				i++
			}
		case unstable.InlineTable:
			for it := v.Children(); it.Next(); {
				kv := it.Node()
				if kv.Kind != unstable.KeyValue {
					continue
				}
				kp, ko := resolve(path, kv)
				value(kp, kv.Value(), ko)
			}
		}
	}
	current := ""
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.KeyValue:
			kp, ko := resolve(current, e)
			value(kp, e.Value(), ko)
		case unstable.Table:
			current, _ = resolve("", e)
		case unstable.ArrayTable:
			path, o := resolve("", e)
			current = index(path, arrays[path])
			arrays[path]++
			record(current, o)
		}
	}
	return pos, p.Error()
}

// buildTable turns a decoded TOML table into a table of nodes, ordering
// keys by where they appear in the file. line is the table's own line, used
// for keys whose position is unknown.
func buildTable(m map[string]any, path string, line int, pos map[string]offset) *table {
	t := &table{m: make(map[string]*node, len(m))}
	for k := range m {
		t.keys = append(t.keys, k)
	}
	where := func(k string) offset {
		if o, ok := pos[join(path, k)]; ok {
			return o
		}
		return offset{1 << 62, line}
	}
	slices.SortFunc(t.keys, func(a, b string) int {
		if c := where(a).off - where(b).off; c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	for _, k := range t.keys {
		t.m[k] = buildNode(m[k], join(path, k), where(k).line, pos)
	}
	return t
}

func buildNode(v any, path string, line int, pos map[string]offset) *node {
	switch x := v.(type) {
	case map[string]any:
		return &node{buildTable(x, path, line, pos), line}
	case []any:
		list := make([]*node, len(x))
		for i, e := range x {
			l := line
			if o, ok := pos[index(path, i)]; ok {
				l = o.line
			}
			list[i] = buildNode(e, index(path, i), l, pos)
		}
		return &node{list, line}
	case []map[string]any:
		list := make([]*node, len(x))
		for i, e := range x {
			l := line
			if o, ok := pos[index(path, i)]; ok {
				l = o.line
			}
			list[i] = &node{buildTable(e, index(path, i), l, pos), l}
		}
		return &node{list, line}
	}
	return &node{v, line}
}
