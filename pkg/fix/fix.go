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

// Levers are what a fix changes and --prefer names: retention first, then how runs are
// scheduled and how long they may last, then retries. An instance type is an infrastructure
// decision: it is shown, and written only when preferred (placeInstanceType). A remedy's
// concurrency policy is a word, not a number: fix says it and leaves it to the person.
var Levers = []string{"ttl", "deadline", "starting-deadline", "history", "backoff"}

// LeverInstanceType is the lever of a larger instance type.
const LeverInstanceType = "instance-type"

// Rules are the rules whose fixes `eni-lint fix` applies.
var Rules = []string{"ENI001", "ENI002", "ENI003"}

// Fix is one fix a finding offers (details.fixes[]): one or more field changes of one workload.
type Fix struct {
	Workload string
	Change   string
	// Lever is the fix's first lever; Levers all it changes (a TTL with a deadline: both).
	Lever  string
	Levers []string
	Set    []Field
	// Unwritable lists the fields fix does not write (a concurrency policy): a fix with any is
	// shown, not written.
	Unwritable   []string
	InstanceType string
}

// Field is one field a fix sets, by its path in the workload's manifest.
type Field struct {
	Path  string
	Value int
}

// FixesOf reads a finding's fixes, in the order the rule ranks them.
func FixesOf(f findings.Finding) []Fix {
	var out []Fix
	for _, d := range f.FixDetails() {
		fx := Fix{Workload: d.Workload, Change: d.Change, Lever: d.Lever, InstanceType: d.InstanceType}
		for _, l := range d.Levers {
			if l != "" {
				fx.Levers = append(fx.Levers, l)
			}
		}
		for _, s := range d.Set {
			switch {
			case s.Field == "":
			case s.Value != nil:
				fx.Set = append(fx.Set, Field{Path: s.Field, Value: *s.Value})
			default:
				fx.Unwritable = append(fx.Unwritable, s.Field)
			}
		}
		out = append(out, fx)
	}
	return out
}

// Order is what --prefer asks for: nil for the rule's own order, or the one lever to try first.
func Order(prefer string) ([]string, error) {
	if prefer == "" {
		return nil, nil
	}
	if prefer != LeverInstanceType && !slices.Contains(Levers, prefer) {
		return nil, fmt.Errorf("--prefer %q: want one of %s, %s", prefer, strings.Join(Levers, ", "), LeverInstanceType)
	}
	return []string{prefer}, nil
}

// Choose picks the fix a finding gets. The rule lists its fixes cheapest for the workload's
// owner first (ENI001: a TTL, then schedule and deadline, history, retries, the instance type),
// so by default it is the first fix that can be written and takes nothing away: no
// backoffLimit: 0 (no retries at all) and no history limit of 0 (no evidence of a run kept).
// With --prefer, the first fix that uses that lever, which may then write its 0. The
// instance-type fix is returned as shown when it is preferred, or when nothing else is.
func Choose(fixes []Fix, order []string) (written *Fix, shown *Fix) {
	var typeFix *Fix
	for i := range fixes {
		if fixes[i].Lever == LeverInstanceType {
			typeFix = &fixes[i]
		}
	}
	prefer := ""
	if len(order) > 0 {
		prefer = order[0]
	}
	if prefer == LeverInstanceType && typeFix != nil {
		return nil, typeFix
	}
	writable := func(f *Fix) bool {
		return f.Lever != LeverInstanceType && len(f.Set) > 0 && len(f.Unwritable) == 0 && f.Workload != ""
	}
	if prefer != "" {
		for i := range fixes {
			if writable(&fixes[i]) && slices.Contains(fixes[i].levers(), prefer) && (takesAway(fixes[i]) == "" || takesAway(fixes[i]) == prefer) {
				return &fixes[i], nil
			}
		}
	}
	for i := range fixes {
		if writable(&fixes[i]) && takesAway(fixes[i]) == "" {
			return &fixes[i], nil
		}
	}
	return nil, typeFix
}

// levers is what a fix changes; a fix built with only Lever changes that.
func (f Fix) levers() []string {
	if len(f.Levers) == 0 && f.Lever != "" {
		return []string{f.Lever}
	}
	return f.Levers
}

// takesAway names the lever of a field a fix sets to 0 that removes a safety net: "backoff"
// for backoffLimit: 0, "history" for a history limit of 0; "" when it sets none. Choose
// writes such a fix only when --prefer names that lever.
func takesAway(f Fix) string {
	for _, s := range f.Set {
		switch {
		case s.Value == 0 && strings.HasSuffix(s.Path, "backoffLimit"):
			return "backoff"
		case s.Value == 0 && strings.HasSuffix(s.Path, "HistoryLimit"):
			return "history"
		}
	}
	return ""
}

// Identity names a finding across runs of the check: the rule and what it is about. ENI001 is
// about a node group (its top contributor may change with a fix); the others about an object.
func Identity(f findings.Finding) string {
	where := strings.Join(f.Clusters, ",") + "|" + strings.Join(f.Environments, ",")
	if f.Rule == "ENI001" {
		d, _ := f.Exceed()
		return f.Rule + "|" + d.NodeGroup + "|" + where
	}
	if f.Object != nil {
		return f.Rule + "|" + f.Object.Kind + "/" + f.Object.Namespace + "/" + f.Object.Name + "|" + f.Location.File + "|" + where
	}
	return f.Rule + "|" + f.Location.File + ":" + fmt.Sprint(f.Location.Line) + "|" + f.Message
}
