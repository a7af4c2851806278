package rules

import (
	"fmt"
	"sort"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Classes are data preparation, like parsing: workloads that share a placement key (the pod
// fields the scheduler matches against nodes) and a numbers view (the fields the model's
// figures read) add the same figures to the same rows, so the policies work a class out once
// and multiply it by its members (policies/lib/contributions.rego, §6a). Grouping them in Rego cost a
// pass that built each workload's key as a new object, and a set of those keys: a tenth of
// a pull request's evaluation. The engine groups them here, from the workloads' Rego values,
// and gives the policies input.classes (each class's [placement key, numbers fields, restart
// policy], in the order Rego sorts them, so that a class has the position it had) and
// input.classOf (each workload's class by id). Which workloads hold branch ENIs, and every
// figure and finding, are still the policies' to decide; an input without classes (the
// policies' own tests) is grouped by the policies as before, and TestGoClassesGiveTheSameReport
// compares the two on every scenario.

// numbersFieldsRef is the policies' list of the workload fields a class's figures read.
var numbersFieldsRef = ast.MustParseRef("data.eni.model.numbers_fields")

// numbersFields reads numbers_fields from the compiled policies: one list, written once in
// Rego, that both groupings use.
func numbersFields(c *ast.Compiler) ([]*ast.Term, error) {
	rules := c.GetRulesExact(numbersFieldsRef)
	if len(rules) != 1 || rules[0].Head.Value == nil {
		return nil, fmt.Errorf("the policies define %s %d times, want one constant set", numbersFieldsRef, len(rules))
	}
	set, ok := rules[0].Head.Value.Value.(ast.Set)
	if !ok {
		return nil, fmt.Errorf("%s is not a set of field names", numbersFieldsRef)
	}
	var out []*ast.Term
	set.Foreach(func(t *ast.Term) { out = append(out, t) })
	return out, nil
}

var (
	podKey           = ast.InternedTerm("pod")
	idKey            = ast.InternedTerm("id")
	nodeSelectorKey  = ast.InternedTerm("nodeSelector")
	affinityKey      = ast.InternedTerm("requiredNodeAffinity")
	tolerationsKey   = ast.InternedTerm("tolerations")
	restartPolicyKey = ast.InternedTerm("restartPolicy")
	alwaysTerm       = ast.StringTerm("Always")
)

// classKey is a workload's [placement key, numbers fields, restart policy], as contributions.rego's
// _classified writes it; ok is false where that is undefined there (no pod, or a placement
// field missing), and the workload then has no class.
func classKey(w ast.Value, fields []*ast.Term) (*ast.Term, bool) {
	obj, ok := w.(ast.Object)
	if !ok {
		return nil, false
	}
	podTerm := obj.Get(podKey)
	if podTerm == nil {
		return nil, false
	}
	pod, ok := podTerm.Value.(ast.Object)
	if !ok {
		return nil, false
	}
	placement := make([]*ast.Term, 3)
	for i, k := range []*ast.Term{nodeSelectorKey, affinityKey, tolerationsKey} {
		if placement[i] = pod.Get(k); placement[i] == nil {
			return nil, false
		}
	}
	numbers := ast.NewObject()
	for _, f := range fields {
		if v := obj.Get(f); v != nil {
			numbers.Insert(f, v)
		}
	}
	restart := pod.Get(restartPolicyKey)
	if restart == nil {
		restart = alwaysTerm
	}
	return ast.ArrayTerm(ast.ArrayTerm(placement...), ast.NewTerm(numbers), restart), true
}

// withClasses returns the input with classes and classOf (see above). The other members are
// shared, not copied.
func withClasses(input ast.Value, fields []*ast.Term) ast.Value {
	obj, ok := input.(ast.Object)
	if !ok {
		return input
	}
	list := obj.Get(ast.InternedTerm("workloads"))
	if list == nil {
		return input
	}
	workloads, ok := list.Value.(*ast.Array)
	if !ok {
		return input
	}
	type class struct {
		key     *ast.Term
		members []*ast.Term // the members' ids
	}
	var classes []*class
	byHash := map[int][]*class{}
	for i := range workloads.Len() {
		w := workloads.Elem(i).Value
		key, ok := classKey(w, fields)
		if !ok {
			continue
		}
		id := w.(ast.Object).Get(idKey)
		if id == nil {
			continue
		}
		h := key.Hash()
		var c *class
		for _, cand := range byHash[h] {
			if cand.key.Value.Compare(key.Value) == 0 {
				c = cand
				break
			}
		}
		if c == nil {
			c = &class{key: key}
			byHash[h] = append(byHash[h], c)
			classes = append(classes, c)
		}
		c.members = append(c.members, id)
	}
	// Rego's order of the keys as a set: the position each class had when the policies
	// grouped the workloads themselves.
	sort.Slice(classes, func(i, j int) bool { return classes[i].key.Value.Compare(classes[j].key.Value) < 0 })
	keys := make([]*ast.Term, len(classes))
	of := ast.NewObject()
	for i, c := range classes {
		keys[i] = c.key
		n := ast.InternedTerm(i)
		for _, id := range c.members {
			of.Insert(id, n)
		}
	}
	out := ast.NewObject()
	obj.Foreach(func(k, v *ast.Term) { out.Insert(k, v) })
	out.Insert(ast.InternedTerm("classes"), ast.ArrayTerm(keys...))
	out.Insert(ast.InternedTerm("classOf"), ast.NewTerm(of))
	return out
}
