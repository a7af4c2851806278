// Package tfplan reads Terraform plan and state JSON (`terraform show -json plan.out`, or
// `terraform show -json` of the state): the node groups, Fargate profiles and Kubernetes
// manifests Terraform itself resolved, including values the code alone cannot give (data
// sources, provider-computed ids, variables the pipeline sets). Each is named by its resource
// address, so that the run can join it to the code that declares it (pkg/loaders joins).
//
// The file is untrusted input like any other: it is read through the run's confined,
// size-budgeted reader, parsed with hashicorp/terraform-json, walked within a resource and a
// module-depth budget, and every value is type-checked where it is used; a file that is not a
// plan, or holds what cannot be read, is a located error, never a crash.
package tfplan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	tfjson "github.com/hashicorp/terraform-json"

	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/loaders/kubernetes"
	"github.com/eni-lint/eni-lint/pkg/loaders/terraform"
)

// Budgets: a plan of a huge monorepo has tens of thousands of resources; these bound what
// one file can make the run do. Variables so that tests can lower them.
var (
	// MaxResources is how many managed resources one file may hold.
	MaxResources = 200_000
	// MaxModuleDepth is how deep child modules may nest (Terraform's own configurations
	// rarely pass 5).
	MaxModuleDepth = 64
)

// Source names, in the report, what a node group was read from.
const Source = "terraform plan"

// Sniff reports whether data has the shape `terraform show -json` writes, a plan or a state:
// a JSON object whose top level has format_version and terraform_version as strings. It scans
// the top level without decoding the values it skips (a plan whose keys were sorted by jq has
// terraform_version last), to its end: a key no plan has (apiVersion: a manifest), wherever it
// is, makes it no plan, so that a manifest written with those two keys first is still read as
// a manifest (it was taken for an empty state, and its CronJob was not checked).
func Sniff(data []byte) bool {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return false
	}
	i++
	var format, version bool
	for {
		i = skipSpace(data, i)
		if i >= len(data) || data[i] != '"' {
			return false
		}
		end := skipString(data, i)
		if end < 0 {
			return false
		}
		key := string(data[i+1 : end-1])
		i = skipSpace(data, end)
		if i >= len(data) || data[i] != ':' {
			return false
		}
		i = skipSpace(data, i+1)
		if i >= len(data) {
			return false
		}
		switch key {
		case "apiVersion", "kind", "AWSTemplateFormatVersion", "Resources":
			return false // a Kubernetes manifest or a CloudFormation template
		case "format_version":
			format = data[i] == '"'
		case "terraform_version":
			version = data[i] == '"'
		}
		if i = skipValue(data, i); i < 0 {
			return false
		}
		i = skipSpace(data, i)
		if i >= len(data) || data[i] != ',' && data[i] != '}' {
			return false
		}
		if data[i] == '}' {
			break
		}
		i++
	}
	return format && version
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index just after the JSON string starting at i, or -1.
func skipString(data []byte, i int) int {
	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

// skipValue returns the index just after the JSON value starting at i, or -1: strings and
// brackets are matched, nothing is decoded (the full parse comes later, for a plan only).
func skipValue(data []byte, i int) int {
	switch data[i] {
	case '"':
		return skipString(data, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(data); j++ {
			switch data[j] {
			case '"':
				if j = skipString(data, j); j < 0 {
					return -1
				}
				j--
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	j := i
	for j < len(data) && data[j] != ',' && data[j] != '}' && data[j] != ']' && data[j] != ' ' && data[j] != '\n' && data[j] != '\r' && data[j] != '\t' {
		j++
	}
	return j
}

// Load reads one plan or state file. Every position is in the file: the line and column
// where the resource's address is written. The fragment's Plan says what it covers.
func Load(file string, data []byte, opts kubernetes.Options) (frag inventory.Fragment) {
	frag.File = file
	fail := func(at inventory.Position, format string, args ...any) inventory.Fragment {
		frag.Errors = append(frag.Errors, inventory.LoadError{Position: at, Message: fmt.Sprintf(format, args...)})
		return frag
	}
	// A value of a shape no Terraform writes must not crash a run: it becomes a located
	// error for this file.
	defer func() {
		if r := recover(); r != nil {
			frag = inventory.Fragment{File: file, Errors: []inventory.LoadError{{Position: inventory.Position{File: file, Line: 1, Column: 1},
				Message: fmt.Sprintf("cannot read this Terraform plan: %v", r)}}}
		}
	}()
	if !Sniff(data) {
		return fail(inventory.Position{File: file, Line: 1, Column: 1}, "not a Terraform plan or state in JSON: `terraform show -json` output starts with format_version and terraform_version (write it with terraform plan -out plan.out && terraform show -json plan.out > plan.json)")
	}
	r := &reader{file: file, data: data, opts: opts, at: addressPositions(file, data), unknown: map[string]any{}, templates: map[string][]resource{}}
	read := &inventory.PlanRead{Addresses: map[string]bool{}}
	root, what, err := r.parse(read)
	if err != nil {
		return fail(jsonErrorAt(file, data, err), "cannot read this Terraform %s: %v", what, err)
	}
	if err := r.collect(root, "", 0); err != nil {
		return fail(inventory.Position{File: file, Line: 1, Column: 1}, "%v", err)
	}
	read.Resources = len(r.resources)
	frag.Plan = read
	for _, res := range r.resources {
		switch res.typ {
		case "aws_eks_node_group":
			frag.NodeGroups = append(frag.NodeGroups, r.managedNodeGroup(res))
		case "aws_autoscaling_group":
			if g, ok := r.autoScalingGroup(res); ok {
				frag.NodeGroups = append(frag.NodeGroups, g)
			}
		case "aws_eks_fargate_profile":
			frag.FargateProfiles = append(frag.FargateProfiles, r.fargateProfile(res))
		case "kubectl_manifest", "kubernetes_manifest":
			frag.Append(r.manifest(res))
		case "aws_launch_template", "aws_launch_configuration":
		default:
			continue
		}
		read.Addresses[res.address] = true
	}
	frag.Documents = 1
	return frag
}

// parse reads the file once as a plan; one with neither planned values nor changes is a
// state (`terraform show -json` without a plan), parsed as one. It returns the root module,
// and what the file was read as when it cannot be parsed.
func (r *reader) parse(read *inventory.PlanRead) (*tfjson.StateModule, string, error) {
	var p tfjson.Plan
	if err := json.Unmarshal(r.data, &p); err != nil {
		return nil, "plan", err
	}
	if p.PlannedValues == nil && len(p.ResourceChanges) == 0 {
		var s tfjson.State
		if err := json.Unmarshal(r.data, &s); err != nil {
			return nil, "state", err
		}
		read.Kind, read.TerraformVersion = "state", s.TerraformVersion
		if s.Values == nil {
			return nil, "", nil
		}
		return s.Values.RootModule, "", nil
	}
	read.Kind, read.TerraformVersion = "plan", p.TerraformVersion
	if p.Config != nil {
		r.config = p.Config.RootModule
	}
	for _, c := range p.ResourceChanges {
		if c != nil && c.Change != nil && c.Change.AfterUnknown != nil {
			r.unknown[c.Address] = c.Change.AfterUnknown
		}
	}
	if p.PlannedValues == nil {
		return nil, "", nil
	}
	return p.PlannedValues.RootModule, "", nil
}

// resource is one managed resource instance of the plan (or state).
type resource struct {
	address, module, typ string
	values               map[string]any
	unknown              any // after_unknown: true where a value is known only after apply
	at                   inventory.Position
}

type reader struct {
	file      string
	data      []byte
	opts      kubernetes.Options
	at        map[string]inventory.Position
	unknown   map[string]any
	resources []resource
	// Launch templates and configurations, by id, by name and by module, for the node
	// groups that name them.
	templates map[string][]resource
	// config is the plan's configuration: which arguments the code writes; configResources
	// indexes each module's resources by address once (scanning them for each node group was
	// quadratic: a plan of 25,000 node groups took minutes).
	config          *tfjson.ConfigModule
	configResources map[*tfjson.ConfigModule]map[string]*tfjson.ConfigResource
}

// written says whether the code writes an argument of the resource at address, from the
// plan's configuration; known is false when the plan has no configuration for it.
func (r *reader) written(address, argument string) (written, known bool) {
	m := r.config
	parts := splitAddress(address)
	for len(parts) > 2 && parts[0] == "module" {
		if m == nil || m.ModuleCalls[parts[1]] == nil {
			return false, false
		}
		m = m.ModuleCalls[parts[1]].Module
		parts = parts[2:]
	}
	if m == nil || len(parts) != 2 {
		return false, false
	}
	byAddress, ok := r.configResources[m]
	if !ok {
		byAddress = map[string]*tfjson.ConfigResource{}
		for _, c := range m.Resources {
			if c != nil {
				if _, seen := byAddress[c.Address]; !seen {
					byAddress[c.Address] = c // the first, as the scan found it
				}
			}
		}
		if r.configResources == nil {
			r.configResources = map[*tfjson.ConfigModule]map[string]*tfjson.ConfigResource{}
		}
		r.configResources[m] = byAddress
	}
	if c := byAddress[parts[0]+"."+parts[1]]; c != nil {
		_, written := c.Expressions[argument]
		return written, true
	}
	return false, false
}

// splitAddress splits a resource address into its names, without instance keys:
// module.a["x"].aws_eks_node_group.this[0] is module, a, aws_eks_node_group, this.
func splitAddress(address string) []string {
	var parts []string
	var cur strings.Builder
	depth, quoted := 0, false
	for i := 0; i < len(address); i++ {
		c := address[i]
		switch {
		case quoted:
			if c == '\\' {
				i++
			} else if c == '"' {
				quoted = false
			}
		case c == '"' && depth > 0:
			quoted = true
		case c == '[':
			depth++
		case c == ']':
			depth--
		case depth > 0:
		case c == '.':
			parts = append(parts, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(c)
		}
	}
	return append(parts, cur.String())
}

// collect walks a module and its children within the budgets, keeping managed resources.
func (r *reader) collect(m *tfjson.StateModule, module string, depth int) error {
	if m == nil {
		return nil
	}
	if depth > MaxModuleDepth {
		return fmt.Errorf("child modules nest more than %d deep at %s (a budget): not read", MaxModuleDepth, module)
	}
	for _, s := range m.Resources {
		if s == nil || s.Mode != tfjson.ManagedResourceMode {
			continue
		}
		if len(r.resources) >= MaxResources {
			return fmt.Errorf("more than %d resources (a budget): not read", MaxResources)
		}
		res := resource{address: s.Address, module: module, typ: s.Type, values: s.AttributeValues, unknown: r.unknown[s.Address], at: r.position(s.Address)}
		r.resources = append(r.resources, res)
		if s.Type == "aws_launch_template" || s.Type == "aws_launch_configuration" {
			keys := []string{"module:" + module}
			if id := str(res.values, "id"); id != "" {
				keys = append(keys, "id:"+id)
			}
			if name := str(res.values, "name"); name != "" {
				keys = append(keys, "name:"+name)
			}
			for _, key := range keys {
				r.templates[s.Type+" "+key] = append(r.templates[s.Type+" "+key], res)
			}
		}
	}
	for _, c := range m.ChildModules {
		if c == nil {
			continue
		}
		if err := r.collect(c, c.Address, depth+1); err != nil {
			return err
		}
	}
	return nil
}

func (r *reader) position(address string) inventory.Position {
	if p, ok := r.at[address]; ok {
		return p
	}
	return inventory.Position{File: r.file, Line: 1, Column: 1}
}

// afterApply is the reason a value is unknown in a plan.
const afterApply = "known only after apply (after_unknown in the plan)"

// managedNodeGroup reads an aws_eks_node_group as the provider stores it.
func (r *reader) managedNodeGroup(res resource) inventory.NodeGroupSpec {
	v := res.values
	g := inventory.NodeGroupSpec{Name: res.address, Address: res.address, Source: Source + ":aws_eks_node_group", Location: res.at}
	if s := str(v, "node_group_name"); s != "" {
		g.Name = s
	} else if s := str(v, "node_group_name_prefix"); s != "" {
		g.Name = s + "*"
	}
	unknown := func(field string) {
		if g.UnknownTypes == "" {
			g.UnknownTypes = field + " is " + afterApply
		}
	}
	if unknownAt(res.unknown, "labels") {
		unknown("labels")
	}
	g.Labels = strMap(v["labels"])
	g.CapacityType = str(v, "capacity_type")
	g.Arch, g.Windows = terraform.AMIPlatform(str(v, "ami_type"))
	if sc := blocks(v, "scaling_config"); len(sc) > 0 {
		g.MinSize, g.MaxSize = integer(sc[0], "min_size"), integer(sc[0], "max_size")
	}
	if unknownAt(res.unknown, "taint") {
		unknown("taint")
	}
	for _, t := range blocks(v, "taint") {
		g.Taints = append(g.Taints, inventory.Taint{Key: str(t, "key"), Value: str(t, "value"), Effect: terraform.TaintEffect(str(t, "effect"))})
	}
	g.InstanceTypes = strs(v["instance_types"])
	// instance_types is computed: a group that does not write it plans it unknown. EKS takes
	// the launch template's instance type then (AWS refuses a type in both), else t3.medium.
	typesUnknown := unknownAt(res.unknown, "instance_types")
	ltType, ltWhy := "", ""
	if lts := blocks(v, "launch_template"); len(lts) > 0 && len(g.InstanceTypes) == 0 {
		ltType, ltWhy = r.templateType(res, "aws_launch_template", str(lts[0], "id"), str(lts[0], "name"))
	}
	written, configured := r.written(res.address, "instance_types")
	switch {
	case len(g.InstanceTypes) > 0 || g.UnknownTypes != "":
	case ltType != "":
		g.InstanceTypes = []string{ltType}
	case ltWhy != "" && !written:
		// A type in the launch template only apply gives: the group's own types are then
		// empty (AWS refuses both), unless the code writes them.
		g.UnknownTypes = ltWhy
	case typesUnknown && (written || !configured):
		unknown("instance_types")
	default:
		g.InstanceTypes = []string{terraform.EKSDefaultInstanceType}
	}
	if g.UnknownTypes != "" {
		// Labels, taints or types only apply gives decide where pods land: the whole group
		// is unknown, as in the code.
		g.InstanceTypes = nil
	}
	g.TypeLocations = repeat(res.at, max(len(g.InstanceTypes), 1))
	return g
}

// autoScalingGroup reads an aws_autoscaling_group: the types of a mixed instances policy's
// overrides, else of its launch template, else of its launch configuration.
func (r *reader) autoScalingGroup(res resource) (inventory.NodeGroupSpec, bool) {
	v := res.values
	g := inventory.NodeGroupSpec{Name: res.address, Address: res.address, Source: Source + ":aws_autoscaling_group", Location: res.at, SelfManaged: true}
	if s := str(v, "name"); s != "" {
		g.Name = s
	}
	g.MinSize, g.MaxSize = integer(v, "min_size"), integer(v, "max_size")
	var ltID, ltName string
	spec := false
	if lts := blocks(v, "launch_template"); len(lts) > 0 {
		ltID, ltName, spec = str(lts[0], "id"), str(lts[0], "name"), true
	}
	if unknownAt(res.unknown, "mixed_instances_policy") {
		g.UnknownTypes = "the mixed instances policy is " + afterApply
	}
	for _, mip := range blocks(v, "mixed_instances_policy") {
		for _, lt := range blocks(mip, "launch_template") {
			for _, s := range blocks(lt, "launch_template_specification") {
				ltID, ltName, spec = str(s, "launch_template_id"), str(s, "launch_template_name"), true
			}
			for _, o := range blocks(lt, "override") {
				if t := str(o, "instance_type"); t != "" {
					g.InstanceTypes = append(g.InstanceTypes, t)
				} else if len(blocks(o, "instance_requirements")) > 0 && g.UnknownTypes == "" {
					g.UnknownTypes = "an override selects instance types by instance_requirements, which EC2 resolves at launch"
				}
			}
		}
	}
	if len(g.InstanceTypes) == 0 && g.UnknownTypes == "" {
		var t, why string
		switch {
		case spec:
			t, why = r.templateType(res, "aws_launch_template", ltID, ltName)
			if t == "" && why == "" {
				why = "the launch template sets no instance_type"
			}
		case str(v, "launch_configuration") != "" || unknownAt(res.unknown, "launch_configuration"):
			t, why = r.templateType(res, "aws_launch_configuration", "", str(v, "launch_configuration"))
		default:
			return g, false // AWS requires one of the three
		}
		g.UnknownTypes = why
		if t != "" {
			g.InstanceTypes = []string{t}
		}
	}
	if g.UnknownTypes != "" {
		g.InstanceTypes = nil
	}
	g.TypeLocations = repeat(res.at, max(len(g.InstanceTypes), 1))
	return g, true
}

// templateType finds the instance type of the launch template (or configuration) a group
// names by id or name; when the plan knows neither yet (a template created in the same apply),
// the one template of that type in the group's module (the registry modules' shape). why says
// what is unknown.
func (r *reader) templateType(group resource, typ, id, name string) (instanceType, why string) {
	var found []resource
	switch {
	case id != "":
		found = r.templates[typ+" id:"+id]
	case name != "":
		found = r.templates[typ+" name:"+name]
	}
	if len(found) == 0 {
		found = r.templates[typ+" module:"+group.module]
	}
	what := "launch template"
	if typ == "aws_launch_configuration" {
		what = "launch configuration"
	}
	if len(found) != 1 {
		label := id
		if label == "" {
			label = name
		}
		if label == "" {
			label = "its id is " + afterApply
		}
		return "", fmt.Sprintf("the %s (%s) is not one this plan holds, so its instance type is unknown", what, label)
	}
	t := found[0]
	if unknownAt(t.unknown, "instance_type") {
		return "", fmt.Sprintf("the instance_type of %s is %s", t.address, afterApply)
	}
	return str(t.values, "instance_type"), ""
}

func (r *reader) fargateProfile(res resource) inventory.FargateProfile {
	p := inventory.FargateProfile{Name: res.address, Source: Source + ":aws_eks_fargate_profile", Location: res.at}
	if s := str(res.values, "fargate_profile_name"); s != "" {
		p.Name = s
	}
	for _, s := range blocks(res.values, "selector") {
		if ns := str(s, "namespace"); ns != "" {
			p.Selectors = append(p.Selectors, inventory.FargateSelector{Namespace: ns, Labels: strMap(s["labels"])})
		}
	}
	return p
}

// manifest reads the Kubernetes objects of a kubectl_manifest (yaml_body) or a
// kubernetes_manifest (manifest). A value the plan knows only after apply is left out of the
// object, as in the code's manifests; one that decides which object it is (kind, name,
// namespace) makes it unresolved, with the reason.
func (r *reader) manifest(res resource) inventory.Fragment {
	unresolved := func(why string) inventory.Fragment {
		return inventory.Fragment{Unresolved: []inventory.UnresolvedObject{{Source: res.address, Location: res.at, Reason: why}}}
	}
	var text string
	if res.typ == "kubectl_manifest" {
		if unknownAt(res.unknown, "yaml_body") {
			return unresolved("yaml_body is " + afterApply)
		}
		text = str(res.values, "yaml_body")
	} else {
		m, ok := res.values["manifest"].(map[string]any)
		if !ok {
			if unknownAt(res.unknown, "manifest") {
				return unresolved("manifest is " + afterApply)
			}
			return inventory.Fragment{}
		}
		u, _ := res.unknown.(map[string]any)
		doc, err := json.Marshal(markUnknown(m, u["manifest"]))
		if err != nil {
			return unresolved("manifest cannot be written as JSON: " + err.Error())
		}
		text = string(doc)
	}
	if strings.TrimSpace(text) == "" {
		return inventory.Fragment{}
	}
	frag, field := terraform.ReadPartial(r.file, text, r.opts)
	if field != "" {
		return unresolved(field + " is " + afterApply)
	}
	frag.MovePositions(func(inventory.Position) inventory.Position { return res.at })
	frag.EachObject(func(o *inventory.Object) {
		o.ID = strings.SplitN(o.ID, "@", 2)[0] + "@" + r.file + "[" + res.address + "]"
		o.Origin = inventory.Origin{Kind: inventory.OriginTerraformValue, Resource: res.address, Declared: res.at}
	})
	return frag
}

// markUnknown copies a manifest, writing terraform.UnknownText where after_unknown marks a
// value (true), so that ReadPartial leaves those fields out. Marks in odd places (a mark for a
// value that is not there, a list where a map is) change nothing.
func markUnknown(v any, unknown any) any {
	if b, ok := unknown.(bool); ok && b {
		return terraform.UnknownText
	}
	switch x := v.(type) {
	case map[string]any:
		u, _ := unknown.(map[string]any)
		out := make(map[string]any, len(x)+len(u))
		for k, val := range x {
			out[k] = markUnknown(val, u[k])
		}
		for k, mark := range u {
			if _, has := x[k]; !has {
				if b, ok := mark.(bool); ok && b {
					out[k] = terraform.UnknownText
				}
			}
		}
		return out
	case []any:
		u, _ := unknown.([]any)
		out := make([]any, len(x))
		for i, val := range x {
			var mark any
			if i < len(u) {
				mark = u[i]
			}
			out[i] = markUnknown(val, mark)
		}
		return out
	}
	return v
}

// unknownAt reports whether after_unknown marks the value at key, or any value under it.
func unknownAt(unknown any, key string) bool {
	m, ok := unknown.(map[string]any)
	if !ok {
		return false
	}
	return marks(m[key], 0)
}

func marks(v any, depth int) bool {
	if depth > 64 {
		return true // deeper than any provider schema: treat as unknown rather than recurse on
	}
	switch x := v.(type) {
	case bool:
		return x
	case map[string]any:
		for _, c := range x {
			if marks(c, depth+1) {
				return true
			}
		}
	case []any:
		for _, c := range x {
			if marks(c, depth+1) {
				return true
			}
		}
	}
	return false
}

// Typed reads of decoded JSON: a value of the wrong type reads as absent.

func str(m map[string]any, key string) string {
	s, _ := m[key].(string)
	return s
}

func strs(v any) []string {
	list, _ := v.([]any)
	var out []string
	for _, item := range list {
		if s, ok := item.(string); ok && s != "" {
			out = append(out, s)
		}
	}
	return out
}

func strMap(v any) map[string]string {
	m, _ := v.(map[string]any)
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, val := range m {
		if s, ok := val.(string); ok {
			out[k] = s
		}
	}
	return out
}

// blocks reads a nested block as the provider stores it: a list of objects.
func blocks(m map[string]any, key string) []map[string]any {
	list, _ := m[key].([]any)
	var out []map[string]any
	for _, item := range list {
		if b, ok := item.(map[string]any); ok {
			out = append(out, b)
		}
	}
	return out
}

func integer(m map[string]any, key string) *int {
	f, ok := m[key].(float64)
	if !ok || f < 0 || f > 1e9 || f != float64(int(f)) {
		return nil
	}
	n := int(f)
	return &n
}

func repeat(p inventory.Position, n int) []inventory.Position {
	out := make([]inventory.Position, n)
	for i := range out {
		out[i] = p
	}
	return out
}

// addressPositions finds where each address is first written in the file: the position a
// resource only the plan declares is reported at. One pass over the bytes.
func addressPositions(file string, data []byte) map[string]inventory.Position {
	lines := lineStarts(data)
	out := map[string]inventory.Position{}
	key := []byte(`"address"`)
	for i := 0; ; {
		k := bytes.Index(data[i:], key)
		if k < 0 {
			return out
		}
		at := i + k
		j := skipSpace(data, at+len(key))
		i = at + len(key)
		if j >= len(data) || data[j] != ':' {
			continue
		}
		j = skipSpace(data, j+1)
		if j >= len(data) || data[j] != '"' {
			continue
		}
		end := skipString(data, j)
		if end < 0 {
			return out
		}
		var address string
		if json.Unmarshal(data[j:end], &address) == nil {
			if _, seen := out[address]; !seen {
				out[address] = position(file, lines, at)
			}
		}
		i = end
	}
}

func lineStarts(data []byte) []int {
	starts := []int{0}
	for i, b := range data {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

func position(file string, lines []int, offset int) inventory.Position {
	line := sort.Search(len(lines), func(i int) bool { return lines[i] > offset })
	return inventory.Position{File: file, Line: line, Column: offset - lines[line-1] + 1}
}

// jsonErrorAt locates a JSON error: a syntax error's offset; a format version the reader
// refuses, at the top level's format_version; else the file's first line (a lone surrogate
// escape, which the decoder reports without an offset).
func jsonErrorAt(file string, data []byte, err error) inventory.Position {
	var offset int64 = -1
	switch e := err.(type) {
	case *json.SyntaxError:
		offset = e.Offset
	case *json.UnmarshalTypeError:
		offset = e.Offset
	}
	if offset < 0 && strings.Contains(err.Error(), "version") {
		offset = int64(bytes.Index(data, []byte(`"format_version"`)))
	}
	if offset < 0 || offset > int64(len(data)) {
		return inventory.Position{File: file, Line: 1, Column: 1}
	}
	return position(file, lineStarts(data), int(offset))
}
