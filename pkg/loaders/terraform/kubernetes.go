package terraform

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"go.yaml.in/yaml/v3"

	"github.com/eni-lint/eni-lint/pkg/confine"
	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/loaders/kubernetes"
	"github.com/eni-lint/eni-lint/pkg/yamlpos"
)

// kubernetesResource is the object a typed kubernetes_* resource declares.
type kubernetesResource struct{ apiVersion, kind string }

// Kubernetes objects declared with the Terraform kubernetes provider. kubernetes_manifest
// holds the object as written; the typed resources spell fields in snake_case and nested
// blocks, which are converted to the API's camelCase fields (repeated blocks become lists).
var kubernetesResources = map[string]kubernetesResource{
	"kubernetes_job_v1":          {"batch/v1", "Job"},
	"kubernetes_job":             {"batch/v1", "Job"},
	"kubernetes_cron_job_v1":     {"batch/v1", "CronJob"},
	"kubernetes_deployment_v1":   {"apps/v1", "Deployment"},
	"kubernetes_deployment":      {"apps/v1", "Deployment"},
	"kubernetes_daemon_set_v1":   {"apps/v1", "DaemonSet"},
	"kubernetes_stateful_set_v1": {"apps/v1", "StatefulSet"},
	"kubernetes_pod_v1":          {"v1", "Pod"},
	// The provider's names before the _v1 suffix (still accepted by hashicorp/kubernetes 2.x).
	"kubernetes_pod":                       {"v1", "Pod"},
	"kubernetes_cron_job":                  {"batch/v1", "CronJob"},
	"kubernetes_daemonset":                 {"apps/v1", "DaemonSet"},
	"kubernetes_stateful_set":              {"apps/v1", "StatefulSet"},
	"kubernetes_replication_controller_v1": {"v1", "ReplicationController"},
	"kubernetes_replication_controller":    {"v1", "ReplicationController"},
	"kubernetes_service_account_v1":        {"v1", "ServiceAccount"},
	"kubernetes_service_account":           {"v1", "ServiceAccount"},
	"kubernetes_namespace_v1":              {"v1", "Namespace"},
	"kubernetes_namespace":                 {"v1", "Namespace"},
}

// listBlocks are the provider's repeated blocks, with the API field they become.
var listBlocks = map[string]string{
	"container": "containers", "init_container": "initContainers", "toleration": "tolerations",
	"volume": "volumes", "volume_mount": "volumeMounts", "env": "env", "port": "ports",
	"node_selector_term": "nodeSelectorTerms", "match_expressions": "matchExpressions",
	"match_fields": "matchFields", "rule": "rules", "image_pull_secrets": "imagePullSecrets",
	"host_aliases": "hostAliases", "on_exit_codes": "onExitCodes", "on_pod_condition": "onPodConditions",
}

// numericStringFields are integer API fields the provider declares as strings.
var numericStringFields = map[string]bool{"ttlSecondsAfterFinished": true}

// camel turns a provider attribute name into the API's field name.
func camel(s string) string {
	parts := strings.Split(s, "_")
	for i := 1; i < len(parts); i++ {
		if parts[i] != "" {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
	}
	return strings.Join(parts, "")
}

// extractKubernetes turns the module's Kubernetes resources into a manifest fragment.
func (l *loader) extractKubernetes(e *evaluator, opts kubernetes.Options) {
	for _, key := range e.mod.order {
		r := e.mod.resources[key]
		typed, isTyped := kubernetesResources[r.typ]
		if r.typ != "kubernetes_manifest" && r.typ != "kubectl_manifest" && !isTyped {
			continue
		}
		unresolved := l.unresolvedAt(e, r)
		insts, keys, ok := l.declaredInstances(e, r, unresolved)
		if !ok {
			continue
		}
		for i, inst := range insts {
			address := instanceAddress(e, r, keys[i])
			var obj map[string]any
			if r.typ == "kubectl_manifest" {
				if frag, read := l.kubectlManifest(e, r, inst, keys[i], opts, unresolved); read {
					l.manifests = append(l.manifests, producedBy(frag, address))
				}
				continue
			}
			if r.typ == "kubernetes_manifest" {
				obj = l.manifestValue(e, r, inst, keys[i], address, opts, unresolved)
			} else {
				obj = e.typedObject(r, typed, inst, unresolved)
			}
			if obj == nil {
				continue
			}
			doc, err := json.Marshal(obj)
			if err != nil {
				continue
			}
			frag := kubernetes.Load(r.declare.Filename, doc, opts)
			relocate(&frag, r, keys[i])
			l.manifests = append(l.manifests, producedBy(frag, address))
		}
	}
}

// manifestValue is a kubernetes_manifest's object. One whose value only Terraform knows is
// unresolved; one with some unknown fields is loaded without them here (see loadPartial).
// Both give nil, as does a manifest that is not an object.
func (l *loader) manifestValue(e *evaluator, r *resource, inst *instance, key, address string, opts kubernetes.Options, unresolved func(hcl.Range, string)) map[string]any {
	a := r.attrs["manifest"]
	if a == nil {
		return nil
	}
	v, d := e.value(a.Expr, inst)
	if d.HasErrors() || !v.IsKnown() {
		unresolved(a.Expr.Range(), "manifest depends on "+e.unknownReason(a.Expr))
		return nil
	}
	if !v.IsWhollyKnown() {
		doc, err := json.Marshal(ctyToGoMarked(v))
		if err != nil {
			return nil
		}
		if frag, read := e.loadPartial(string(doc), a.Expr, opts, unresolved); read {
			relocate(&frag, r, key)
			l.manifests = append(l.manifests, producedBy(frag, address))
		}
		return nil
	}
	m, _ := ctyToGo(v).(map[string]any)
	return m
}

// typedObject is a kubernetes_* resource's object, from its blocks; nil for one in .tf.json
// (not read) and for one whose name or namespace is unknown, which is unresolved: it must not
// become the default namespace.
func (e *evaluator) typedObject(r *resource, typed kubernetesResource, inst *instance, unresolved func(hcl.Range, string)) map[string]any {
	syn, ok := r.body.(*hclsyntax.Body)
	if !ok {
		return nil
	}
	if x, why := e.unknownIdentity(syn, inst); why != "" {
		unresolved(x.Range(), why)
		return nil
	}
	obj, blocked := e.blockObject(syn, blockPath{kind: typed.kind}, inst)
	if blocked != nil {
		unresolved(blocked.at, blocked.why)
		return nil
	}
	obj["apiVersion"], obj["kind"] = typed.apiVersion, typed.kind
	return obj
}

// relocate points every position of objects read from a Terraform resource at the resource's
// block (the manifest text was generated), and makes their IDs name the resource instance.
func relocate(frag *inventory.Fragment, r *resource, key string) {
	pos := position(r.declare)
	kind := inventory.OriginTerraformValue
	if _, typed := kubernetesResources[r.typ]; typed {
		kind = inventory.OriginTerraformBlock
	}
	relocateWith(frag, r, key, func(inventory.Position) inventory.Position { return pos })
	setOrigin(frag, r, kind, inventory.Position{})
}

// setOrigin records which resource made the fragment's objects, how, and where the heredoc
// that holds their text is, if one does.
func setOrigin(frag *inventory.Fragment, r *resource, kind string, text inventory.Position) {
	frag.EachObject(func(o *inventory.Object) {
		o.Origin = inventory.Origin{Kind: kind, Resource: r.typ + "." + r.name, Declared: position(r.declare), Text: text}
	})
}

// relocateWith moves every position of objects read from a Terraform resource, names the
// resource instance in their IDs, and gives them the resource's ignore comments.
func relocateWith(frag *inventory.Fragment, r *resource, key string, move func(inventory.Position) inventory.Position) {
	pos := position(r.declare)
	suffix := "@" + pos.File + ":" + strconv.Itoa(pos.Line)
	if key != "" {
		suffix += "[" + key + "]"
	}
	frag.MovePositions(move)
	frag.EachObject(func(o *inventory.Object) {
		o.Ignores = append(o.Ignores, r.ignores...)
		o.ID = strings.SplitN(o.ID, "@", 2)[0] + suffix
	})
}

// kubectlManifest reads one kubectl_manifest instance (the gavinbunney/kubectl and
// alekc/kubectl providers): its yaml_body is a heredoc or string written in the .tf, whose
// positions are found in the heredoc, or file(PATH) of a file inside the scanned folders,
// whose positions are its own. A body eni-lint cannot read (templatefile, a data source's
// documents, a variable) is reported as unresolved, never dropped.
func (l *loader) kubectlManifest(e *evaluator, r *resource, inst *instance, key string, opts kubernetes.Options, unresolved func(hcl.Range, string)) (inventory.Fragment, bool) {
	a := r.attrs["yaml_body"]
	if a == nil {
		return inventory.Fragment{}, false
	}
	if call, ok := a.Expr.(*hclsyntax.FunctionCallExpr); ok && call.Name == "file" && len(call.Args) == 1 {
		pv, d := e.value(call.Args[0], inst)
		path, ok := asString(pv)
		if d.HasErrors() || !ok {
			unresolved(a.Expr.Range(), "the path given to file() depends on "+e.unknownReason(call.Args[0]))
			return inventory.Fragment{}, false
		}
		path = l.rootPath(path)
		data, err := l.fsys.ReadFile(path)
		if err != nil {
			l.diags = append(l.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Cannot read the file of yaml_body", Detail: confine.Reason(err), Subject: call.Args[0].Range().Ptr()})
			return inventory.Fragment{}, false
		}
		frag := kubernetes.Load(path, data, opts)
		relocateWith(&frag, r, key, func(p inventory.Position) inventory.Position { return p })
		return frag, true
	}
	text, why := e.partialText(a.Expr, inst)
	if why != "" {
		if r.forEach != nil && readsEach(a.Expr) && strings.HasPrefix(why, "the expression at ") {
			// yaml_body = each.value: what is unknown is the for_each map's value.
			why = "each.value of for_each, whose values depend on " + e.unknownReason(r.forEach)
		}
		unresolved(a.Expr.Range(), "yaml_body depends on "+why)
		return inventory.Fragment{}, false
	}
	frag, read := e.loadPartial(text, a.Expr, opts, unresolved)
	if !read {
		return inventory.Fragment{}, false
	}
	if lineOffset, colOffset, ok := l.heredocOffsets(a.Expr, text); ok {
		file := a.Expr.Range().Filename
		relocateWith(&frag, r, key, func(p inventory.Position) inventory.Position {
			if p.Line == 0 {
				return position(a.Expr.Range())
			}
			col := p.Column
			if col > 0 {
				col += colOffset
			}
			return inventory.Position{File: file, Line: p.Line + lineOffset, Column: col}
		})
		setOrigin(&frag, r, inventory.OriginTerraformHeredoc, position(a.Expr.Range()))
	} else {
		relocate(&frag, r, key)
	}
	return frag, true
}

// heredocOffsets maps a position in a heredoc's text back to the .tf file: the text's line 1
// is the line after <<EOT, and <<-EOT removed the lines' common indentation. It says false
// when the expression is not a heredoc, or its value has more or fewer lines than its source
// (an interpolation that adds lines), so positions inside it cannot be trusted.
func (l *loader) heredocOffsets(expr hcl.Expression, text string) (lines, cols int, ok bool) {
	r := expr.Range()
	src := l.parser.Sources()[r.Filename]
	if src == nil || r.End.Byte > len(src) || !strings.HasPrefix(string(src[r.Start.Byte:r.End.Byte]), "<<") {
		return 0, 0, false
	}
	body := strings.Split(string(src[r.Start.Byte:r.End.Byte]), "\n")
	if len(body) < 2 {
		return 0, 0, false
	}
	content := body[1 : len(body)-1] // between the <<EOT line and the closing marker
	if strings.Count(strings.TrimSuffix(text, "\n"), "\n")+1 != len(content) {
		return 0, 0, false
	}
	if strings.HasPrefix(string(src[r.Start.Byte:r.End.Byte]), "<<-") {
		cols = -1
		for _, line := range content {
			if strings.TrimSpace(line) == "" {
				continue
			}
			if n := len(line) - len(strings.TrimLeft(line, " \t")); cols < 0 || n < cols {
				cols = n
			}
		}
		cols = max(cols, 0)
	}
	return r.Start.Line, cols, true
}

// unknownIdentity finds a metadata name or namespace of a typed resource that is written but
// not known statically, and says what it depends on.
func (e *evaluator) unknownIdentity(body *hclsyntax.Body, inst *instance) (hcl.Expression, string) {
	for _, b := range body.Blocks {
		if b.Type != "metadata" {
			continue
		}
		for _, name := range []string{"name", "namespace", "generate_name"} {
			if a := b.Body.Attributes[name]; a != nil {
				// null or "" (a lookup's fallback): Terraform would not create it as written.
				if v, d := e.value(a.Expr, inst); d.HasErrors() || !v.IsWhollyKnown() || v.IsNull() || v.Type() == cty.String && v.AsString() == "" {
					return a.Expr, "metadata." + name + " depends on " + e.unknownReason(a.Expr)
				}
			}
		}
	}
	return nil, ""
}

// blockPath is where a block is in a typed resource: the resource's kind and the block's path
// as the API spells it ("spec.jobTemplate.spec.template.metadata"; a repeated block is an item,
// "spec.template.spec.tolerations[]"), so that decidingField reads it as it reads a manifest's.
type blockPath struct{ kind, path string }

// child is the path of a block of type typ inside this one.
func (b blockPath) child(typ string) blockPath {
	field := camel(typ)
	if list, ok := listBlocks[typ]; ok {
		field = list + "[]"
	}
	if b.path == "" {
		return blockPath{b.kind, field}
	}
	return blockPath{b.kind, b.path + "." + field}
}

// attribute is the API path of one of the block's attributes.
func (b blockPath) attribute(name string) string {
	if b.path == "" {
		return camel(name)
	}
	return b.path + "." + camel(name)
}

// blockObject converts a native-syntax body to API fields: attributes by value, blocks by
// recursion, repeated blocks to lists, and `dynamic` blocks as the blocks their for_each
// generates. blocked is a dynamic block that decides the verdict and cannot be expanded (its
// for_each unknown, or over the budget), or an attribute that decides it and only Terraform
// knows (decidingField): the object is then not read. Any other unknown attribute is left out.
func (e *evaluator) blockObject(body *hclsyntax.Body, at blockPath, inst *instance) (map[string]any, *blockedBlock) {
	out := map[string]any{}
	var unknown []string
	for name, a := range body.Attributes {
		if name == "count" || name == "for_each" || name == "depends_on" || name == "wait_for_completion" || name == "wait_for_rollout" {
			continue
		}
		v, d := e.value(a.Expr, inst)
		if d.HasErrors() || !v.IsWhollyKnown() {
			if decidingField(at.kind, at.attribute(name)) {
				unknown = append(unknown, name)
			}
			continue
		}
		field := camel(name)
		val := ctyToGo(v)
		// The provider types a few integer fields as strings.
		if s, ok := val.(string); ok && numericStringFields[field] {
			if n, err := strconv.Atoi(s); err == nil {
				val = n
			}
		}
		out[field] = val
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		a := body.Attributes[unknown[0]]
		return nil, &blockedBlock{at: a.Expr.Range(), why: at.attribute(unknown[0]) + " depends on " + e.unknownReason(a.Expr)}
	}
	for _, b := range body.Blocks {
		switch b.Type {
		case "timeouts", "lifecycle":
			continue
		case "dynamic":
			if len(b.Labels) != 1 {
				continue // Terraform rejects it
			}
			generated, unknown := e.expandDynamic(b.AsHCLBlock(), inst)
			if unknown != "" && !unreadBlocks[b.Labels[0]] {
				return nil, &blockedBlock{at: b.DefRange(), why: unknown}
			}
			for _, g := range generated {
				content, ok := g.body.(*hclsyntax.Body)
				if !ok {
					continue
				}
				child, blocked := e.blockObject(content, at.child(b.Labels[0]), g.inst)
				if blocked != nil {
					return nil, blocked
				}
				addBlock(out, b.Labels[0], child)
			}
			continue
		}
		child, blocked := e.blockObject(b.Body, at.child(b.Type), inst)
		if blocked != nil {
			return nil, blocked
		}
		addBlock(out, b.Type, child)
	}
	return out, nil
}

// blockedBlock is a dynamic block that decides the verdict and cannot be expanded, and why.
type blockedBlock struct {
	at  hcl.Range
	why string
}

// addBlock adds a converted block to its object: to a list for the blocks that repeat, else
// as a field.
func addBlock(out map[string]any, typ string, child map[string]any) {
	if field, ok := listBlocks[typ]; ok {
		list, _ := out[field].([]any)
		out[field] = append(list, child)
		return
	}
	out[camel(typ)] = child
}

// unreadBlocks are the blocks of a pod no verdict reads: a dynamic one whose for_each is
// unknown is left out, as an unknown attribute is. Any other decides where pods land or what
// they request (tolerations, affinity, containers' resources), and the object is unresolved.
var unreadBlocks = map[string]bool{
	"env": true, "env_from": true, "port": true, "volume": true, "volume_mount": true,
	"image_pull_secrets": true, "host_aliases": true, "liveness_probe": true, "readiness_probe": true,
	"startup_probe": true, "security_context": true,
}

// ctyToGo converts a known cty value to plain Go values for JSON.
func ctyToGo(v cty.Value) any {
	if v.IsNull() || !v.IsKnown() {
		return nil
	}
	ty := v.Type()
	switch {
	case ty == cty.String:
		return v.AsString()
	case ty == cty.Number:
		f, _ := v.AsBigFloat().Float64()
		if f == float64(int64(f)) {
			return int64(f)
		}
		return f
	case ty == cty.Bool:
		return v.True()
	case ty.IsObjectType() || ty.IsMapType():
		out := map[string]any{}
		for it := v.ElementIterator(); it.Next(); {
			k, el := it.Element()
			out[k.AsString()] = ctyToGo(el)
		}
		return out
	case ty.IsListType() || ty.IsTupleType() || ty.IsSetType():
		out := []any{}
		for it := v.ElementIterator(); it.Next(); {
			_, el := it.Element()
			out = append(out, ctyToGo(el))
		}
		return out
	}
	return nil
}

// loadPartial reads a manifest text in which unknownText marks values only Terraform knows
// (readPartial); an unknown identity field makes the object unresolved, with the blocker of the
// interpolation it holds.
func (e *evaluator) loadPartial(text string, expr hcl.Expression, opts kubernetes.Options, unresolved func(hcl.Range, string)) (inventory.Fragment, bool) {
	frag, field, value, read := readPartial(expr.Range().Filename, text, opts)
	if field != "" {
		unresolved(expr.Range(), fmt.Sprintf("%s depends on %s", field, e.markedReason(value, expr)))
	}
	return frag, read
}

// readPartial reads a manifest text in which unknownText marks values only Terraform knows:
// such a value leaves its own field out. One that decides which object this is (its kind, name
// or namespace) makes the object unreadable: field names it and value is the text it holds,
// unless the object is of a kind eni-lint does not read anyway (nothing is lost, field is "").
func readPartial(file, text string, opts kubernetes.Options) (frag inventory.Fragment, field, value string, read bool) {
	docs, err := yamlpos.DocumentsWithin([]byte(text), opts.YAML)
	for _, doc := range docs {
		kind := kindOf(doc)
		if field, value := dropUnknownFields(doc, kind, ""); field != "" {
			if kind != "" && !readKinds[kind] {
				return inventory.Fragment{}, "", "", false
			}
			return inventory.Fragment{}, field, value, false
		}
	}
	return kubernetes.LoadDocuments(file, docs, err, opts), "", "", true
}

// markUnknown writes unknownText for an interpolation of the .tf, numbered so that the field
// it lands in can name that interpolation's own blocker.
func (e *evaluator) markUnknown(part hclsyntax.Expression) string {
	e.marked = append(e.marked, part)
	return fmt.Sprintf("%s_%d", unknownText, len(e.marked)-1)
}

var markedText = regexp.MustCompile(unknownText + `_(\d+)`)

// markedReason names the blocker of the interpolation marked in value, or of expr as a whole.
func (e *evaluator) markedReason(value string, expr hcl.Expression) string {
	if m := markedText.FindStringSubmatch(value); m != nil {
		if i, err := strconv.Atoi(m[1]); err == nil && i < len(e.marked) {
			return e.unknownReason(e.marked[i])
		}
	}
	return e.unknownReason(expr)
}

// unknownText stands in for an interpolation whose value only Terraform knows, in a manifest
// text eni-lint reads; dropUnknownFields removes the fields that hold it.
const unknownText = "ENI_LINT_VALUE_KNOWN_ONLY_WHEN_TERRAFORM_RUNS"

// partialText evaluates a manifest's text: a known string; a template (heredoc or quoted)
// whose unknown interpolations become unknownText on one line each; or yamlencode/jsonencode
// of an object whose unknown values become unknownText. When that is not enough, why names
// what the text depends on.
func (e *evaluator) partialText(expr hcl.Expression, inst *instance) (text, why string) {
	// A provider-computed attribute's stand-in (refPrefix) is no text of the manifest.
	if v, d := e.value(expr, inst); !d.HasErrors() {
		if s, ok := asString(v); ok && !strings.Contains(s, refPrefix) {
			return s, ""
		}
	}
	switch x := expr.(type) {
	case *hclsyntax.TemplateExpr:
		text, blocker, ok := renderParts(x.Parts, func(part hclsyntax.Expression) (cty.Value, hcl.Diagnostics) { return e.value(part, inst) }, e.markUnknown)
		if !ok {
			if blocker != nil {
				return "", e.unknownReason(blocker)
			}
			return "", e.unknownReason(expr)
		}
		return text, ""
	case *hclsyntax.FunctionCallExpr:
		if x.Name == "templatefile" && len(x.Args) == 2 {
			return e.templateFile(x, inst)
		}
		if (x.Name != "yamlencode" && x.Name != "jsonencode") || len(x.Args) != 1 {
			return "", e.unknownReason(expr)
		}
		v, d := e.value(x.Args[0], inst)
		if d.HasErrors() || !v.IsKnown() {
			return "", e.unknownReason(x.Args[0])
		}
		doc, err := json.Marshal(ctyToGoMarked(v))
		if err != nil {
			return "", e.unknownReason(x.Args[0])
		}
		return string(doc), ""
	}
	return "", e.unknownReason(expr)
}

// templateFile renders templatefile(PATH, VARS) for a manifest: the file is read through the
// confined file system (inside the scanned folders, within the size budget), its nesting and
// numbers are checked and its for expressions metered as for a .tf file, and interpolations
// whose value only Terraform knows become unknownText.
func (e *evaluator) templateFile(call *hclsyntax.FunctionCallExpr, inst *instance) (string, string) {
	failed := func() (string, string) { return "", e.unknownReason(call) }
	pv, d := e.value(call.Args[0], inst)
	path, ok := asString(pv)
	if d.HasErrors() || !ok {
		return failed()
	}
	path = e.loader.rootPath(path)
	vars, d := e.value(call.Args[1], inst)
	if d.HasErrors() || !vars.IsKnown() || vars.IsNull() || !(vars.Type().IsObjectType() || vars.Type().IsMapType()) {
		return failed()
	}
	tmpl := e.parseTemplateFile(path, call.Args[0].Range())
	if tmpl == nil {
		return failed()
	}
	variables := map[string]cty.Value{}
	for it := vars.ElementIterator(); it.Next(); {
		k, v := it.Element()
		variables[k.AsString()] = v
	}
	ctx := &hcl.EvalContext{Variables: variables, Functions: e.loader.funcs}
	text, blocker, ok := renderParts(templateParts(tmpl), func(part hclsyntax.Expression) (cty.Value, hcl.Diagnostics) {
		v, d := part.Value(ctx)
		for _, diag := range d {
			if diag.Severity == hcl.DiagError && strings.Contains(diag.Detail, budgetMark) {
				e.diags = append(e.diags, diag)
			}
		}
		return v, d
	}, func(part hclsyntax.Expression) string {
		// Name the .tf expression passed for the template variable that is unknown, so that
		// the field it lands in says what decides it.
		for _, tr := range part.Variables() {
			item := e.objectItem(call.Args[1], tr.RootName())
			if item == nil {
				continue
			}
			v, d := e.value(item.ValueExpr, inst)
			if d.HasErrors() || !v.IsWhollyKnown() || (v.Type() == cty.String && !v.IsNull() && strings.Contains(v.AsString(), refPrefix)) {
				return e.markUnknown(item.ValueExpr)
			}
		}
		return unknownText
	})
	if ok {
		return text, ""
	}
	if blocker == nil {
		return failed()
	}
	return "", e.blockedBy(blocker, call.Args[1])
}

// parseTemplateFile reads and parses a templatefile()'s file within the budgets, its for
// expressions metered; nil, with the error kept, when it cannot.
func (e *evaluator) parseTemplateFile(path string, at hcl.Range) hclsyntax.Expression {
	data, err := e.loader.fsys.ReadFile(path)
	if err != nil {
		e.diags = append(e.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Cannot read the template", Detail: confine.Reason(err), Subject: at.Ptr()})
		return nil
	}
	e.loader.renderedTemplates = append(e.loader.renderedTemplates, absPath(path))
	tokens, _ := hclsyntax.LexTemplate(data, path, hcl.InitialPos)
	if deep := checkTokens(tokens, 0); deep != nil {
		e.diags = append(e.diags, deep)
		return nil
	}
	tmpl, diags := hclsyntax.ParseTemplate(data, path, hcl.InitialPos)
	if diags.HasErrors() {
		e.diags = append(e.diags, diags...)
		return nil
	}
	meterExpression(tmpl)
	return tmpl
}

// blockedBy says why a template's text is not known: the directive that decides it reads
// template variables, and what the .tf passes for them (vars, templatefile's second argument).
func (e *evaluator) blockedBy(blocker hclsyntax.Expression, vars hcl.Expression) string {
	var why []string
	seen := map[string]bool{}
	for _, tr := range blocker.Variables() {
		name := tr.RootName()
		if seen[name] {
			continue
		}
		seen[name] = true
		if fx := e.fieldExpr(vars, name); fx != nil {
			why = append(why, e.unknownReason(fx))
		}
	}
	at := fmt.Sprintf("the directive at %s", describeRange(blocker.Range()))
	if len(why) == 0 {
		return at + " (values only Terraform knows)"
	}
	return at + ", which reads " + strings.Join(why, "; ")
}

// renderParts joins a template's parts as text, writing unknownText for a part whose value
// only Terraform knows (unknown, or a provider attribute's stand-in). false on an error, or
// with the directive (blocker) whose lines depend on values only Terraform knows.
func renderParts(parts []hclsyntax.Expression, eval func(hclsyntax.Expression) (cty.Value, hcl.Diagnostics), mark func(hclsyntax.Expression) string) (text string, blocker hclsyntax.Expression, ok bool) {
	var b strings.Builder
	for _, part := range parts {
		v, d := eval(part)
		if d.HasErrors() {
			return "", nil, false
		}
		known := v.IsWhollyKnown()
		var str cty.Value
		if known {
			var err error
			if str, err = convert.Convert(v, cty.String); err != nil || str.IsNull() {
				return "", nil, false
			}
			known = !strings.Contains(str.AsString(), refPrefix)
		}
		if known {
			b.WriteString(str.AsString())
			continue
		}
		switch x := part.(type) {
		case *hclsyntax.ConditionalExpr:
			// %{ if } … %{ else } … %{ endif } (or ${c ? a : b}) whose condition is known:
			// the branch taken, with its own unknowns marked where they are.
			c, d := eval(x.Condition)
			if !d.HasErrors() && c.IsKnown() && !c.IsNull() && c.Type() == cty.Bool {
				branch := x.FalseResult
				if c.True() {
					branch = x.TrueResult
				}
				text, blocker, ok := renderParts(templateParts(branch), eval, mark)
				if !ok {
					return "", blocker, false
				}
				b.WriteString(text)
				continue
			}
			if spansLines(x.TrueResult) || spansLines(x.FalseResult) {
				return "", x.Condition, false // which lines the text has is Terraform's to know
			}
		case *hclsyntax.TemplateJoinExpr:
			// %{ for } whose output depends on values only Terraform knows: lines, not a
			// value, so no field can stand for it.
			return "", x, false
		}
		b.WriteString(mark(part))
	}
	return b.String(), nil, true
}

// readsEach says whether an expression reads each.key or each.value.
func readsEach(expr hcl.Expression) bool {
	for _, tr := range expr.Variables() {
		if tr.RootName() == "each" {
			return true
		}
	}
	return false
}

// templateParts returns a template's parts, or the expression itself as the only part.
func templateParts(expr hclsyntax.Expression) []hclsyntax.Expression {
	if t, ok := expr.(*hclsyntax.TemplateExpr); ok {
		return t.Parts
	}
	return []hclsyntax.Expression{expr}
}

// spansLines says whether a template branch writes more than one line: a directive's body,
// which one marker cannot stand for.
func spansLines(expr hclsyntax.Expression) bool {
	for _, part := range templateParts(expr) {
		if lit, ok := part.(*hclsyntax.LiteralValueExpr); ok && lit.Val.Type() == cty.String && strings.Contains(lit.Val.AsString(), "\n") {
			return true
		}
		if _, ok := part.(*hclsyntax.TemplateExpr); ok && spansLines(part) {
			return true
		}
	}
	return false
}

// ctyToGoMarked is ctyToGo with unknown values written as unknownText.
func ctyToGoMarked(v cty.Value) any {
	if !v.IsKnown() {
		return unknownText
	}
	if v.IsNull() {
		return nil
	}
	ty := v.Type()
	switch {
	case ty.IsObjectType() || ty.IsMapType():
		out := map[string]any{}
		for it := v.ElementIterator(); it.Next(); {
			k, el := it.Element()
			out[k.AsString()] = ctyToGoMarked(el)
		}
		return out
	case ty.IsListType() || ty.IsTupleType() || ty.IsSetType():
		out := []any{}
		for it := v.ElementIterator(); it.Next(); {
			_, el := it.Element()
			out = append(out, ctyToGoMarked(el))
		}
		return out
	}
	if ty == cty.String && strings.Contains(v.AsString(), refPrefix) {
		return unknownText
	}
	return ctyToGo(v)
}

// opaqueLists are lists whose items count but whose values decide nothing eni-lint checks: a
// SecurityGroupPolicy's security-group ids (usually aws_security_group.x.id). An item only
// Terraform knows is kept as knownWhenApplied; dropped, it would leave the policy without
// groups, which the VPC resource controller ignores (ENI007), and its pods uncounted.
var opaqueLists = map[string]bool{"spec.securityGroups.groupIds": true}

// valuesPath says whether a path is inside a chart's values (valuesOf reads them under
// "values"): a list there keeps an item only Terraform knows, as knownWhenApplied.
func valuesPath(path string) bool { return path == "values" || strings.HasPrefix(path, "values.") }

// knownWhenApplied stands for an opaque list item whose value only Terraform knows.
const knownWhenApplied = "(known when Terraform applies)"

// identityFields decide which object a manifest is, and so whether a policy selects it.
var identityFields = map[string]bool{"apiVersion": true, "kind": true, "metadata.name": true, "metadata.namespace": true}

// decidingField is whether a field of an object of kind (its API path, list items as "[]"),
// when only Terraform knows it, makes the object unreadable rather than read without it, in a
// manifest's text and in a typed resource's blocks alike: its identity; the pod template's
// labels and ServiceAccount, and a bare Pod's or a ServiceAccount's own labels, by which
// SecurityGroupPolicies select pods (left out, the pods would seem selected by none); a
// toleration's fields (left out, the pods would seem to land on fewer node groups). A left-out
// nodeSelector or affinity only lets the pods land more widely, and an image or env decides
// nothing. A chart's values are read as Terraform's: none decides.
func decidingField(kind, p string) bool {
	switch {
	case identityFields[p]:
		return true
	case valuesPath(p):
		return false
	case strings.Contains(p, "template.metadata.labels"),
		strings.HasSuffix(p, "template.spec.serviceAccountName"), strings.HasSuffix(p, "template.spec.serviceAccount"),
		strings.Contains(p, "tolerations[]"):
		return true
	case kind == "Pod" || kind == "ServiceAccount":
		return strings.HasPrefix(p, "metadata.labels") || kind == "Pod" && (p == "spec.serviceAccountName" || p == "spec.serviceAccount")
	}
	return false
}

// dropUnknownFields removes every mapping entry and list item whose value holds unknownText
// and returns the first field that holds it and decides the verdict (decidingField: then the
// object cannot be read), with the text it holds. kind is the object's.
func dropUnknownFields(n *yaml.Node, kind, path string) (field, value string) {
	n = yamlpos.Resolve(n)
	if n == nil {
		return "", ""
	}
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			if f, v := dropUnknownFields(c, kind, path); f != "" {
				return f, v
			}
		}
	case yaml.MappingNode:
		return dropUnknownEntries(n, kind, path)
	case yaml.SequenceNode:
		return dropUnknownItems(n, kind, path)
	}
	return "", ""
}

// holdsUnknown says whether a node is a scalar that holds unknownText.
func holdsUnknown(c *yaml.Node) bool {
	c = yamlpos.Resolve(c)
	return c != nil && c.Kind == yaml.ScalarNode && strings.Contains(c.Value, unknownText)
}

// dropUnknownEntries is dropUnknownFields for a mapping.
func dropUnknownEntries(n *yaml.Node, kind, path string) (field, value string) {
	kept := n.Content[:0]
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, val := n.Content[i], n.Content[i+1]
		p := key.Value
		if path != "" {
			p = path + "." + key.Value
		}
		if holdsUnknown(val) || holdsUnknown(key) {
			if decidingField(kind, p) {
				return p, yamlpos.Resolve(val).Value + " " + key.Value
			}
			if opaqueLists[p] && holdsUnknown(val) && !holdsUnknown(key) {
				// A whole list only Terraform knows (groupIds = var.pod_security_group_ids):
				// it has items when applied, and the policy selects. One stands for them.
				item := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: knownWhenApplied}
				kept = append(kept, key, &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{item}, Line: val.Line, Column: val.Column})
			}
			continue
		}
		if f, v := dropUnknownFields(val, kind, p); f != "" {
			return f, v
		}
		kept = append(kept, key, val)
	}
	n.Content = kept
	return "", ""
}

// dropUnknownItems is dropUnknownFields for a list.
func dropUnknownItems(n *yaml.Node, kind, path string) (field, value string) {
	kept := n.Content[:0]
	for _, c := range n.Content {
		if holdsUnknown(c) && (opaqueLists[path] || valuesPath(path)) {
			// The item exists; only its value is Terraform's, and no verdict reads it. In a
			// chart's values the list keeps its length: a chart that renders it into a
			// policy's groupIds renders a policy that selects, as Terraform's would.
			c = yamlpos.Resolve(c)
			c.Value, c.Tag, c.Style = knownWhenApplied, "!!str", 0
			kept = append(kept, c)
			continue
		}
		if holdsUnknown(c) {
			if decidingField(kind, path+"[]") {
				return path + "[]", yamlpos.Resolve(c).Value
			}
			continue
		}
		if f, v := dropUnknownFields(c, kind, path+"[]"); f != "" {
			return f, v
		}
		kept = append(kept, c)
	}
	n.Content = kept
	return "", ""
}

// readKinds are the kinds whose objects change a verdict (pkg/loaders/kubernetes reads them).
var readKinds = map[string]bool{
	"Job": true, "CronJob": true, "Pod": true, "Deployment": true, "ReplicaSet": true, "StatefulSet": true,
	"DaemonSet": true, "SecurityGroupPolicy": true, "ServiceAccount": true, "Namespace": true, "NodePool": true,
	"EC2NodeClass": true, "NodeClass": true, "Provisioner": true, "ConfigMap": true, "List": true, "ClusterConfig": true,
	"HorizontalPodAutoscaler": true, "ScaledObject": true, "ScaledJob": true, "ReplicationController": true,
	"SparkApplication": true, "ScheduledSparkApplication": true, "Workflow": true, "CronWorkflow": true,
}

// kindOf reads a document's kind when it is written (and known).
func kindOf(doc *yaml.Node) string {
	if _, kind, ok := kubernetes.TypeMeta(doc); ok && !strings.Contains(kind, unknownText) {
		return kind
	}
	return ""
}
