package report

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/eni-lint/eni-lint/pkg/findings"
	"github.com/eni-lint/eni-lint/pkg/inventory"
)

// SARIF writes a SARIF 2.1.0 log for code scanning: one rules[] entry per rule with its
// documentation and its page at the version that ran, one result per finding with its region
// and a fingerprint that stays the same across commits, and unreadable inputs as tool
// execution notifications. A finding with no file to point at (its position comes from the
// command line) is a run-level notification naming its rule: code scanning requires a
// location for every result.
type SARIF struct {
	// InformationURI is the tool's home page, shown by SARIF viewers.
	InformationURI string
	// Root is the working folder from the repository root (see FromRoot): code scanning
	// resolves an artifact's uri from the repository root.
	Root string
}

const sarifSchema = "https://json.schemastore.org/sarif-2.1.0.json"

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool        sarifTool         `json:"tool"`
	Invocations []sarifInvocation `json:"invocations"`
	Results     []sarifResult     `json:"results"`
	Properties  map[string]any    `json:"properties,omitempty"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri,omitempty"`
	Rules          []sarifRule `json:"rules"`
}

type sarifText struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifRule struct {
	ID                   string          `json:"id"`
	Name                 string          `json:"name"`
	ShortDescription     sarifText       `json:"shortDescription"`
	FullDescription      sarifText       `json:"fullDescription"`
	Help                 sarifText       `json:"help"`
	HelpURI              string          `json:"helpUri,omitempty"`
	DefaultConfiguration sarifRuleConfig `json:"defaultConfiguration"`
	Properties           map[string]any  `json:"properties"`
}

type sarifRuleConfig struct {
	Level string `json:"level"`
}

type sarifResult struct {
	RuleID       string             `json:"ruleId"`
	Suppressions []sarifSuppression `json:"suppressions,omitempty"`
	RuleIndex    *int               `json:"ruleIndex,omitempty"`
	Level        string             `json:"level"`
	Message      sarifText          `json:"message"`
	Locations    []sarifLocation    `json:"locations,omitempty"`
	// PartialFingerprints lets code scanning follow an alert across commits: the same
	// finding keeps its fingerprint when lines move.
	PartialFingerprints map[string]string `json:"partialFingerprints,omitempty"`
	Properties          map[string]any    `json:"properties,omitempty"`
	// Fixes carry the edit `eni-lint fix` would write for the finding.
	Fixes []sarifFix `json:"fixes,omitempty"`
}

type sarifFix struct {
	Description     sarifText             `json:"description"`
	ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
}

type sarifArtifactChange struct {
	ArtifactLocation sarifArtifact      `json:"artifactLocation"`
	Replacements     []sarifReplacement `json:"replacements"`
}

type sarifReplacement struct {
	DeletedRegion   sarifRegion   `json:"deletedRegion"`
	InsertedContent *sarifContent `json:"insertedContent,omitempty"`
}

type sarifContent struct {
	Text string `json:"text"`
}

// sarifFixes turns a finding's edits into one SARIF fix: per file, each edit replaces whole
// lines (the region ends at the last replaced line's end, before its line ending, which
// stays); a new file is content inserted at its start.
func sarifFixes(f findings.Finding, root string) []sarifFix {
	if len(f.Edits) == 0 {
		return nil
	}
	fix := sarifFix{Description: sarifText{Text: DataSafe(f.Edits[0].Change)}}
	byFile := map[string]int{}
	for _, e := range f.Edits {
		uri := artifactURI(inventory.Position{File: FromRoot(root, e.File), Line: 1})
		if uri == "" {
			return nil
		}
		i, ok := byFile[uri]
		if !ok {
			i = len(fix.ArtifactChanges)
			byFile[uri] = i
			fix.ArtifactChanges = append(fix.ArtifactChanges, sarifArtifactChange{ArtifactLocation: sarifArtifact{URI: uri}})
		}
		var r sarifReplacement
		if e.NewFile {
			r = sarifReplacement{DeletedRegion: sarifRegion{StartLine: 1, StartColumn: 1, EndLine: 1, EndColumn: 1}, InsertedContent: &sarifContent{Text: e.Text}}
		} else {
			lines := strings.SplitAfter(strings.TrimSuffix(e.Original, "\n"), "\n")
			last := strings.TrimRight(lines[len(lines)-1], "\r\n")
			text := e.Text
			if strings.HasSuffix(e.Original, "\n") {
				text = strings.TrimSuffix(strings.TrimSuffix(text, "\n"), "\r")
			}
			r = sarifReplacement{
				DeletedRegion:   sarifRegion{StartLine: e.StartLine, StartColumn: 1, EndLine: e.EndLine, EndColumn: utf8.RuneCountInString(last) + 1},
				InsertedContent: &sarifContent{Text: text},
			}
		}
		fix.ArtifactChanges[i].Replacements = append(fix.ArtifactChanges[i].Replacements, r)
	}
	return []sarifFix{fix}
}

// sarifSuppression: inSource for an ignore annotation in the manifest, external for a config
// ignore or the baseline.
type sarifSuppression struct {
	Kind          string `json:"kind"`
	Justification string `json:"justification"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

type sarifInvocation struct {
	ExecutionSuccessful        bool                `json:"executionSuccessful"`
	ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level          string          `json:"level"`
	Message        sarifText       `json:"message"`
	Locations      []sarifLocation `json:"locations,omitempty"`
	AssociatedRule *sarifRuleRef   `json:"associatedRule,omitempty"`
}

type sarifRuleRef struct {
	ID    string `json:"id"`
	Index *int   `json:"index,omitempty"`
}

// sarifLevel maps severities to SARIF levels.
func sarifLevel(s findings.Severity) string {
	switch s {
	case findings.Error:
		return "error"
	case findings.Warning:
		return "warning"
	default:
		return "note"
	}
}

// FromRoot is a report path as the repository root names it. Report paths are relative to
// the working folder; root is that folder from the repository root ("k8s" when eni-lint runs
// in k8s/, as the Action's working-directory does; "" at the root). GitHub resolves
// annotations, code scanning results and review comments from the repository root, so the
// formats it reads name files that way; text for a person stays relative to where they
// stand. Positions that are not in a file (a flag, standard input) and absolute paths stay.
func FromRoot(root, file string) string {
	if root == "" || file == "" || strings.HasPrefix(file, "<") || strings.HasPrefix(file, "--") || filepath.IsAbs(file) {
		return file
	}
	return path.Clean(path.Join(filepath.ToSlash(root), filepath.ToSlash(file)))
}

// rooted is p with its file named from the repository root (FromRoot).
func rooted(root string, p inventory.Position) inventory.Position {
	p.File = FromRoot(root, p.File)
	return p
}

// artifactURI turns a report path into a relative URI reference, or "" when the position is
// not in a file (a flag, standard input).
func artifactURI(p inventory.Position) string {
	if !p.Known() || strings.HasPrefix(p.File, "<") || strings.HasPrefix(p.File, "--") {
		return ""
	}
	u := url.URL{Path: filepath.ToSlash(p.File)}
	return u.String()
}

func sarifLocations(p inventory.Position) []sarifLocation {
	uri := artifactURI(p)
	if uri == "" {
		return nil
	}
	region := &sarifRegion{StartLine: p.Line, StartColumn: p.Column}
	if p.EndLine > 0 && p.EndColumn > 0 && p.Column > 0 {
		region.EndLine, region.EndColumn = p.EndLine, p.EndColumn
	}
	return []sarifLocation{{PhysicalLocation: sarifPhysical{
		ArtifactLocation: sarifArtifact{URI: uri},
		Region:           region,
	}}}
}

func (s SARIF) Write(w io.Writer, r *findings.Report) error {
	run := sarifRun{
		Tool:       sarifTool{Driver: sarifDriver{Name: "eni-lint", Version: r.Version, InformationURI: s.InformationURI, Rules: []sarifRule{}}},
		Results:    []sarifResult{},
		Properties: map[string]any{"eniRelease": r.Model.ENIRelease, "model": DataSafe(r.Model.Description)},
	}
	// The witnesses' trajectories, once each; a result's witness names its own by id.
	if table := trajectoryTable(r.Findings); len(table) > 0 {
		run.Properties["trajectories"] = table
	}
	// ruleIndex points into rules[]; a rule the report does not document has none (SARIF's
	// -1), rather than pointing at another rule.
	positions := map[string]int{}
	ruleIndex := func(id string) *int {
		if i, ok := positions[id]; ok {
			return &i
		}
		return nil
	}
	for i, rule := range r.Rules {
		positions[rule.ID] = i
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRuleOf(rule, r.Version))
	}
	inv := sarifInvocation{ExecutionSuccessful: len(r.Errors) == 0}
	occurrences := map[string]int{}
	for _, f := range r.Findings {
		locations := sarifLocations(rooted(s.Root, f.Location))
		if locations == nil {
			if f.Suppressed == nil {
				inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, sarifNotification{
					Level: sarifLevel(f.Severity), Message: sarifText{Text: DataSafe(f.Location.File + ": " + PlainMessage(f))},
					AssociatedRule: &sarifRuleRef{ID: f.Rule, Index: ruleIndex(f.Rule)},
				})
			}
			continue
		}
		key := fingerprint(f, s.Root)
		occurrences[key]++
		res := s.result(f, locations, fmt.Sprintf("%s:%d", key, occurrences[key]))
		res.RuleIndex = ruleIndex(f.Rule)
		run.Results = append(run.Results, res)
	}
	for _, e := range r.Errors {
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, sarifNotification{
			Level: "error", Message: sarifText{Text: DataSafe(e.Message)}, Locations: sarifLocations(rooted(s.Root, e.Position)),
		})
	}
	run.Invocations = []sarifInvocation{inv}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{Schema: sarifSchema, Version: "2.1.0", Runs: []sarifRun{run}})
}

// sarifRuleOf is a rule's reportingDescriptor: its METADATA's texts and its page.
func sarifRuleOf(rule findings.RuleDoc, version string) sarifRule {
	return sarifRule{
		ID:               rule.ID,
		Name:             ruleName(rule.Title),
		ShortDescription: sarifText{Text: DataSafe(rule.Title)},
		FullDescription:  sarifText{Text: DataSafe(rule.Description)},
		Help: sarifText{
			Text:     DataSafe(HelpText(rule)),
			Markdown: DataSafe(HelpMarkdown(rule)),
		},
		HelpURI:              RuleDocURL(rule, version),
		DefaultConfiguration: sarifRuleConfig{Level: sarifLevel(rule.Severity)},
		Properties:           map[string]any{"severity": string(rule.Severity), "tags": []string{"eks", "security-groups-for-pods", "branch-eni"}},
	}
}

// result is a located finding as a SARIF result: its message, fixes and fingerprint, its
// details, object and witness as properties, and its suppression.
func (s SARIF) result(f findings.Finding, locations []sarifLocation, fingerprint string) sarifResult {
	res := sarifResult{
		RuleID: f.Rule, Level: sarifLevel(f.Severity),
		Message:             sarifText{Text: DataSafe(PlainMessage(f))},
		Locations:           locations,
		PartialFingerprints: map[string]string{fingerprintName: fingerprint},
		Fixes:               sarifFixes(f, s.Root),
		Properties: map[string]any{
			"severity": string(f.Severity),
		},
	}
	if f.Details != nil {
		res.Properties["details"] = f.Details
	}
	if f.Suppressed != nil {
		kind := "external"
		if f.Suppressed.Kind == "inline" {
			kind = "inSource"
		}
		res.Suppressions = []sarifSuppression{{Kind: kind, Justification: DataSafe(f.Suppressed.Reason)}}
	}
	if f.Object != nil {
		res.Properties["object"] = f.Object
	}
	if f.Witness != nil {
		res.Properties["witness"] = f.Witness
	}
	return res
}

// fingerprintName names eni-lint's partial fingerprint; the version changes if the key does.
const fingerprintName = "eniLintFinding/v1"

// fingerprint is a finding's identity without its line: rule, file, object, and the node group
// and instance type it is about, plus the environments it occurs in. Findings that share all of
// these are told apart by their order (the ":N" suffix), as GitHub's own line hashes are.
func fingerprint(f findings.Finding, root string) string {
	parts := []string{f.Rule, filepath.ToSlash(filepath.Clean(FromRoot(root, f.Location.File)))}
	if f.Object != nil {
		parts = append(parts, f.Object.Kind, f.Object.Namespace, f.Object.Name)
	}
	subject := f.Subject()
	if subject.NodeGroup != nil {
		parts = append(parts, "nodeGroup="+*subject.NodeGroup)
	}
	if subject.InstanceType != nil {
		parts = append(parts, "instanceType="+*subject.InstanceType)
	}
	parts = append(parts, strings.Join(f.Environments, ","))
	if len(f.Clusters) > 0 {
		parts = append(parts, "clusters="+strings.Join(f.Clusters, ","))
	}
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(sum[:16])
}

// ruleName turns a title into the PascalCase name SARIF viewers show next to the ID.
func ruleName(title string) string {
	var b strings.Builder
	for _, word := range strings.FieldsFunc(title, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) {
		b.WriteString(strings.ToUpper(word[:1]) + word[1:])
	}
	return b.String()
}

// HelpText is a rule's documentation as plain text: what and why, the numbers, the fix and
// the other release model. `eni-lint explain` prints the same sections.
func HelpText(r findings.RuleDoc) string {
	var b strings.Builder
	for _, s := range ruleSections(r) {
		if s.body != "" {
			b.WriteString(s.title + "\n" + s.body + "\n\n")
		}
	}
	return strings.TrimSpace(b.String())
}

// HelpMarkdown is HelpText with headings.
func HelpMarkdown(r findings.RuleDoc) string {
	var b strings.Builder
	for _, s := range ruleSections(r) {
		if s.body != "" {
			b.WriteString("**" + s.title + "**\n\n" + s.body + "\n\n")
		}
	}
	return strings.TrimSpace(b.String())
}

type section struct{ title, body string }

func ruleSections(r findings.RuleDoc) []section {
	return []section{
		{"What and why", r.Description},
		{"The numbers it uses", r.Numbers},
		{"How to fix", r.Remediation},
		{"Under the other release model", r.OtherModel},
	}
}
