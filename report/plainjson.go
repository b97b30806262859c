package report

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
)

// marshalFinite marshals v as encoding/json does, but for a float that is
// NaN or infinite, which JSON cannot spell and json.Marshal refuses: that
// number is written as null. Values json.Marshal accepts are written
// exactly as it writes them. Only a value JSON cannot hold at all (a
// channel, a function) is an error.
func marshalFinite(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if _, unsupported := err.(*json.UnsupportedValueError); !unsupported {
		return b, err
	}
	return json.Marshal(plainJSON(reflect.ValueOf(v)))
}

var marshalerType = reflect.TypeFor[json.Marshaler]()

// plainJSON returns v as the plain values (maps, slices, strings, numbers,
// bools, nil) it marshals to under encoding/json's rules for struct tags
// (a name, "-", omitempty, embedded structs), with every NaN or infinite
// float replaced by nil. A json.Marshaler is marshalled by itself; one that
// fails is nil.
func plainJSON(v reflect.Value) any {
	if !v.IsValid() {
		return nil
	}
	if v.Type().Implements(marshalerType) && v.CanInterface() {
		if (v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface) && v.IsNil() {
			return nil
		}
		b, err := json.Marshal(v.Interface())
		if err != nil {
			return nil
		}
		return json.RawMessage(b)
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return plainJSON(v.Elem())
	case reflect.Float32, reflect.Float64:
		f := v.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil
		}
		if v.Kind() == reflect.Float32 {
			// Spelled as json.Marshal spells a float32.
			return json.Number(fmt.Sprint(float32(f)))
		}
		return f
	case reflect.Map:
		if v.IsNil() {
			return nil
		}
		m := make(map[string]any, v.Len())
		for it := v.MapRange(); it.Next(); {
			m[fmt.Sprint(it.Key().Interface())] = plainJSON(it.Value())
		}
		return m
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			return nil
		}
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
			return v.Interface() // []byte: base64, as json.Marshal writes it
		}
		s := make([]any, v.Len())
		for i := range s {
			s[i] = plainJSON(v.Index(i))
		}
		return s
	case reflect.Struct:
		m := map[string]any{}
		structFields(v, m)
		return m
	}
	if !v.CanInterface() {
		return nil
	}
	return v.Interface()
}

// structFields adds the fields of struct v that encoding/json writes to m.
func structFields(v reflect.Value, m map[string]any) {
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		fv := v.Field(i)
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				if fv.IsNil() {
					continue
				}
				ft, fv = ft.Elem(), fv.Elem()
			}
			if ft.Kind() == reflect.Struct {
				structFields(fv, m)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if strings.Contains(","+opts+",", ",omitempty,") && isEmptyJSON(fv) {
			continue
		}
		m[name] = plainJSON(fv)
	}
}

// isEmptyJSON reports whether omitempty leaves v out.
func isEmptyJSON(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Interface, reflect.Pointer:
		return v.IsNil()
	}
	return false
}
