package terraform

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/loaders/kubernetes"
)

// Kubernetes objects declared with the Terraform kubernetes provider. kubernetes_manifest
// holds the object as written; the typed resources spell fields in snake_case and nested
// blocks, which are converted to the API's camelCase fields (repeated blocks become lists).
var kubernetesResources = map[string]struct{ apiVersion, kind string }{
	"kubernetes_job_v1":             {"batch/v1", "Job"},
	"kubernetes_job":                {"batch/v1", "Job"},
	"kubernetes_cron_job_v1":        {"batch/v1", "CronJob"},
	"kubernetes_deployment_v1":      {"apps/v1", "Deployment"},
	"kubernetes_deployment":         {"apps/v1", "Deployment"},
	"kubernetes_daemon_set_v1":      {"apps/v1", "DaemonSet"},
	"kubernetes_stateful_set_v1":    {"apps/v1", "StatefulSet"},
	"kubernetes_pod_v1":             {"v1", "Pod"},
	"kubernetes_service_account_v1": {"v1", "ServiceAccount"},
	"kubernetes_service_account":    {"v1", "ServiceAccount"},
	"kubernetes_namespace_v1":       {"v1", "Namespace"},
	"kubernetes_namespace":          {"v1", "Namespace"},
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
		if r.typ != "kubernetes_manifest" && !isTyped {
			continue
		}
		insts, keys, ok := e.instances(r.count, r.forEach)
		if !ok {
			continue
		}
		for i, inst := range insts {
			var obj map[string]any
			if r.typ == "kubernetes_manifest" {
				a := r.attrs["manifest"]
				if a == nil {
					continue
				}
				v, d := e.value(a.Expr, inst)
				if d.HasErrors() || !v.IsWhollyKnown() {
					l.diags = append(l.diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "manifest not known statically", Subject: r.declare.Ptr()})
					continue
				}
				m, ok := ctyToGo(v).(map[string]any)
				if !ok {
					continue
				}
				obj = m
			} else {
				syn, ok := r.body.(*hclsyntax.Body)
				if !ok {
					continue // kubernetes_* in .tf.json: not read
				}
				obj = e.blockObject(syn, inst)
				obj["apiVersion"], obj["kind"] = typed.apiVersion, typed.kind
			}
			doc, err := json.Marshal(obj)
			if err != nil {
				continue
			}
			frag := kubernetes.Load(r.declare.Filename, doc, opts)
			relocate(&frag, r, keys[i])
			l.manifests = append(l.manifests, frag)
		}
	}
}

// relocate points every position of objects read from a Terraform resource at the resource's
// block (the manifest text was generated), and makes their IDs name the resource instance.
func relocate(frag *inventory.Fragment, r *resource, key string) {
	pos := position(r.declare)
	suffix := "@" + pos.File + ":" + strconv.Itoa(pos.Line)
	if key != "" {
		suffix += "[" + key + "]"
	}
	fix := func(o *inventory.Object) {
		for k := range o.Locations {
			o.Locations[k] = pos
		}
		o.Ignores = append(o.Ignores, r.ignores...)
		o.ID = strings.SplitN(o.ID, "@", 2)[0] + suffix
	}
	frag.EachObject(fix)
	for i := range frag.Workloads {
		w := &frag.Workloads[i]
		for j := range w.Pod.PodENIRequests {
			w.Pod.PodENIRequests[j].Location = pos
		}
	}
	for i := range frag.Errors {
		frag.Errors[i].Position = pos
	}
}

// blockObject converts a native-syntax body to API fields: attributes by value, blocks by
// recursion, repeated blocks to lists.
func (e *evaluator) blockObject(body *hclsyntax.Body, inst *instance) map[string]any {
	out := map[string]any{}
	for name, a := range body.Attributes {
		if name == "count" || name == "for_each" || name == "depends_on" || name == "wait_for_completion" || name == "wait_for_rollout" {
			continue
		}
		v, d := e.value(a.Expr, inst)
		if d.HasErrors() || !v.IsWhollyKnown() {
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
	for _, b := range body.Blocks {
		if b.Type == "timeouts" || b.Type == "lifecycle" || b.Type == "dynamic" {
			continue
		}
		child := e.blockObject(b.Body, inst)
		if field, ok := listBlocks[b.Type]; ok {
			list, _ := out[field].([]any)
			out[field] = append(list, child)
			continue
		}
		out[camel(b.Type)] = child
	}
	return out
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
