package terraform

import (
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/eni-lint/eni-lint/pkg/inventory"
)

// entries lists a known map or object value's elements in key order; false when the value
// is not one (unknown, null, a list).
func entries(v cty.Value) (keys []string, values []cty.Value, ok bool) {
	if v == cty.NilVal || !v.IsKnown() || v.IsNull() || !(v.Type().IsMapType() || v.Type().IsObjectType()) {
		return nil, nil, false
	}
	for it := v.ElementIterator(); it.Next(); {
		k, _ := it.Element()
		keys = append(keys, k.AsString())
	}
	sort.Strings(keys)
	for _, k := range keys {
		if v.Type().IsObjectType() {
			values = append(values, v.GetAttr(k))
		} else {
			values = append(values, v.Index(cty.StringVal(k)))
		}
	}
	return keys, values, true
}

// unresolvedAt returns a function that records an object of resource r that cannot be read.
func (l *loader) unresolvedAt(e *evaluator, r *resource) func(hcl.Range, string) {
	address := e.callPath + r.typ + "." + r.name
	return func(at hcl.Range, reason string) {
		l.unresolved = append(l.unresolved, inventory.UnresolvedObject{Source: address, Location: position(at), Reason: reason})
	}
}

// declaredInstances expands a resource that declares Kubernetes objects; when only Terraform
// can count its instances (for_each over data.kubectl_file_documents and the like), that is
// recorded as unresolved and false is returned.
func (l *loader) declaredInstances(e *evaluator, r *resource, unresolved func(hcl.Range, string)) ([]*instance, []string, bool) {
	insts, keys, ok := e.instances(r.count, r.forEach)
	if !ok {
		if r.forEach != nil {
			unresolved(r.forEach.Range(), "for_each depends on "+e.unknownReason(r.forEach))
		} else if r.count != nil {
			unresolved(r.count.Range(), "count depends on "+e.unknownReason(r.count))
		}
	}
	return insts, keys, ok
}

// instanceAddress is the address Terraform gives one instance of r, as a plan names it:
// module.x.kubectl_manifest.y, [0] for count, ["key"] for for_each.
func instanceAddress(e *evaluator, r *resource, key string) string {
	address := e.callPath + r.typ + "." + r.name
	switch {
	case r.count != nil:
		address += "[" + key + "]"
	case r.forEach != nil:
		address += fmt.Sprintf("[%q]", key)
	}
	return address
}

// producedBy records, on every object of a fragment a resource instance declared, that
// instance's address: the Terraform resource that produced it (its provenance), which a
// plan's resource of the same address joins to.
func producedBy(frag inventory.Fragment, address string) inventory.Fragment {
	frag.EachObject(func(o *inventory.Object) { o.Origin.Resource = address })
	return frag
}
