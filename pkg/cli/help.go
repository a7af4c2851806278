package cli

import (
	"fmt"
	"sort"
	"strings"

	"github.com/agext/levenshtein"
	"github.com/mitchellh/go-wordwrap"
	"github.com/spf13/pflag"
)

// flagGroups are the headings of a command's --help, in order, and the flags under each. A
// flag no group names is listed under "Other flags", so a new flag is never hidden.
var flagGroups = []struct {
	title string
	flags []string
}{
	{"Common flags", []string{"node-group", "config", "eni-release", "cooldown", "disruptions", "fail-on", "format", "output"}},
	{"Inputs", []string{"manifests", "at", "exclude", "namespace", "policy", "baseline", "write-baseline", "changed-since"}},
	{"Helm and Kustomize", []string{"helm-chart", "values", "set", "render-charts"}},
	{"Terraform", []string{"var-file", "var", "each-var-file", "terraform-plan"}},
	{"Fixing", []string{"dry-run", "check", "prefer", "ttl"}},
	{"Output", []string{"color", "no-color", "timings", "profile-policies"}},
	{"GitHub", []string{"github", "comment", "review"}},
	{"Budgets", []string{"timeout", "policy-timeout", "max-file-size", "max-documents", "max-memory", "max-snapshot-size", "max-items", "workers"}},
}

// helpWidth is the width --help wraps to: the terminal's, else 80.
func helpWidth(stdio IO) int {
	if stdio.IsTerminal != nil && stdio.IsTerminal() && stdio.Width != nil {
		if w := stdio.Width(); w >= 40 {
			return w
		}
	}
	return 80
}

// groupedFlags renders a flag set under the headings of flagGroups, each description wrapped
// to width with a hanging indent.
func groupedFlags(fs *pflag.FlagSet, width int) string {
	sections := flagSections(fs)
	// The names column: as wide as the widest name, within a third of the width; a longer
	// name puts its description on the next line.
	column := 0
	for _, s := range sections {
		for _, f := range s.flags {
			column = max(column, len(flagSpec(f)))
		}
	}
	column = min(column+2, max(24, width/3))
	var b strings.Builder
	for i, s := range sections {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(s.title + ":\n")
		for _, f := range s.flags {
			spec := flagSpec(f)
			text := wordwrap.WrapString(flagDescription(f), uint(max(20, width-column)))
			lines := strings.Split(text, "\n")
			if len(spec) > column-2 {
				b.WriteString(spec + "\n")
			} else {
				lines[0] = spec + strings.Repeat(" ", column-len(spec)) + lines[0]
				b.WriteString(lines[0] + "\n")
				lines = lines[1:]
			}
			for _, l := range lines {
				b.WriteString(strings.Repeat(" ", column) + l + "\n")
			}
		}
	}
	return b.String()
}

// flagSection is one heading of the help and its flags.
type flagSection struct {
	title string
	flags []*pflag.Flag
}

// flagSections puts the visible flags under the headings of flagGroups, in their order; the
// others go last, by name, with help at the end.
func flagSections(fs *pflag.FlagSet) []flagSection {
	byName := map[string]*pflag.Flag{}
	fs.VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			byName[f.Name] = f
		}
	})
	placed := map[string]bool{}
	var sections []flagSection
	for _, g := range flagGroups {
		var in []*pflag.Flag
		for _, name := range g.flags {
			if f := byName[name]; f != nil && !placed[name] {
				in = append(in, f)
				placed[name] = true
			}
		}
		if len(in) > 0 {
			sections = append(sections, flagSection{g.title, in})
		}
	}
	var rest []*pflag.Flag
	for name, f := range byName {
		if !placed[name] && name != "help" {
			rest = append(rest, f)
		}
	}
	sort.Slice(rest, func(i, j int) bool { return rest[i].Name < rest[j].Name })
	if h := byName["help"]; h != nil {
		rest = append(rest, h)
	}
	if len(rest) > 0 {
		title := "Other flags"
		if len(sections) == 0 {
			title = "Flags"
		}
		sections = append(sections, flagSection{title, rest})
	}
	return sections
}

// flagSpec is how a flag is written: "  -h, --help" or "      --node-group NAME=TYPE".
func flagSpec(f *pflag.Flag) string {
	spec := "      --" + f.Name
	if f.Shorthand != "" {
		spec = "  -" + f.Shorthand + ", --" + f.Name
	}
	if f.Value.Type() != "bool" {
		name, _ := pflag.UnquoteUsage(f)
		if name == "stringArray" || name == "strings" {
			name = "string"
		}
		spec += " " + name
	}
	return spec
}

// flagDescription is a flag's usage with its default, when it has one worth saying.
func flagDescription(f *pflag.Flag) string {
	_, usage := pflag.UnquoteUsage(f)
	switch f.DefValue {
	case "", "0", "0s", "false", "[]":
		return usage
	}
	if strings.Contains(usage, "(default") {
		return usage
	}
	if f.Value.Type() == "string" {
		return fmt.Sprintf("%s (default %q)", usage, f.DefValue)
	}
	return fmt.Sprintf("%s (default %s)", usage, f.DefValue)
}

// wrapParagraphs wraps prose to width; indented lines (syntax, examples) stay as written.
func wrapParagraphs(text string, width int) string {
	paragraphs := strings.Split(strings.TrimRight(text, "\n"), "\n\n")
	for i, p := range paragraphs {
		if strings.HasPrefix(p, " ") {
			continue
		}
		paragraphs[i] = wordwrap.WrapString(strings.Join(strings.Fields(p), " "), uint(width))
	}
	return strings.Join(paragraphs, "\n\n")
}

// nearestFlags are the flags of fs whose names are closest to a misspelled one: the same
// letters without dashes (--nodegroup), or at most two edits away.
func nearestFlags(fs *pflag.FlagSet, name string) []string {
	bare := func(s string) string { return strings.ReplaceAll(strings.ToLower(s), "-", "") }
	type candidate struct {
		name string
		d    int
	}
	var found []candidate
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		d := levenshtein.Distance(bare(name), bare(f.Name), nil)
		if d <= 2 || strings.HasPrefix(f.Name, name) && len(name) >= 3 {
			found = append(found, candidate{f.Name, d})
		}
	})
	sort.Slice(found, func(i, j int) bool {
		if found[i].d != found[j].d {
			return found[i].d < found[j].d
		}
		return found[i].name < found[j].name
	})
	var out []string
	for _, c := range found {
		if len(out) == 3 {
			break
		}
		out = append(out, "--"+c.name)
	}
	return out
}
