package fix

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/eni-lint/eni-lint/pkg/findings"
	"github.com/eni-lint/eni-lint/pkg/inventory"
)

// placeInstanceType writes an ENI001 instance-type fix, which fix does only when it is
// preferred (--prefer instance-type): the binding type's name is replaced where the group
// lists it, when that place holds the name once as a literal (an instance_types list, an
// eksctl or config instanceType). A type from a variable, a flag or a provisioner's pool is
// a suggestion.
func placeInstanceType(ws *Workspace, rep *findings.Report, f findings.Finding, fx *Fix) Placement {
	d, _ := f.Exceed()
	group, binding := d.NodeGroup, d.InstanceType
	shown := Placement{Suggestion: fx.Change}
	if fx.InstanceType == "" || binding == "" || strings.HasPrefix(fx.Change, "narrow NodePool") || strings.HasPrefix(fx.Change, "run these pods") {
		return shown
	}
	var entry *inventory.NodeGroupInstance
	for i := range rep.NodeGroups {
		g := &rep.NodeGroups[i]
		if g.Name != group || !sameCluster(g.Cluster, f.Clusters) {
			continue
		}
		for j := range g.InstanceTypes {
			if g.InstanceTypes[j].Name == binding {
				entry = &g.InstanceTypes[j]
			}
		}
	}
	if entry == nil || entry.Location.File == "" || entry.Location.Line == 0 || strings.HasPrefix(entry.Location.File, "--") {
		shown.Suggestion += " (the type is not written in a file: a flag or a computed value)"
		return shown
	}
	data, err := ws.Read(entry.Location.File)
	if err != nil {
		return shown
	}
	start, end, ok := region(data, entry.Location)
	if !ok {
		return shown
	}
	name := regexp.MustCompile(`(^|[^A-Za-z0-9.-])(` + regexp.QuoteMeta(binding) + `)([^A-Za-z0-9.-]|$)`)
	found := name.FindAllSubmatchIndex(data[start:end], -1)
	if len(found) != 1 {
		shown.Suggestion += fmt.Sprintf(" (%s does not name %s once as a literal at %s)", entry.Location.File, binding, at(entry.Location))
		return shown
	}
	s, e := start+found[0][4], start+found[0][5]
	ws.Write(entry.Location.File, splice(data, s, e, fx.InstanceType))
	return Placement{Files: []string{entry.Location.File}}
}

func sameCluster(cluster string, clusters []string) bool {
	if len(clusters) == 0 {
		return true
	}
	for _, c := range clusters {
		if c == cluster {
			return true
		}
	}
	return false
}

// region is the byte range of a position with an end (a whole line when it has none).
func region(data []byte, p inventory.Position) (start, end int, ok bool) {
	lines := strings.SplitAfter(string(data), "\n")
	if p.Line < 1 || p.Line > len(lines) {
		return 0, 0, false
	}
	offset := func(line, col int) int {
		n := 0
		for _, l := range lines[:line-1] {
			n += len(l)
		}
		return n + min(max(col-1, 0), len(lines[line-1]))
	}
	if p.EndLine < p.Line || p.EndLine > len(lines) || p.EndColumn == 0 {
		return offset(p.Line, 1), offset(p.Line, 1) + len(lines[p.Line-1]), true
	}
	return offset(p.Line, p.Column), offset(p.EndLine, p.EndColumn), true
}
