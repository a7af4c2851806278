package rules

import (
	"encoding"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/eni-lint/eni-lint/internal/fanout"
	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/open-policy-agent/opa/v1/ast"
)

// InputValue builds the Rego input from an inventory. The policies see exactly the documented
// input schema, the JSON form of package inventory (its json tags, omitempty included), but
// the value is built directly, without writing JSON and parsing it back: on a monorepo that
// round trip cost as much time as loading and held two more copies of the inventory.
// TestInputValueIsTheJSONForm keeps the two forms equal.
func InputValue(inv *inventory.Inventory) (ast.Value, error) {
	if len(inv.Workloads) < minParallelWorkloads {
		return toValue(reflect.ValueOf(inv))
	}
	return InputValueSharing(inv, nil)
}

// minParallelWorkloads is the fewest workloads converted on more than one core: below that,
// the goroutines cost more than they save.
const minParallelWorkloads = 2000

// WorkloadInputs holds the Rego form of workloads by their JSON form, for a run that evaluates
// several clusters: a workload many clusters hold (a manifest outside every cluster's folder)
// is converted once, not once per cluster. The key is an exact form of the whole JSON form
// (keyWriter), so a workload that differs in anything the policies see is converted on its
// own; the zero value is ready.
type WorkloadInputs struct {
	m sync.Map // key → ast.Value
}

// InputValueSharing is InputValue with the workloads taken from (and added to) shared, when
// it is not nil. The workloads are converted in slices at once, one per core.
func InputValueSharing(inv *inventory.Inventory, shared *WorkloadInputs) (ast.Value, error) {
	if inv.Workloads == nil {
		return toValue(reflect.ValueOf(inv))
	}
	rest := *inv
	rest.Workloads = nil
	top, err := toValue(reflect.ValueOf(&rest))
	if err != nil {
		return nil, err
	}
	obj, ok := top.(ast.Object)
	if !ok {
		return nil, fmt.Errorf("policy input: the inventory is not an object")
	}
	terms := make([]*ast.Term, len(inv.Workloads))
	k := max(1, min(runtime.GOMAXPROCS(0), len(inv.Workloads)/(minParallelWorkloads/2)))
	errs := make([]error, k)
	fanout.Each(k, k, func(c int) {
		errs[c] = convertWorkloads(inv.Workloads, terms, c*len(terms)/k, (c+1)*len(terms)/k, shared)
	})
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	obj.Insert(ast.StringTerm("workloads"), ast.ArrayTerm(terms...))
	return obj, nil
}

// convertWorkloads writes the Rego form of workloads[from:to] into terms[from:to].
func convertWorkloads(workloads []inventory.Workload, terms []*ast.Term, from, to int, shared *WorkloadInputs) error {
	encode := encoderOf(reflect.TypeFor[inventory.Workload]())
	writeKey := keyWriterOf(reflect.TypeFor[inventory.Workload]())
	in := newInterner()
	var buf []byte
	for i := from; i < to; i++ {
		var key string
		if shared != nil {
			var err error
			if buf, err = writeKey(buf[:0], reflect.ValueOf(&workloads[i]).Elem()); err != nil {
				return err
			}
			key = string(buf)
			if v, ok := shared.m.Load(key); ok {
				terms[i] = ast.NewTerm(v.(ast.Value))
				continue
			}
		}
		x, err := encode(reflect.ValueOf(workloads[i]), in)
		if err != nil {
			return fmt.Errorf("workloads: %w", err)
		}
		if shared != nil {
			shared.m.Store(key, x.Value)
		}
		terms[i] = x
	}
	return nil
}

// toValue converts one Go value the way encoding/json would write it.
func toValue(v reflect.Value) (ast.Value, error) {
	t, err := encoderOf(v.Type())(v, newInterner())
	if err != nil {
		return nil, err
	}
	return t.Value, nil
}

// An encoder writes one Go value as a term. Equal scalars, and equal lists and maps of
// scalars, come back as the same term (interner): the input of a monorepo repeats the same
// keys, names, numbers and run spans in every workload, and sharing them more than halved
// the input's memory. The policies never change a term they are given, as OPA's own interned
// terms rely on.
type encoder func(reflect.Value, *interner) (*ast.Term, error)

var encoders sync.Map // reflect.Type → encoder

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
)

func encoderOf(t reflect.Type) encoder {
	return perType(&encoders, t, newEncoder, func(get func() encoder) encoder {
		return func(v reflect.Value, in *interner) (*ast.Term, error) { return get()(v, in) }
	})
}

// perType is the function cache holds for t, built by build the first time. A recursive type
// finds its own function while it is built through forward, which calls the finished one:
// encoders and key writers are built this way.
func perType[F any](cache *sync.Map, t reflect.Type, build func(reflect.Type) F, forward func(get func() F) F) F {
	if f, ok := cache.Load(t); ok {
		return f.(F)
	}
	var (
		wg sync.WaitGroup
		f  F
	)
	wg.Add(1)
	actual, loaded := cache.LoadOrStore(t, forward(func() F {
		wg.Wait()
		return f
	}))
	if loaded {
		return actual.(F)
	}
	f = build(t)
	wg.Done()
	cache.Store(t, f)
	return f
}

func newEncoder(t reflect.Type) encoder {
	// Types with their own JSON form are written by it: none in the inventory today, but a new
	// one must not silently change what the policies see.
	if t.Implements(jsonMarshaler) || t.Implements(textMarshaler) ||
		(t.Kind() != reflect.Pointer && (reflect.PointerTo(t).Implements(jsonMarshaler) || reflect.PointerTo(t).Implements(textMarshaler))) {
		return viaJSON
	}
	switch t.Kind() {
	case reflect.Bool:
		return func(v reflect.Value, _ *interner) (*ast.Term, error) { return ast.InternedTerm(v.Bool()), nil }
	case reflect.String:
		return func(v reflect.Value, in *interner) (*ast.Term, error) { return in.string(v.String()), nil }
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return func(v reflect.Value, in *interner) (*ast.Term, error) { return in.number(v.Int()), nil }
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return func(v reflect.Value, in *interner) (*ast.Term, error) {
			u := v.Uint()
			if u > math.MaxInt64 {
				return ast.NewTerm(ast.Number(strconv.FormatUint(u, 10))), nil
			}
			return in.number(int64(u)), nil
		}
	case reflect.Float32, reflect.Float64:
		// encoding/json's float format (shortest form, exponent for the very large or small).
		return viaJSON
	case reflect.Pointer, reflect.Interface:
		return func(v reflect.Value, in *interner) (*ast.Term, error) {
			if v.IsNil() {
				return ast.InternedNullTerm, nil
			}
			return encoderOf(v.Elem().Type())(v.Elem(), in)
		}
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return viaJSON // base64, as encoding/json writes []byte
		}
		fallthrough
	case reflect.Array:
		return listEncoder(t)
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return viaJSON
		}
		return mapEncoder(t)
	case reflect.Struct:
		return structEncoder(t)
	}
	return func(reflect.Value, *interner) (*ast.Term, error) {
		return nil, fmt.Errorf("policy input: %s has no JSON form", t)
	}
}

// listEncoder writes a slice (null when nil) or an array as an array.
func listEncoder(t reflect.Type) encoder {
	elem := encoderOf(t.Elem())
	return func(v reflect.Value, in *interner) (*ast.Term, error) {
		if v.Kind() == reflect.Slice && v.IsNil() {
			return ast.InternedNullTerm, nil
		}
		if v.Len() == 0 {
			return ast.InternedEmptyArray, nil
		}
		terms := make([]*ast.Term, v.Len())
		for i := range terms {
			x, err := elem(v.Index(i), in)
			if err != nil {
				return nil, err
			}
			terms[i] = x
		}
		return in.composite(terms, nil, func() *ast.Term { return ast.NewTerm(ast.NewArray(terms...)) }), nil
	}
}

// mapEncoder writes a map with string keys as an object (null when nil).
func mapEncoder(t reflect.Type) encoder {
	elem := encoderOf(t.Elem())
	return func(v reflect.Value, in *interner) (*ast.Term, error) {
		if v.IsNil() {
			return ast.InternedNullTerm, nil
		}
		if v.Len() == 0 {
			return ast.InternedEmptyObject, nil
		}
		pairs := make([][2]*ast.Term, 0, v.Len())
		it := v.MapRange()
		for it.Next() {
			x, err := elem(it.Value(), in)
			if err != nil {
				return nil, err
			}
			pairs = append(pairs, [2]*ast.Term{in.string(it.Key().String()), x})
		}
		// Go's map order is random: sorted, equal maps give the same key for the interner.
		slices.SortFunc(pairs, func(a, b [2]*ast.Term) int { return ast.Compare(a[0], b[0]) })
		keys := make([]*ast.Term, len(pairs))
		values := make([]*ast.Term, len(pairs))
		for i, p := range pairs {
			keys[i], values[i] = p[0], p[1]
		}
		return in.composite(values, keys, func() *ast.Term { return ast.NewTerm(ast.NewObject(pairs...)) }), nil
	}
}

// viaJSON writes a value with encoding/json and reads it back: for the few kinds whose JSON
// form is not worth rewriting here (floats, custom marshalers).
func viaJSON(v reflect.Value, _ *interner) (*ast.Term, error) {
	b, err := json.Marshal(v.Interface())
	if err != nil {
		return nil, err
	}
	x, err := ast.ValueFromReader(strings.NewReader(string(b)))
	if err != nil {
		return nil, err
	}
	return ast.NewTerm(x), nil
}

// interner hands out one term per distinct scalar, and per distinct list or map whose members
// are all scalars it has handed out, during one conversion (one goroutine's: it is not safe
// for concurrent use).
type interner struct {
	strings, composites map[string]*ast.Term
	// numbers are keyed by value: formatting each number only to look it up cost an
	// allocation per number.
	numbers map[int64]*ast.Term
	scalars map[*ast.Term]bool
	key     []byte
}

func newInterner() *interner {
	return &interner{strings: map[string]*ast.Term{}, numbers: map[int64]*ast.Term{}, composites: map[string]*ast.Term{}, scalars: map[*ast.Term]bool{}}
}

func (in *interner) string(s string) *ast.Term {
	if t, ok := in.strings[s]; ok {
		return t
	}
	t := ast.StringTerm(s)
	in.strings[s], in.scalars[t] = t, true
	return t
}

func (in *interner) number(n int64) *ast.Term {
	if t, ok := in.numbers[n]; ok {
		return t
	}
	t := ast.NewTerm(ast.Number(strconv.FormatInt(n, 10)))
	in.numbers[n], in.scalars[t] = t, true
	return t
}

// composite is the term build makes of a list (keys nil) or a map of the members given, shared
// with an earlier equal one when every member is a scalar of this interner: equal scalars are
// the same term, so their addresses identify the content.
func (in *interner) composite(values, keys []*ast.Term, build func() *ast.Term) *ast.Term {
	in.key = in.key[:0]
	if keys == nil {
		in.key = append(in.key, 'a')
	} else {
		in.key = append(in.key, 'o')
	}
	for i, v := range values {
		if !in.scalars[v] || (keys != nil && !in.scalars[keys[i]]) {
			return build()
		}
		in.key = binary.LittleEndian.AppendUint64(in.key, uint64(uintptr(unsafe.Pointer(v))))
		if keys != nil {
			in.key = binary.LittleEndian.AppendUint64(in.key, uint64(uintptr(unsafe.Pointer(keys[i]))))
		}
	}
	if t, ok := in.composites[string(in.key)]; ok {
		return t
	}
	t := build()
	in.composites[string(in.key)] = t
	return t
}

// field is one JSON member of a struct: where it is (an index path through embedded structs),
// its name, and whether an empty value is left out.
type field struct {
	index     []int
	name      string
	omitEmpty bool
	encode    encoder
	// key is the member's name as a term, shared by every object of the type.
	key *ast.Term
}

func structEncoder(t reflect.Type) encoder {
	fields := jsonFields(t)
	return func(v reflect.Value, in *interner) (*ast.Term, error) {
		pairs := make([][2]*ast.Term, 0, len(fields))
		for _, f := range fields {
			fv, ok := fieldByIndex(v, f.index)
			if !ok || (f.omitEmpty && isEmpty(fv)) {
				continue
			}
			x, err := f.encode(fv, in)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", f.name, err)
			}
			pairs = append(pairs, [2]*ast.Term{f.key, x})
		}
		return ast.NewTerm(ast.NewObject(pairs...)), nil
	}
}

// jsonFields lists a struct's JSON members as encoding/json does: exported fields, renamed by
// their tag, "-" left out, the fields of untagged embedded structs promoted, and a name at a
// shallower depth hiding the same name deeper down.
func jsonFields(t reflect.Type) []field {
	type found struct {
		field
		depth int
	}
	var all []found
	var walk func(t reflect.Type, index []int, depth int)
	walk = func(t reflect.Type, index []int, depth int) {
		for i := 0; i < t.NumField(); i++ {
			sf := t.Field(i)
			tag := sf.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			idx := append(append([]int{}, index...), i)
			if sf.Anonymous && name == "" {
				et := sf.Type
				if et.Kind() == reflect.Pointer {
					et = et.Elem()
				}
				if et.Kind() == reflect.Struct {
					walk(et, idx, depth+1)
					continue
				}
			}
			if !sf.IsExported() {
				continue
			}
			if name == "" {
				name = sf.Name
			}
			all = append(all, found{field{index: idx, name: name, omitEmpty: hasOption(opts, "omitempty"), encode: encoderOf(sf.Type), key: ast.StringTerm(name)}, depth})
		}
	}
	walk(t, nil, 0)
	shallowest := map[string]int{}
	count := map[[2]any]int{}
	for _, f := range all {
		if d, ok := shallowest[f.name]; !ok || f.depth < d {
			shallowest[f.name] = f.depth
		}
		count[[2]any{f.name, f.depth}]++
	}
	var out []field
	for _, f := range all {
		// Two fields of one name at the same depth cancel out, as in encoding/json.
		if f.depth == shallowest[f.name] && count[[2]any{f.name, f.depth}] == 1 {
			out = append(out, f.field)
		}
	}
	return out
}

func hasOption(opts, want string) bool {
	for _, o := range strings.Split(opts, ",") {
		if o == want {
			return true
		}
	}
	return false
}

// fieldByIndex follows an index path; false when it passes through a nil embedded pointer.
func fieldByIndex(v reflect.Value, index []int) (reflect.Value, bool) {
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return reflect.Value{}, false
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v, true
}

// isEmpty is encoding/json's omitempty test.
func isEmpty(v reflect.Value) bool {
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
