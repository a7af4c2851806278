package rules

import (
	"encoding/json"
	"math/rand"
	"reflect"
	"testing"

	"github.com/eni-lint/eni-lint/pkg/inventory"
)

// TestWorkloadKeysAreTheJSONForm: two workloads get the same key exactly when encoding/json
// writes them the same way. The workloads are filled at random (every field of the inventory
// reached, omitempty, null and promoted fields all occurring) and each has near copies that
// differ in one member, refilled, or in nothing.
func TestWorkloadKeysAreTheJSONForm(t *testing.T) {
	writeKey := keyWriterOf(reflect.TypeFor[inventory.Workload]())
	fields := jsonFields(reflect.TypeFor[inventory.Workload]())
	var workloads []inventory.Workload
	for seed := int64(0); seed < 150; seed++ {
		rng := rand.New(rand.NewSource(seed))
		var w inventory.Workload
		fill(reflect.ValueOf(&w).Elem(), rng, 0)
		workloads = append(workloads, w)
		for c := 0; c < 3; c++ {
			var near inventory.Workload
			fill(reflect.ValueOf(&near).Elem(), rand.New(rand.NewSource(seed)), 0) // the same values, not shared
			if c > 0 {
				f := fields[rng.Intn(len(fields))]
				v, ok := fieldByIndex(reflect.ValueOf(&near).Elem(), f.index)
				if ok {
					v.Set(reflect.Zero(v.Type()))
					fill(v, rng, 1)
				}
			}
			workloads = append(workloads, near)
		}
	}
	keys := make([]string, len(workloads))
	forms := make([]string, len(workloads))
	for i := range workloads {
		b, err := writeKey(nil, reflect.ValueOf(&workloads[i]).Elem())
		if err != nil {
			t.Fatal(err)
		}
		j, err := json.Marshal(&workloads[i])
		if err != nil {
			t.Fatal(err)
		}
		keys[i], forms[i] = string(b), string(j)
	}
	same := 0
	for i := range workloads {
		for j := i + 1; j < len(workloads); j++ {
			if (keys[i] == keys[j]) != (forms[i] == forms[j]) {
				t.Fatalf("workloads %d and %d: same key %v, same JSON form %v\n%s\n%s", i, j, keys[i] == keys[j], forms[i] == forms[j], forms[i], forms[j])
			}
			if keys[i] == keys[j] {
				same++
			}
		}
	}
	if same < 150 {
		t.Fatalf("only %d pairs with the same form: the test does not compare equal workloads", same)
	}
}

// BenchmarkWorkloadKey compares the key with the JSON form it replaced.
func BenchmarkWorkloadKey(b *testing.B) {
	var w inventory.Workload
	fill(reflect.ValueOf(&w).Elem(), rand.New(rand.NewSource(7)), 0)
	writeKey := keyWriterOf(reflect.TypeFor[inventory.Workload]())
	b.Run("key", func(b *testing.B) {
		var buf []byte
		for b.Loop() {
			buf, _ = writeKey(buf[:0], reflect.ValueOf(&w).Elem())
		}
	})
	b.Run("json", func(b *testing.B) {
		for b.Loop() {
			_, _ = json.Marshal(&w)
		}
	})
}

// TestWorkloadKeysTellApartWhatTheJSONFormDoes: pairs a key without lengths, markers or full
// contents would confuse.
func TestWorkloadKeysTellApartWhatTheJSONFormDoes(t *testing.T) {
	one := 1
	zero := 0
	base := func(edit func(w *inventory.Workload)) inventory.Workload {
		w := inventory.Workload{Object: inventory.Object{Kind: "Job", Name: "a", Namespace: "b"}}
		edit(&w)
		return w
	}
	pairs := []struct {
		name string
		a, b inventory.Workload
	}{
		{"strings split elsewhere", base(func(w *inventory.Workload) { w.Name, w.Namespace = "ab", "c" }), base(func(w *inventory.Workload) { w.Name, w.Namespace = "a", "bc" })},
		{"strings with a common start", base(func(w *inventory.Workload) { w.Name = "spec.template" }), base(func(w *inventory.Workload) { w.Name = "spec.other" })},
		{"a map's keys and values", base(func(w *inventory.Workload) { w.Pod.Labels = map[string]string{"a": "bc"} }), base(func(w *inventory.Workload) { w.Pod.Labels = map[string]string{"ab": "c"} })},
		{"nil and empty map", base(func(w *inventory.Workload) { w.Pod.Labels = nil }), base(func(w *inventory.Workload) { w.Pod.Labels = map[string]string{} })},
		{"nil and empty slice", base(func(w *inventory.Workload) { w.Ignores = nil }), base(func(w *inventory.Workload) { w.Ignores = []inventory.Ignore{} })},
		{"absent and zero", base(func(w *inventory.Workload) { w.Replicas = nil }), base(func(w *inventory.Workload) { w.Replicas = &zero })},
		{"one field or another", base(func(w *inventory.Workload) { w.Replicas = &one }), base(func(w *inventory.Workload) { w.MaxSurge = &one })},
	}
	writeKey := keyWriterOf(reflect.TypeFor[inventory.Workload]())
	for _, p := range pairs {
		ja, _ := json.Marshal(&p.a)
		jb, _ := json.Marshal(&p.b)
		if string(ja) == string(jb) {
			t.Fatalf("%s: the pair has one JSON form; the test is wrong", p.name)
		}
		ka, err := writeKey(nil, reflect.ValueOf(&p.a).Elem())
		if err != nil {
			t.Fatal(err)
		}
		kb, _ := writeKey(nil, reflect.ValueOf(&p.b).Elem())
		if string(ka) == string(kb) {
			t.Errorf("%s: one key for two JSON forms", p.name)
		}
	}
}
