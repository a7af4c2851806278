package suppress

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/eni-lint/eni-lint/pkg/confine"
	"github.com/eni-lint/eni-lint/pkg/findings"
)

// BaselineVersion names the baseline file format. v2 keys aggregate findings (ENI001) on the
// node group, the instance type and what made the demand, instead of the workload that held the
// most; v1 files are still read, without their ENI001 entries (see parseBaseline).
const BaselineVersion = "eni-lint.baseline/v2"

const baselineV1 = "eni-lint.baseline/v1"

// aggregateRules are the rules whose finding sums many workloads on one node: their identity
// is the node group and instance type, and the baseline records what they were made of.
var aggregateRules = map[string]bool{"ENI001": true}

// Baseline is a record of accepted findings. Entries are keyed by rule, file and object
// identity, not by line, so edits elsewhere in a file do not invalidate them.
type Baseline struct {
	Version string          `json:"version"`
	Entries []BaselineEntry `json:"entries"`
	// Warnings say what an older file can no longer match (not written).
	Warnings []string `json:"-"`
}

// BaselineEntry identifies one finding (findings.BaselineEntry).
type BaselineEntry = findings.BaselineEntry

func key(e BaselineEntry) string {
	return strings.Join([]string{e.Rule, e.File, e.Kind, e.Namespace, e.Name, e.Subject, e.Cluster}, "\x00")
}

// EntryFor is the identity of a finding.
func EntryFor(f findings.Finding) BaselineEntry {
	e := BaselineEntry{Rule: f.Rule, File: filepath.ToSlash(filepath.Clean(f.Location.File)), Count: 1}
	subject := f.Subject()
	if subject.NodeGroup != nil && len(f.Clusters) == 1 {
		// A finding about a node group is about it in its cluster: the same block read with
		// two var files is two node groups.
		e.Cluster = f.Clusters[0]
	}
	if aggregateRules[f.Rule] {
		// The node group and type, not the workload that holds the most: a second Job on an
		// exceeded node must not hide behind the first one's entry.
		if loc := subject.NodeGroupLocation; loc != nil && loc.File != "" {
			e.File = filepath.ToSlash(filepath.Clean(loc.File))
		}
		var parts []string
		for _, v := range []string{deref(subject.NodeGroup), deref(subject.InstanceType), subject.Variant} {
			if v != "" {
				parts = append(parts, v)
			}
		}
		e.Subject = strings.Join(parts, "/")
		e.Contributors = contributorsOf(f)
		if subject.Demand != nil {
			e.Demand = *subject.Demand
		}
		return e
	}
	if f.Object != nil {
		e.Kind, e.Namespace, e.Name = f.Object.Kind, f.Object.Namespace, f.Object.Name
	} else {
		var parts []string
		for _, v := range []*string{subject.NodeGroup, subject.InstanceType} {
			if v != nil {
				parts = append(parts, *v)
			}
		}
		e.Subject = strings.Join(parts, "/")
	}
	return e
}

// deref is a key's string, "" when the details do not have it.
func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// contributorsOf lists an aggregate finding's contributing workloads as kind/namespace/name,
// sorted: stable across edits that move lines.
func contributorsOf(f findings.Finding) []string {
	d, _ := f.Exceed()
	var out []string
	for _, c := range d.Contributors {
		out = append(out, c.Kind+"/"+c.Namespace+"/"+c.Name)
	}
	sort.Strings(out)
	return out
}

// NewBaseline records the findings that nothing suppresses.
func NewBaseline(fs []findings.Finding) Baseline {
	byKey := map[string]*BaselineEntry{}
	for _, f := range fs {
		if f.Suppressed != nil {
			continue
		}
		e := EntryFor(f)
		if have, ok := byKey[key(e)]; ok {
			have.Count++
			continue
		}
		byKey[key(e)] = &e
	}
	b := Baseline{Version: BaselineVersion, Entries: []BaselineEntry{}}
	for _, e := range byKey {
		b.Entries = append(b.Entries, *e)
	}
	sort.Slice(b.Entries, func(i, j int) bool { return key(b.Entries[i]) < key(b.Entries[j]) })
	return b
}

// Write saves the baseline as indented JSON.
func (b Baseline) Write(path string) error {
	data, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return err
	}
	return confine.WriteFile(path, append(data, '\n'), confine.WriteOptions{})
}

// ReadBaseline loads a baseline file.
// It is read through pkg/confine: inside the working folder when it is below it (a link out
// is refused), a regular file within the size budget (not /dev/zero or a pipe).
func ReadBaseline(path string, maxFileSize int64) (Baseline, error) {
	var b Baseline
	data, err := confine.ReadFileAt(path, maxFileSize)
	if err != nil {
		return b, fmt.Errorf("baseline: %s: %s", path, confine.Reason(err))
	}
	return parseBaseline(data, path)
}

// parseBaseline reads a baseline's JSON; a pull request may have written it.
func parseBaseline(data []byte, path string) (Baseline, error) {
	var b Baseline
	if err := json.Unmarshal(data, &b); err != nil {
		return b, fmt.Errorf("baseline %s: %v", path, err)
	}
	switch b.Version {
	case BaselineVersion:
	case baselineV1:
		// v1 keyed ENI001 on the workload that held the most: such an entry would hide any
		// new workload added to the same node, so it matches nothing now (it is listed stale).
		kept := b.Entries[:0]
		dropped := 0
		for _, e := range b.Entries {
			if aggregateRules[e.Rule] {
				dropped++
				continue
			}
			kept = append(kept, e)
		}
		b.Entries = kept
		if dropped > 0 {
			b.Warnings = append(b.Warnings, fmt.Sprintf("baseline %s was written by %s: its %d ENI001 entries name the workload that held the most, not the node and what made its demand, and match nothing now; write it again with --write-baseline", path, baselineV1, dropped))
		}
	default:
		return b, fmt.Errorf("baseline %s: version %q, want %q", path, b.Version, BaselineVersion)
	}
	for i, e := range b.Entries {
		if e.Count < 1 {
			return b, fmt.Errorf("baseline %s: entry %d (%s %s): count %d, want 1 or more", path, i+1, e.Rule, e.File, e.Count)
		}
	}
	return b, nil
}

// Apply marks the findings the baseline records (up to each entry's count) and returns the
// entries that no longer occur, so they can be pruned.
func (b Baseline) Apply(fs []findings.Finding) (stale []BaselineEntry) {
	left := map[string]int{}
	recorded := map[string]BaselineEntry{}
	for _, e := range b.Entries {
		left[key(e)] += e.Count
		recorded[key(e)] = e
	}
	seen := map[string]bool{}
	for i := range fs {
		f := &fs[i]
		if f.Suppressed != nil {
			continue
		}
		entry := EntryFor(*f)
		k := key(entry)
		if _, ok := left[k]; !ok && entry.Cluster != "" {
			// An entry written by a run with one cluster names none: it matches in any.
			noCluster := entry
			noCluster.Cluster = ""
			k = key(noCluster)
		}
		seen[k] = true
		if left[k] <= 0 {
			continue
		}
		if aggregateRules[f.Rule] {
			if change := grew(recorded[k], entry); change != "" {
				// The same node, but more on it than was accepted: a new finding that says
				// what changed.
				f.Message += " Not as in the baseline: " + change + "."
				continue
			}
		}
		left[k]--
		f.Suppressed = &findings.Suppression{Kind: "baseline", Reason: "recorded in the baseline"}
	}
	for _, e := range b.Entries {
		if !seen[key(e)] {
			stale = append(stale, e)
		}
	}
	return stale
}

// grew says how an aggregate finding differs from its recorded entry in a way the baseline did
// not accept (a higher demand, a contributor not recorded), or "" when it is no worse.
func grew(was, now BaselineEntry) string {
	var parts []string
	if now.Demand > was.Demand {
		parts = append(parts, fmt.Sprintf("demand %d → %d", was.Demand, now.Demand))
	}
	known := map[string]bool{}
	for _, c := range was.Contributors {
		known[c] = true
	}
	var added []string
	for _, c := range now.Contributors {
		if !known[c] {
			added = append(added, strings.Replace(strings.TrimPrefix(c, "/"), "/", " ", 1))
		}
	}
	if len(added) > 0 {
		parts = append(parts, "added "+strings.Join(added, ", "))
	}
	return strings.Join(parts, "; ")
}
