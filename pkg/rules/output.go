package rules

import (
	"fmt"
	"reflect"

	"github.com/open-policy-agent/opa/v1/ast"
)

// fromValue stores a policy result into dst the way encoding/json would unmarshal the
// result's JSON form (json tags, promoted embedded structs, null leaving a field at its zero
// value, numbers in an `any` as float64), without writing that JSON: on a monorepo, converting
// the report to Go values, marshalling and unmarshalling it took longer than the rules that
// produced it. TestFromValueIsJSONUnmarshal keeps the two equal.
func fromValue(v ast.Value, dst reflect.Value) error {
	if _, null := v.(ast.Null); null {
		switch dst.Kind() {
		case reflect.Interface, reflect.Pointer, reflect.Map, reflect.Slice:
			dst.Set(reflect.Zero(dst.Type()))
		}
		return nil
	}
	switch dst.Kind() {
	case reflect.Pointer:
		if dst.IsNil() {
			dst.Set(reflect.New(dst.Type().Elem()))
		}
		return fromValue(v, dst.Elem())
	case reflect.Interface:
		return interfaceFromValue(v, dst)
	case reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Float32, reflect.Float64:
		return scalarFromValue(v, dst)
	case reflect.Slice:
		return sliceFromValue(v, dst)
	case reflect.Map:
		return mapFromValue(v, dst)
	case reflect.Struct:
		return structFromValue(v, dst)
	}
	return fmt.Errorf("cannot store a policy result in %s", dst.Type())
}

// interfaceFromValue stores v in an empty interface as encoding/json would: maps, slices,
// float64s, strings and booleans.
func interfaceFromValue(v ast.Value, dst reflect.Value) error {
	if dst.NumMethod() != 0 {
		return fmt.Errorf("cannot store %s in %s", ast.ValueName(v), dst.Type())
	}
	x, err := plainValue(v)
	if err != nil {
		return err
	}
	if x == nil {
		dst.Set(reflect.Zero(dst.Type()))
	} else {
		dst.Set(reflect.ValueOf(x))
	}
	return nil
}

// scalarFromValue stores a string, boolean or number.
func scalarFromValue(v ast.Value, dst reflect.Value) error {
	switch dst.Kind() {
	case reflect.String:
		s, ok := v.(ast.String)
		if !ok {
			return fmt.Errorf("want a string, got %s", ast.ValueName(v))
		}
		dst.SetString(string(s))
		return nil
	case reflect.Bool:
		b, ok := v.(ast.Boolean)
		if !ok {
			return fmt.Errorf("want a boolean, got %s", ast.ValueName(v))
		}
		dst.SetBool(bool(b))
		return nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, ok := v.(ast.Number)
		if !ok {
			return fmt.Errorf("want a number, got %s", ast.ValueName(v))
		}
		i, ok := n.Int64()
		if !ok || dst.OverflowInt(i) {
			return fmt.Errorf("number %s is not an integer of %s", n, dst.Type())
		}
		dst.SetInt(i)
		return nil
	case reflect.Float32, reflect.Float64:
		n, ok := v.(ast.Number)
		if !ok {
			return fmt.Errorf("want a number, got %s", ast.ValueName(v))
		}
		f, ok := n.Float64()
		if !ok {
			return fmt.Errorf("number %s is out of range", n)
		}
		dst.SetFloat(f)
		return nil
	}
	return fmt.Errorf("cannot store a policy result in %s", dst.Type())
}

func sliceFromValue(v ast.Value, dst reflect.Value) error {
	elems, err := elements(v)
	if err != nil {
		return err
	}
	s := reflect.MakeSlice(dst.Type(), len(elems), len(elems))
	for i, e := range elems {
		if err := fromValue(e.Value, s.Index(i)); err != nil {
			return fmt.Errorf("[%d]: %w", i, err)
		}
	}
	dst.Set(s)
	return nil
}

// mapFromValue stores an object in a map keyed by strings.
func mapFromValue(v ast.Value, dst reflect.Value) error {
	obj, ok := v.(ast.Object)
	if !ok || dst.Type().Key().Kind() != reflect.String {
		return fmt.Errorf("want an object, got %s", ast.ValueName(v))
	}
	if dst.IsNil() {
		dst.Set(reflect.MakeMapWithSize(dst.Type(), obj.Len()))
	}
	var err error
	obj.Foreach(func(k, x *ast.Term) {
		key, ok := k.Value.(ast.String)
		if err != nil {
			return
		}
		if !ok {
			err = fmt.Errorf("object key %s is not a string", k)
			return
		}
		e := reflect.New(dst.Type().Elem()).Elem()
		if err = fromValue(x.Value, e); err != nil {
			err = fmt.Errorf("%s: %w", key, err)
			return
		}
		dst.SetMapIndex(reflect.ValueOf(string(key)).Convert(dst.Type().Key()), e)
	})
	return err
}

// structFromValue stores an object's members in a struct's JSON fields; members it has no
// field for are left out, as encoding/json leaves them.
func structFromValue(v ast.Value, dst reflect.Value) error {
	obj, ok := v.(ast.Object)
	if !ok {
		return fmt.Errorf("want an object, got %s", ast.ValueName(v))
	}
	for _, f := range jsonFields(dst.Type()) {
		x := obj.Get(ast.InternedTerm(f.name))
		if x == nil {
			continue
		}
		fv, err := settableField(dst, f.index)
		if err != nil {
			return err
		}
		if err := fromValue(x.Value, fv); err != nil {
			return fmt.Errorf("%s: %w", f.name, err)
		}
	}
	return nil
}

// settableField follows an index path, allocating nil embedded pointers on the way.
func settableField(v reflect.Value, index []int) (reflect.Value, error) {
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				if !v.CanSet() {
					return reflect.Value{}, fmt.Errorf("cannot set embedded %s", v.Type())
				}
				v.Set(reflect.New(v.Type().Elem()))
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v, nil
}

// elements lists an array's or a set's members (a set in its sorted order, as ast.JSON does).
func elements(v ast.Value) ([]*ast.Term, error) {
	switch x := v.(type) {
	case *ast.Array:
		out := make([]*ast.Term, x.Len())
		for i := range out {
			out[i] = x.Elem(i)
		}
		return out, nil
	case ast.Set:
		return x.Slice(), nil // ordered
	}
	return nil, fmt.Errorf("want an array, got %s", ast.ValueName(v))
}

// plainValue is the value encoding/json would decode into an `any`: maps, slices, strings,
// booleans, float64 and nil.
func plainValue(v ast.Value) (any, error) {
	switch x := v.(type) {
	case ast.Null:
		return nil, nil
	case ast.Boolean:
		return bool(x), nil
	case ast.String:
		return string(x), nil
	case ast.Number:
		f, ok := x.Float64()
		if !ok {
			return nil, fmt.Errorf("number %s is out of range", x)
		}
		return f, nil
	case *ast.Array, ast.Set:
		elems, _ := elements(v)
		out := make([]any, len(elems))
		for i, e := range elems {
			p, err := plainValue(e.Value)
			if err != nil {
				return nil, err
			}
			out[i] = p
		}
		return out, nil
	case ast.Object:
		out := make(map[string]any, x.Len())
		var err error
		x.Foreach(func(k, e *ast.Term) {
			if err != nil {
				return
			}
			key, ok := k.Value.(ast.String)
			if !ok {
				err = fmt.Errorf("object key %s is not a string", k)
				return
			}
			var p any
			if p, err = plainValue(e.Value); err == nil {
				out[string(key)] = p
			}
		})
		return out, err
	}
	return nil, fmt.Errorf("a policy returned %s, which has no JSON form", ast.ValueName(v))
}
