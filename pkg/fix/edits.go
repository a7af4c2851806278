package fix

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/eni-lint/eni-lint/pkg/findings"
	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/pmezard/go-difflib/difflib"
)

// Edits works out, for every fix a run wrote, the edits that fix alone makes to the files as
// they were before the run: what SARIF results and review suggestions carry, each applicable
// on its own. before are the workloads of the check on those files. The result is by finding
// (Identity).
func Edits(res *Result, before map[string]inventory.Workload, read func(string) ([]byte, error)) map[string][]findings.Edit {
	byName := map[string][]inventory.Workload{}
	for id, w := range before {
		name := strings.SplitN(id, "@", 2)[0]
		byName[name] = append(byName[name], w)
	}
	out := map[string][]findings.Edit{}
	byWorkload := map[string][]findings.Edit{}
	defer func() {
		// A finding another finding's change resolved (ENI002 by ENI001's TTL) offers that
		// change: the same edit, where every format shows it.
		for _, o := range res.Outcomes {
			if e := byWorkload[o.Finding.ObjectID]; o.ByOthers && len(e) > 0 {
				out[Identity(o.Finding)] = e
			}
		}
	}()
	for _, o := range res.Outcomes {
		if !o.Written || o.ByOthers || o.Fix == nil || len(o.Placed) == 0 {
			continue
		}
		w, ok := before[o.Fix.Workload]
		if !ok {
			// An earlier round's insertion moved the document, and its ID with it.
			candidates := byName[strings.SplitN(o.Fix.Workload, "@", 2)[0]]
			if len(candidates) != 1 {
				continue
			}
			w = candidates[0]
		}
		ws := NewWorkspace(read)
		if p := placeFields(ws, w, o.Placed); p.Suggestion != "" {
			continue
		}
		var edits []findings.Edit
		for _, file := range ws.Changed() {
			edits = append(edits, lineEdits(relativeTo(file, w), ws.Original(file), ws.Current(file), o.Fix.Change)...)
		}
		out[Identity(o.Finding)] = edits
		byWorkload[o.Fix.Workload] = edits
	}
	return out
}

// relativeTo names a changed file as the findings do: the path the loaders used when it is the
// workload's own file, else relative to the working folder (a kustomize overlay's files).
func relativeTo(file string, w inventory.Workload) string {
	for _, p := range []inventory.Position{w.Locations.At(""), w.Origin.Declared} {
		if p.File != "" && abs(p.File) == file {
			return p.File
		}
	}
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, file); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
	}
	return file
}

// lineEdits are the changed line ranges between two versions of a file, each as an Edit that
// replaces at least one original line (an insertion repeats the line before it).
func lineEdits(file string, old, new []byte, change string) []findings.Edit {
	if old == nil {
		return []findings.Edit{{File: file, Text: string(new), NewFile: true, Change: change}}
	}
	a, b := splitLines(old), splitLines(new)
	var out []findings.Edit
	for _, op := range difflib.NewMatcher(a, b).GetOpCodes() {
		if op.Tag == 'e' {
			continue
		}
		i1, i2, j1, j2 := op.I1, op.I2, op.J1, op.J2
		if i1 == i2 { // an insertion: cover the line before (or, at the top, the one after)
			if i1 > 0 {
				i1, j1 = i1-1, j1-1
			} else if i2 < len(a) {
				i2, j2 = i2+1, j2+1
			}
		}
		out = append(out, findings.Edit{
			File: file, StartLine: i1 + 1, EndLine: i2,
			Text: strings.Join(b[j1:j2], ""), Original: strings.Join(a[i1:i2], ""), Change: change,
		})
	}
	return out
}

// splitLines splits a file into lines, each with its line ending.
func splitLines(data []byte) []string {
	lines := strings.SplitAfter(string(data), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}
