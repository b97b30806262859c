package main

import (
	"reflect"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/grids/param"
	"github.com/ccsweep/ccsweep/grids/point"
	"github.com/ccsweep/ccsweep/store"
)

// TestOneTypePerIdea checks that the packages name one type for a point
// and one for a parameter (docs/internals.md, "One type per idea"): a
// second definition, with conversions between the two, would fail here.
func TestOneTypePerIdea(t *testing.T) {
	for _, tt := range []struct {
		idea  string
		owner reflect.Type
		names map[string]reflect.Type
	}{
		{"point", reflect.TypeFor[point.Point](), map[string]reflect.Type{
			"grids.Point": reflect.TypeFor[grids.Point](), "store.Point": reflect.TypeFor[store.Point](),
			"store.Result.Point": fieldType(t, reflect.TypeFor[store.Result](), "Point"),
		}},
		{"parameter", reflect.TypeFor[param.Param](), map[string]reflect.Type{
			"grids.Param": reflect.TypeFor[grids.Param](), "store.Param": reflect.TypeFor[store.Param](),
			"point.Point.Params": fieldType(t, reflect.TypeFor[point.Point](), "Params").Elem(),
		}},
	} {
		for name, typ := range tt.names {
			if typ != tt.owner {
				t.Errorf("%s is %v, not %v: one %s, one type", name, typ, tt.owner, tt.idea)
			}
		}
	}
}

// fieldType returns the type of struct typ's field name.
func fieldType(t *testing.T, typ reflect.Type, name string) reflect.Type {
	t.Helper()
	f, ok := typ.FieldByName(name)
	if !ok {
		t.Fatalf("%v has no field %s", typ, name)
	}
	return f.Type
}
