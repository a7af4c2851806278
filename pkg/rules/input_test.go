package rules

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"reflect"
	"testing"

	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/open-policy-agent/opa/v1/ast"
)

// jsonForm is the input as the policies' schema defines it: the inventory's JSON, parsed.
func jsonForm(t *testing.T, v any) ast.Value {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	x, err := ast.ValueFromReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// fill sets every field of v from rng: each pointer, slice and map is nil, empty or filled,
// each scalar zero or not, so that omitempty, null and promoted fields all occur. Every field
// of the inventory is reached, so a new field or type the direct encoder gets wrong fails here.
func fill(v reflect.Value, rng *rand.Rand, depth int) {
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(rng.Intn(2) == 0)
	case reflect.String:
		v.SetString([]string{"", "a", "spec.template", "ünï \"q\"", "0"}[rng.Intn(5)])
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt([]int64{0, 1, -3, 1 << 40}[rng.Intn(4)])
	case reflect.Float32, reflect.Float64:
		v.SetFloat([]float64{0, 0.5, 1e21, 1e-7, 3}[rng.Intn(5)])
	case reflect.Pointer:
		if depth > 6 || rng.Intn(3) == 0 {
			return
		}
		p := reflect.New(v.Type().Elem())
		fill(p.Elem(), rng, depth+1)
		v.Set(p)
	case reflect.Slice:
		switch rng.Intn(3) {
		case 0:
			return
		case 1:
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
		default:
			n := 1 + rng.Intn(3)
			s := reflect.MakeSlice(v.Type(), n, n)
			for i := 0; i < n; i++ {
				fill(s.Index(i), rng, depth+1)
			}
			v.Set(s)
		}
	case reflect.Map:
		switch rng.Intn(3) {
		case 0:
			return
		case 1:
			v.Set(reflect.MakeMap(v.Type()))
		default:
			m := reflect.MakeMap(v.Type())
			for i := 0; i < 1+rng.Intn(3); i++ {
				k := reflect.New(v.Type().Key()).Elem()
				k.SetString(fmt.Sprintf("k%d", i))
				e := reflect.New(v.Type().Elem()).Elem()
				fill(e, rng, depth+1)
				m.SetMapIndex(k, e)
			}
			v.Set(m)
		}
	case reflect.Interface:
		// What a policy's details hold: JSON values of every kind.
		if v.NumMethod() == 0 && depth < 6 {
			switch rng.Intn(6) {
			case 0:
				return
			case 1:
				v.Set(reflect.ValueOf(float64(rng.Intn(100)) / 4))
			case 2:
				v.Set(reflect.ValueOf("s"))
			case 3:
				v.Set(reflect.ValueOf(rng.Intn(2) == 0))
			case 4:
				m := map[string]any{}
				for i := 0; i < rng.Intn(3); i++ {
					var x any
					fill(reflect.ValueOf(&x).Elem(), rng, depth+1)
					m[fmt.Sprintf("k%d", i)] = x
				}
				v.Set(reflect.ValueOf(m))
			default:
				var a []any
				for i := 0; i < rng.Intn(3); i++ {
					var x any
					fill(reflect.ValueOf(&x).Elem(), rng, depth+1)
					a = append(a, x)
				}
				v.Set(reflect.ValueOf(a))
			}
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), rng, depth+1)
			}
		}
	}
}

func TestInputValueIsTheJSONForm(t *testing.T) {
	for seed := int64(0); seed < 200; seed++ {
		var inv inventory.Inventory
		fill(reflect.ValueOf(&inv).Elem(), rand.New(rand.NewSource(seed)), 0)
		got, err := InputValue(&inv)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if want := jsonForm(t, &inv); ast.Compare(got, want) != 0 {
			t.Fatalf("seed %d: the direct input differs from the JSON form\n got: %v\nwant: %v", seed, got, want)
		}
	}
}

// The input built with workloads shared across a run's evaluations is the JSON form too: for
// random inventories, converted once into an empty cache, again from the cache, and with one
// workload changed after its twin was cached (it must not come back from the cache).
// TestInputValueOfManyWorkloadsIsTheJSONForm: from minParallelWorkloads on, the workloads are
// converted in slices at once; the result is still the JSON form, in order.
func TestInputValueOfManyWorkloadsIsTheJSONForm(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	var inv inventory.Inventory
	fill(reflect.ValueOf(&inv).Elem(), rng, 0)
	inv.Workloads = make([]inventory.Workload, minParallelWorkloads+37)
	for i := range inv.Workloads {
		fill(reflect.ValueOf(&inv.Workloads[i]).Elem(), rng, 1)
		inv.Workloads[i].ID = fmt.Sprintf("w%d", i)
	}
	want := jsonForm(t, &inv)
	got, err := InputValue(&inv)
	if err != nil {
		t.Fatal(err)
	}
	if ast.Compare(got, want) != 0 {
		t.Fatal("the input of many workloads differs from the JSON form")
	}
	got, err = InputValueSharing(&inv, &WorkloadInputs{})
	if err != nil {
		t.Fatal(err)
	}
	if ast.Compare(got, want) != 0 {
		t.Fatal("the shared input of many workloads differs from the JSON form")
	}
}

func TestInputValueSharingIsTheJSONForm(t *testing.T) {
	shared := &WorkloadInputs{}
	for seed := int64(0); seed < 200; seed++ {
		var inv inventory.Inventory
		fill(reflect.ValueOf(&inv).Elem(), rand.New(rand.NewSource(seed)), 0)
		for pass := 0; pass < 2; pass++ {
			got, err := InputValueSharing(&inv, shared)
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			if want := jsonForm(t, &inv); ast.Compare(got, want) != 0 {
				t.Fatalf("seed %d pass %d: the shared input differs from the JSON form\n got: %v\nwant: %v", seed, pass, got, want)
			}
		}
		if len(inv.Workloads) == 0 {
			continue
		}
		inv.Workloads[0].Name += "-changed"
		got, err := InputValueSharing(&inv, shared)
		if err != nil {
			t.Fatal(err)
		}
		if want := jsonForm(t, &inv); ast.Compare(got, want) != 0 {
			t.Fatalf("seed %d: a changed workload came back from the cache", seed)
		}
	}
}

func TestInputValueOfAnEmptyInventory(t *testing.T) {
	got, err := InputValue(&inventory.Inventory{})
	if err != nil {
		t.Fatal(err)
	}
	if want := jsonForm(t, &inventory.Inventory{}); ast.Compare(got, want) != 0 {
		t.Fatalf("got %v, want %v", got, want)
	}
}

// Embedded structs follow encoding/json: untagged ones are promoted, a shallower name hides a
// deeper one, two at one depth cancel out, and a nil embedded pointer contributes nothing.
func TestInputValueEmbedding(t *testing.T) {
	type inner struct {
		A int `json:"a"`
		B int `json:"b,omitempty"`
	}
	type other struct {
		C int `json:"c"`
	}
	type clash struct {
		C int `json:"c"`
	}
	type outer struct {
		inner
		*other
		clash
		A      string `json:"a"`
		Tagged inner  `json:"tagged"`
		Hidden string `json:"-"`
		Dash   string `json:"-,"`
		Plain  string
		small  int
	}
	cases := []outer{
		{inner: inner{A: 1, B: 2}, A: "x", Tagged: inner{A: 3}, Hidden: "h", Dash: "d", Plain: "p", small: 1},
		{other: &other{C: 5}, clash: clash{C: 6}},
	}
	for i, c := range cases {
		got, err := toValue(reflect.ValueOf(c))
		if err != nil {
			t.Fatal(err)
		}
		if want := jsonForm(t, c); ast.Compare(got, want) != 0 {
			t.Errorf("case %d: got %v, want %v", i, got, want)
		}
	}
}

// The report a policy returns is read straight from its term (fromValue); it must be what
// unmarshalling the term's JSON form gives, for every shape the report types have.
func TestFromValueIsJSONUnmarshal(t *testing.T) {
	for seed := int64(0); seed < 200; seed++ {
		var in policyReport
		fill(reflect.ValueOf(&in).Elem(), rand.New(rand.NewSource(seed)), 0)
		v, err := toValue(reflect.ValueOf(&in))
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		var got, want policyReport
		if err := fromValue(v, reflect.ValueOf(&got).Elem()); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		plain, err := ast.JSON(v)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(plain)
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("seed %d: fromValue differs from json.Unmarshal\n got: %+v\nwant: %+v", seed, got, want)
		}
	}
}

func TestFromValueRejectsWhatJSONCannotHold(t *testing.T) {
	var out policyReport
	for _, src := range []string{
		`{"findings": [{"rule": 1}]}`,
		`{"rows": [{"hidden": 1.5}]}`,
		`{"findings": [{"details": {"x": {1: 2}}}]}`,
		`{"configIgnores": "no"}`,
	} {
		if err := fromValue(ast.MustParseTerm(src).Value, reflect.ValueOf(&out).Elem()); err == nil {
			t.Errorf("%s: no error", src)
		}
	}
	// A set (a custom rule may return one in its details) is read as its sorted members.
	var f policyFinding
	if err := fromValue(ast.MustParseTerm(`{"details": {"s": {"b", "a"}}}`).Value, reflect.ValueOf(&f).Elem()); err != nil {
		t.Fatal(err)
	}
	if got := f.Details["s"]; !reflect.DeepEqual(got, []any{"a", "b"}) {
		t.Errorf("set read as %v", got)
	}
}

// BenchmarkInputValue converts an inventory of 20,000 workloads, as a 32k-document tree has.
func BenchmarkInputValue(b *testing.B) {
	rng := rand.New(rand.NewSource(7))
	var inv inventory.Inventory
	inv.Workloads = make([]inventory.Workload, 20000)
	for i := range inv.Workloads {
		fill(reflect.ValueOf(&inv.Workloads[i]).Elem(), rng, 1)
	}
	b.ResetTimer()
	for range b.N {
		if _, err := InputValue(&inv); err != nil {
			b.Fatal(err)
		}
	}
}

// The input of a monorepo repeats the same run spans, labels and numbers in every workload:
// the conversion gives equal ones one term, which is most of what keeps the input small.
func TestEqualMembersShareOneTerm(t *testing.T) {
	workload := func(spans []int, labels map[string]string) inventory.Workload {
		return inventory.Workload{
			Object:  inventory.Object{Kind: "CronJob", Name: "x"},
			CronJob: &inventory.CronJobSpec{Schedule: "*/5 * * * *", RunSpans: spans},
			Pod:     inventory.PodTemplate{Labels: labels},
		}
	}
	workloads := []inventory.Workload{
		workload([]int{300, 600}, map[string]string{"a": "1", "b": "2"}),
		workload([]int{300, 600}, map[string]string{"b": "2", "a": "1"}),
		workload([]int{300, 601}, map[string]string{"a": "1"}),
	}
	terms := make([]*ast.Term, len(workloads))
	if err := convertWorkloads(workloads, terms, 0, len(terms), nil); err != nil {
		t.Fatal(err)
	}
	member := func(i int, path ...string) *ast.Term {
		x := terms[i]
		for _, p := range path {
			x = x.Value.(ast.Object).Get(ast.StringTerm(p))
		}
		return x
	}
	if member(0, "cronJob", "runSpans") != member(1, "cronJob", "runSpans") {
		t.Error("equal run spans are two terms")
	}
	if member(0, "pod", "labels") != member(1, "pod", "labels") {
		t.Error("equal labels are two terms")
	}
	if member(0, "cronJob", "runSpans") == member(2, "cronJob", "runSpans") || member(0, "pod", "labels") == member(2, "pod", "labels") {
		t.Error("different members share a term")
	}
	if member(0, "cronJob", "schedule") != member(2, "cronJob", "schedule") {
		t.Error("equal strings are two terms")
	}
	for i := range workloads {
		if want := jsonForm(t, workloads[i]); ast.Compare(terms[i].Value, want) != 0 {
			t.Errorf("workload %d: %v, want %v", i, terms[i], want)
		}
	}
}
