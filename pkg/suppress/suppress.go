// Package suppress applies what a team decided to live with: inline ignore annotations the
// policies accepted, config ignores, and a baseline of known findings; and it narrows a report
// to what changed. Suppressed findings stay in the report, marked, and no longer count for the
// exit code.
package suppress

import (
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/eni-lint/eni-lint/pkg/findings"
	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/rules"
)

// Inline marks the findings that an accepted eni-lint.io/ignore entry (or Terraform ignore
// comment) covers: the same object, or one of the finding's row objects (the node group an
// ENI001 is about), and one of its rules.
//
// used says, entry by entry, whether the entry covers a finding (the first entry that covers
// one suppresses it; a second entry that covers it too is used as well).
func Inline(fs []findings.Finding, active []rules.ActiveIgnore) (used []bool) {
	used = make([]bool, len(active))
	byObject := map[string][]int{}
	for i, a := range active {
		byObject[a.Object] = append(byObject[a.Object], i)
	}
	for i := range fs {
		f := &fs[i]
		if f.Suppressed != nil || f.ObjectID == "" {
			continue
		}
		for _, id := range append([]string{f.ObjectID}, f.RowObjectIDs...) {
			for _, k := range byObject[id] {
				a := active[k]
				if !contains(a.Rules, f.Rule) {
					continue
				}
				used[k] = true
				if f.Suppressed == nil {
					f.Suppressed = &findings.Suppression{Kind: "inline", Reason: a.Reason, Expires: a.Expires}
				}
			}
		}
	}
	return used
}

// ConfigIgnore is an `ignores:` entry of the config file that the policies accepted.
type ConfigIgnore struct {
	Rule    string // a rule ID or *
	Paths   []string
	Kind    string
	Name    string
	NS      string
	Reason  string
	Expires string
}

// Config marks the findings a config ignore covers: its rule (or *), a file matching one of
// its path globs (any file when it has none), and an object matching its kind, namespace and
// name globs (any object when it names none).
func Config(fs []findings.Finding, ignores []ConfigIgnore) {
	for i := range fs {
		f := &fs[i]
		if f.Suppressed != nil {
			continue
		}
		for _, ig := range ignores {
			if matches(ig, f) {
				f.Suppressed = &findings.Suppression{Kind: "config", Reason: ig.Reason, Expires: ig.Expires}
				break
			}
		}
	}
}

func matches(ig ConfigIgnore, f *findings.Finding) bool {
	if ig.Rule != "*" && !strings.EqualFold(ig.Rule, f.Rule) {
		return false
	}
	if len(ig.Paths) > 0 {
		file := filepath.ToSlash(filepath.Clean(f.Location.File))
		ok := false
		for _, pattern := range ig.Paths {
			if m, _ := doublestar.Match(filepath.ToSlash(pattern), file); m {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	if ig.Kind == "" && ig.NS == "" && ig.Name == "" {
		return true
	}
	if f.Object == nil {
		return false
	}
	return glob(ig.Kind, f.Object.Kind) && glob(ig.NS, f.Object.Namespace) && glob(ig.Name, f.Object.Name)
}

func glob(pattern, value string) bool {
	if pattern == "" {
		return true
	}
	m, _ := doublestar.Match(pattern, value)
	return m
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// ChangedOnly keeps the findings that a change can have caused: those located in a changed
// file, and those whose contributing objects (ENI001's contributors, a node group's file) are
// in one. Verdicts are cross-file, so everything was loaded; only the report is narrowed.
//
// inputsOf, when set, names more files a finding's verdict reads for one object ID (a
// workload): the SecurityGroupPolicies that select it and the node groups it may land on. A
// pull request that adds a policy, or edits a node group, changes the verdict of workloads it
// does not touch, and their findings are kept. A finding about a workload uses its own; ENI001
// those of every contributor it lists.
func ChangedOnly(fs []findings.Finding, changed map[string]bool, inputsOf func(id string) []string) []findings.Finding {
	var out []findings.Finding
	for _, f := range fs {
		if related(f, changed) || inputsChanged(f, changed, inputsOf) {
			out = append(out, f)
		}
	}
	return out
}

func inputsChanged(f findings.Finding, changed map[string]bool, inputsOf func(string) []string) bool {
	if inputsOf == nil {
		return false
	}
	ids := []string{f.ObjectID}
	if d, ok := f.Exceed(); ok {
		for _, c := range append(d.Contributors, d.UnlistedContributors...) {
			if c.ID != "" {
				ids = append(ids, c.ID)
			}
		}
	}
	for _, id := range ids {
		for _, file := range inputsOf(id) {
			if changed[filepath.ToSlash(filepath.Clean(file))] {
				return true
			}
		}
	}
	return false
}

func related(f findings.Finding, changed map[string]bool) bool {
	// A rendered file's objects are located in their templates: the file they were read
	// from counts too, so a new render cannot move its findings out of the changed set.
	if changed[filepath.ToSlash(filepath.Clean(f.Location.File))] || f.ReadFrom != "" && changed[filepath.ToSlash(filepath.Clean(f.ReadFrom))] {
		return true
	}
	hit := false
	walkLocations(f.Details, func(file string) {
		if changed[filepath.ToSlash(filepath.Clean(file))] {
			hit = true
		}
	})
	return hit
}

// walkLocations calls fn with the file of every position in a finding's details.
func walkLocations(v any, fn func(string)) {
	switch x := v.(type) {
	case map[string]any:
		for k, child := range x {
			if k == "location" || k == "nodeGroupLocation" {
				switch p := child.(type) {
				case map[string]any:
					if file, ok := p["file"].(string); ok {
						fn(file)
					}
				case inventory.Position:
					fn(p.File)
				}
			}
			walkLocations(child, fn)
		}
	case []any:
		for _, child := range x {
			walkLocations(child, fn)
		}
	}
}
