package rules

import (
	"cmp"
	"encoding/binary"
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"sync"
)

// A keyWriter appends an exact binary form of what a value's JSON form holds: two values get
// the same key only when encoding/json writes them the same way, so WorkloadInputs may hand
// one's Rego value to the other. It is the JSON form's content without its text (no quoting,
// escaping or number formatting), written by closures built once per type as the encoder's
// are; on a tree of 188 clusters json.Marshal of every workload once per cluster was a sixth
// of the run's CPU.
//
// Every value's form is self-delimiting (lengths before contents, a marker before what may be
// absent), so a key cannot be read two ways. Where two forms differ but the JSON would not
// (an interface's dynamic type, a string's invalid UTF-8), the keys differ too: that only
// converts such a workload twice.
type keyWriter func(b []byte, v reflect.Value) ([]byte, error)

var keyWriters sync.Map // reflect.Type → keyWriter

func keyWriterOf(t reflect.Type) keyWriter {
	return perType(&keyWriters, t, newKeyWriter, func(get func() keyWriter) keyWriter {
		return func(b []byte, v reflect.Value) ([]byte, error) { return get()(b, v) }
	})
}

// Markers before a value that may be absent or null.
const (
	keyNull    = 0
	keyPresent = 1
)

func newKeyWriter(t reflect.Type) keyWriter {
	if t.Implements(jsonMarshaler) || t.Implements(textMarshaler) ||
		(t.Kind() != reflect.Pointer && (reflect.PointerTo(t).Implements(jsonMarshaler) || reflect.PointerTo(t).Implements(textMarshaler))) {
		return keyViaJSON
	}
	switch t.Kind() {
	case reflect.Pointer:
		elem := keyWriterOf(t.Elem())
		return func(b []byte, v reflect.Value) ([]byte, error) {
			if v.IsNil() {
				return append(b, keyNull), nil
			}
			return elem(append(b, keyPresent), v.Elem())
		}
	case reflect.Interface:
		return func(b []byte, v reflect.Value) ([]byte, error) {
			if v.IsNil() {
				return append(b, keyNull), nil
			}
			e := v.Elem()
			b = appendString(append(b, keyPresent), e.Type().String())
			return keyWriterOf(e.Type())(b, e)
		}
	case reflect.Slice, reflect.Array:
		if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 {
			return keyViaJSON
		}
		return listKeyWriter(t)
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return keyViaJSON
		}
		return mapKeyWriter(t)
	case reflect.Struct:
		return structKeyWriter(t)
	}
	return scalarKeyWriter(t)
}

// scalarKeyWriter writes booleans, numbers and strings; other kinds (none in the inventory) by
// their JSON form.
func scalarKeyWriter(t reflect.Type) keyWriter {
	switch t.Kind() {
	case reflect.Bool:
		return func(b []byte, v reflect.Value) ([]byte, error) {
			if v.Bool() {
				return append(b, 1), nil
			}
			return append(b, 0), nil
		}
	case reflect.String:
		return func(b []byte, v reflect.Value) ([]byte, error) { return appendString(b, v.String()), nil }
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return func(b []byte, v reflect.Value) ([]byte, error) { return binary.AppendVarint(b, v.Int()), nil }
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return func(b []byte, v reflect.Value) ([]byte, error) { return binary.AppendUvarint(b, v.Uint()), nil }
	case reflect.Float32, reflect.Float64:
		return func(b []byte, v reflect.Value) ([]byte, error) {
			return binary.BigEndian.AppendUint64(b, math.Float64bits(v.Float())), nil
		}
	}
	return keyViaJSON
}

// listKeyWriter writes a slice or an array: null, or its length and elements.
func listKeyWriter(t reflect.Type) keyWriter {
	elem := keyWriterOf(t.Elem())
	return func(b []byte, v reflect.Value) ([]byte, error) {
		if v.Kind() == reflect.Slice && v.IsNil() {
			return append(b, keyNull), nil
		}
		b = binary.AppendUvarint(append(b, keyPresent), uint64(v.Len()))
		var err error
		for i := 0; i < v.Len() && err == nil; i++ {
			b, err = elem(b, v.Index(i))
		}
		return b, err
	}
}

// mapKeyWriter writes a map keyed by strings: null, or its size and its entries in key order,
// as encoding/json writes them.
func mapKeyWriter(t reflect.Type) keyWriter {
	elem := keyWriterOf(t.Elem())
	return func(b []byte, v reflect.Value) ([]byte, error) {
		if v.IsNil() {
			return append(b, keyNull), nil
		}
		keys := v.MapKeys()
		slices.SortFunc(keys, func(x, y reflect.Value) int { return cmp.Compare(x.String(), y.String()) })
		b = binary.AppendUvarint(append(b, keyPresent), uint64(len(keys)))
		var err error
		for _, k := range keys {
			if b, err = elem(appendString(b, k.String()), v.MapIndex(k)); err != nil {
				return nil, err
			}
		}
		return b, nil
	}
}

// structKeyWriter writes a struct's JSON members in their fixed order, each after a marker:
// absent (left out by omitempty or behind a nil embedded pointer) or present.
func structKeyWriter(t reflect.Type) keyWriter {
	fields := jsonFields(t)
	writers := make([]keyWriter, len(fields))
	for i, f := range fields {
		writers[i] = keyWriterOf(t.FieldByIndex(f.index).Type)
	}
	return func(b []byte, v reflect.Value) ([]byte, error) {
		var err error
		for i, f := range fields {
			fv, ok := fieldByIndex(v, f.index)
			if !ok || (f.omitEmpty && isEmpty(fv)) {
				b = append(b, keyNull)
				continue
			}
			if b, err = writers[i](append(b, keyPresent), fv); err != nil {
				return nil, err
			}
		}
		return b, nil
	}
}

// keyViaJSON writes the JSON form itself, for the kinds whose text is their content (custom
// marshalers, []byte, maps keyed by other than strings).
func keyViaJSON(b []byte, v reflect.Value) ([]byte, error) {
	j, err := json.Marshal(v.Interface())
	if err != nil {
		return nil, err
	}
	return appendString(b, string(j)), nil
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}
