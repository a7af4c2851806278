// Package fix turns the fixes findings offer into changes of the files they come from, and
// checks them before anything is written: `eni-lint fix`.
//
// A finding's details.fixes list changes that each alone resolve it (the rules evaluate the
// model again with the change). This package picks one per finding by preference, puts it
// where the object's text comes from (the manifest, a Helm template or its values, a patch of
// the kustomize overlay that built it, the Terraform code), runs the check again on the changed
// files in memory, and keeps only the changes after which the finding is gone and no new one
// appeared. Edits splice the original bytes (pkg/yamledit, hclwrite), so a diff shows the
// changed lines only.
package fix

import (
	"fmt"
	"slices"
	"strings"

	"github.com/eni-lint/eni-lint/pkg/findings"
)

// Levers are what a fix changes, in the order fix tries them by default: retention first, then
// retries, then how long a run may last. An instance type is an infrastructure decision: it is
// shown, and written only when preferred (placeInstanceType).
var Levers = []string{"ttl", "history", "backoff", "deadline"}

// LeverInstanceType is the lever of a larger instance type.
const LeverInstanceType = "instance-type"

// Rules are the rules whose fixes `eni-lint fix` applies.
var Rules = []string{"ENI001", "ENI002", "ENI003"}

// Fix is one fix a finding offers (details.fixes[]).
type Fix struct {
	Workload     string
	Change       string
	Lever        string
	Set          []Field
	InstanceType string
}

// Field is one field a fix sets, by its path in the workload's manifest.
type Field struct {
	Path  string
	Value int
}

// FixesOf reads a finding's fixes.
func FixesOf(f findings.Finding) []Fix {
	list, _ := f.Details["fixes"].([]any)
	var out []Fix
	for _, item := range list {
		m, ok := item.(map[string]any)
		if !ok {
			continue
		}
		fx := Fix{Workload: str(m["workload"]), Change: str(m["change"]), Lever: str(m["lever"]), InstanceType: str(m["instanceType"])}
		sets, _ := m["set"].([]any)
		for _, s := range sets {
			sm, _ := s.(map[string]any)
			if v, ok := findings.Integer(sm["value"]); ok && str(sm["field"]) != "" {
				fx.Set = append(fx.Set, Field{Path: str(sm["field"]), Value: v})
			}
		}
		out = append(out, fx)
	}
	return out
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// Order is the order levers are tried in: prefer first, then the default order. With prefer
// "instance-type" the instance-type fix comes first (and is shown, not written).
func Order(prefer string) ([]string, error) {
	if prefer == "" {
		return Levers, nil
	}
	if prefer != LeverInstanceType && !slices.Contains(Levers, prefer) {
		return nil, fmt.Errorf("--prefer %q: want one of %s, %s", prefer, strings.Join(Levers, ", "), LeverInstanceType)
	}
	order := []string{prefer}
	for _, l := range Levers {
		if l != prefer {
			order = append(order, l)
		}
	}
	return order, nil
}

// Choose picks the fix a finding gets: the first in lever order that sets fields. The
// instance-type fix is returned as shown when it is preferred, or when it is the only one.
func Choose(fixes []Fix, order []string) (written *Fix, shown *Fix) {
	var typeFix *Fix
	for i := range fixes {
		if fixes[i].Lever == LeverInstanceType {
			typeFix = &fixes[i]
		}
	}
	if len(order) > 0 && order[0] == LeverInstanceType && typeFix != nil {
		return nil, typeFix
	}
	for _, lever := range order {
		for i := range fixes {
			if fixes[i].Lever == lever && len(fixes[i].Set) > 0 && fixes[i].Workload != "" {
				return &fixes[i], nil
			}
		}
	}
	return nil, typeFix
}

// Identity names a finding across runs of the check: the rule and what it is about. ENI001 is
// about a node group (its top contributor may change with a fix); the others about an object.
func Identity(f findings.Finding) string {
	where := strings.Join(f.Clusters, ",") + "|" + strings.Join(f.Environments, ",")
	if f.Rule == "ENI001" {
		group, _ := f.Details["nodeGroup"].(string)
		return f.Rule + "|" + group + "|" + where
	}
	if f.Object != nil {
		return f.Rule + "|" + f.Object.Kind + "/" + f.Object.Namespace + "/" + f.Object.Name + "|" + f.Location.File + "|" + where
	}
	return f.Rule + "|" + f.Location.File + ":" + fmt.Sprint(f.Location.Line) + "|" + f.Message
}
