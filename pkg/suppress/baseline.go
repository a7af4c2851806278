package suppress

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/eni-lint/eni-lint/pkg/confine"
	"github.com/eni-lint/eni-lint/pkg/findings"
)

// BaselineVersion names the baseline file format.
const BaselineVersion = "eni-lint.baseline/v1"

// Baseline is a record of accepted findings. Entries are keyed by rule, file and object
// identity, not by line, so edits elsewhere in a file do not invalidate them.
type Baseline struct {
	Version string          `json:"version"`
	Entries []BaselineEntry `json:"entries"`
}

// BaselineEntry identifies one finding (findings.BaselineEntry).
type BaselineEntry = findings.BaselineEntry

func key(e BaselineEntry) string {
	return strings.Join([]string{e.Rule, e.File, e.Kind, e.Namespace, e.Name, e.Subject}, "\x00")
}

// EntryFor is the identity of a finding.
func EntryFor(f findings.Finding) BaselineEntry {
	e := BaselineEntry{Rule: f.Rule, File: filepath.ToSlash(filepath.Clean(f.Location.File)), Count: 1}
	if f.Object != nil {
		e.Kind, e.Namespace, e.Name = f.Object.Kind, f.Object.Namespace, f.Object.Name
	} else {
		var parts []string
		for _, k := range []string{"nodeGroup", "instanceType"} {
			if v, ok := f.Details[k].(string); ok {
				parts = append(parts, v)
			}
		}
		e.Subject = strings.Join(parts, "/")
	}
	return e
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
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// ReadBaseline loads a baseline file.
// It is read through pkg/confine: inside the working folder when it is below it (a link out
// is refused), a regular file within the size budget (not /dev/zero or a pipe).
func ReadBaseline(path string) (Baseline, error) {
	var b Baseline
	data, err := confine.ReadFileAt(path, 0)
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
	if b.Version != BaselineVersion {
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
	for _, e := range b.Entries {
		left[key(e)] += e.Count
	}
	seen := map[string]bool{}
	for i := range fs {
		f := &fs[i]
		if f.Suppressed != nil {
			continue
		}
		k := key(EntryFor(*f))
		seen[k] = true
		if left[k] > 0 {
			left[k]--
			f.Suppressed = &findings.Suppression{Kind: "baseline", Reason: "recorded in the baseline"}
		}
	}
	for _, e := range b.Entries {
		if !seen[key(e)] {
			stale = append(stale, e)
		}
	}
	return stale
}
