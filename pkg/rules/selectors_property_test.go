package rules

import (
	"context"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/component-helpers/scheduling/corev1/nodeaffinity"
	"k8s.io/klog/v2"

	"github.com/eni-lint/eni-lint/pkg/inventory"
)

// The selector semantics of policies/lib/selectors.rego against Kubernetes' own code, on
// random cases from a fixed seed: label selectors (SecurityGroupPolicy podSelector and
// serviceAccountSelector) against apimachinery's labels.Selector; nodeSelector, required node
// affinity (In, NotIn, Exists, DoesNotExist, Gt, Lt) and tolerations against the scheduler's
// component-helpers and core/v1's ToleratesTaint. The inputs are what the loaders produce
// (inventory types, a toleration's empty operator already "Equal"), converted as the engine
// converts them, and evaluated with the engine's strict builtin errors.

const propertyCases = 4000

var (
	propKeys = []string{"team", "tier", "zone", "cpu"}
	// Valid label values only (a label or an In/NotIn value Kubernetes refuses is an object the
	// API rejects); numbers and non-numbers for Gt and Lt.
	propValues = []string{"core", "web", "payments", "1", "4", "16", "x1", "1.5", "007", ""}
	propEffect = []string{"NoSchedule", "NoExecute", "PreferNoSchedule"}
)

func prepareSelectorQuery(t *testing.T, query string) rego.PreparedEvalQuery {
	t.Helper()
	modules, err := Modules(false)
	if err != nil {
		t.Fatal(err)
	}
	opts := []func(*rego.Rego){rego.Query(query), rego.StrictBuiltinErrors(true), rego.Capabilities(Capabilities())}
	for _, m := range modules {
		opts = append(opts, rego.ParsedModule(m))
	}
	q, err := rego.New(opts...).PrepareForEval(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// decide evaluates a boolean query: true when it is defined and true.
func decide(t *testing.T, q rego.PreparedEvalQuery, input map[string]any) (bool, error) {
	t.Helper()
	obj := map[string]*ast.Term{}
	for k, v := range input {
		val, err := toValue(reflect.ValueOf(v))
		if err != nil {
			t.Fatal(err)
		}
		obj[k] = ast.NewTerm(val)
	}
	var pairs [][2]*ast.Term
	for k, v := range obj {
		pairs = append(pairs, [2]*ast.Term{ast.StringTerm(k), v})
	}
	rs, err := q.Eval(context.Background(), rego.EvalParsedInput(ast.NewObject(pairs...)))
	if err != nil {
		return false, err
	}
	return len(rs) == 1 && len(rs[0].Expressions) == 1 && rs[0].Expressions[0].Value == true, nil
}

func randomLabels(r *rand.Rand) map[string]string {
	out := map[string]string{}
	for _, k := range propKeys {
		if r.IntN(2) == 0 {
			out[k] = propValues[r.IntN(len(propValues))]
		}
	}
	return out
}

func randomValues(r *rand.Rand) []string {
	n := 1 + r.IntN(2)
	var out []string
	for i := 0; i < n; i++ {
		out = append(out, propValues[r.IntN(len(propValues))])
	}
	return out
}

// randomRequirement is a valid requirement: In/NotIn with values, Exists/DoesNotExist
// without, and (for nodes) Gt/Lt with one integer.
func randomRequirement(r *rand.Rand, node bool) inventory.Requirement {
	ops := []string{"In", "NotIn", "Exists", "DoesNotExist"}
	if node {
		ops = append(ops, "Gt", "Lt")
	}
	req := inventory.Requirement{Key: propKeys[r.IntN(len(propKeys))], Operator: ops[r.IntN(len(ops))], Values: []string{}}
	switch req.Operator {
	case "In", "NotIn":
		req.Values = randomValues(r)
	case "Gt", "Lt":
		req.Values = []string{[]string{"0", "2", "8", "-1", "+3"}[r.IntN(5)]}
	}
	return req
}

func TestLabelSelectorsAsKubernetes(t *testing.T) {
	q := prepareSelectorQuery(t, "data.eni.selectors.selector_matches(input.sel, input.labels)")
	r := rand.New(rand.NewPCG(30, 1))
	for i := 0; i < propertyCases; i++ {
		sel := inventory.LabelSelector{MatchLabels: map[string]string{}, MatchExpressions: []inventory.Requirement{}}
		for j := r.IntN(2); j > 0; j-- {
			sel.MatchLabels[propKeys[r.IntN(len(propKeys))]] = propValues[r.IntN(len(propValues))]
		}
		for j := r.IntN(3); j > 0; j-- {
			sel.MatchExpressions = append(sel.MatchExpressions, randomRequirement(r, false))
		}
		set := randomLabels(r)
		got, err := decide(t, q, map[string]any{"sel": sel, "labels": set})
		if err != nil {
			t.Fatalf("case %d: %+v on %v: %v", i, sel, set, err)
		}
		k8s := metav1.LabelSelector{MatchLabels: sel.MatchLabels}
		for _, e := range sel.MatchExpressions {
			k8s.MatchExpressions = append(k8s.MatchExpressions, metav1.LabelSelectorRequirement{Key: e.Key, Operator: metav1.LabelSelectorOperator(e.Operator), Values: e.Values})
		}
		s, err := metav1.LabelSelectorAsSelector(&k8s)
		if err != nil {
			t.Fatalf("case %d: the generator made a selector Kubernetes refuses: %v", i, err)
		}
		if want := s.Matches(labels.Set(set)); got != want {
			t.Fatalf("case %d: selector %+v on labels %v: eni-lint %v, Kubernetes %v", i, sel, set, got, want)
		}
	}
}

func TestNodePlacementAsKubernetes(t *testing.T) {
	q := prepareSelectorQuery(t, "data.eni.selectors.admits(input.pod, input.labels, input.taints)")
	r := rand.New(rand.NewPCG(30, 2))
	for i := 0; i < propertyCases; i++ {
		pod := inventory.PodTemplate{NodeSelector: map[string]string{}, RequiredAffinity: []inventory.NodeSelectorTerm{}, Tolerations: []inventory.Toleration{}}
		if r.IntN(3) == 0 {
			pod.NodeSelector[propKeys[r.IntN(len(propKeys))]] = propValues[r.IntN(len(propValues))]
		}
		for j := r.IntN(3); j > 0; j-- {
			term := inventory.NodeSelectorTerm{MatchExpressions: []inventory.Requirement{}, MatchFields: []inventory.Requirement{}}
			for k := r.IntN(3); k > 0; k-- {
				term.MatchExpressions = append(term.MatchExpressions, randomRequirement(r, true))
			}
			pod.RequiredAffinity = append(pod.RequiredAffinity, term)
		}
		for j := r.IntN(3); j > 0; j-- {
			tol := inventory.Toleration{Operator: []string{"Equal", "Exists"}[r.IntN(2)]}
			if tol.Operator == "Equal" || r.IntN(3) > 0 {
				tol.Key = propKeys[r.IntN(len(propKeys))] // Equal needs a key; Exists may go without
			}
			if tol.Operator == "Equal" {
				tol.Value = propValues[r.IntN(len(propValues))]
			}
			if r.IntN(2) == 0 {
				tol.Effect = propEffect[r.IntN(len(propEffect))]
			}
			pod.Tolerations = append(pod.Tolerations, tol)
		}
		nodeLabels := randomLabels(r)
		taints := []inventory.Taint{}
		for j := r.IntN(3); j > 0; j-- {
			taints = append(taints, inventory.Taint{Key: propKeys[r.IntN(len(propKeys))], Value: propValues[r.IntN(len(propValues))], Effect: propEffect[r.IntN(len(propEffect))]})
		}
		got, err := decide(t, q, map[string]any{"pod": pod, "labels": nodeLabels, "taints": taints})
		if err != nil {
			t.Fatalf("case %d: pod %+v on node %v %v: %v", i, pod, nodeLabels, taints, err)
		}
		if want := kubernetesAdmits(pod, nodeLabels, taints); got != want {
			t.Fatalf("case %d: pod %+v on node labels %v taints %v: eni-lint %v, Kubernetes %v", i, pod, nodeLabels, taints, got, want)
		}
	}
}

// kubernetesAdmits is the scheduler's answer: the nodeSelector, the required node affinity
// (component-helpers' nodeaffinity, as the NodeAffinity plugin uses it) and the taints with
// a NoSchedule or NoExecute effect each tolerated (core/v1 ToleratesTaint, as the
// TaintToleration plugin uses it).
func kubernetesAdmits(pod inventory.PodTemplate, nodeLabels map[string]string, taints []inventory.Taint) bool {
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n", Labels: nodeLabels}}
	if !labels.SelectorFromSet(pod.NodeSelector).Matches(labels.Set(nodeLabels)) {
		return false
	}
	if len(pod.RequiredAffinity) > 0 {
		var ns corev1.NodeSelector
		for _, term := range pod.RequiredAffinity {
			var t corev1.NodeSelectorTerm
			for _, e := range term.MatchExpressions {
				t.MatchExpressions = append(t.MatchExpressions, corev1.NodeSelectorRequirement{Key: e.Key, Operator: corev1.NodeSelectorOperator(e.Operator), Values: e.Values})
			}
			ns.NodeSelectorTerms = append(ns.NodeSelectorTerms, t)
		}
		if ok, _ := nodeaffinity.NewLazyErrorNodeSelector(&ns).Match(node); !ok {
			return false
		}
	}
	for _, taint := range taints {
		k8sTaint := corev1.Taint{Key: taint.Key, Value: taint.Value, Effect: corev1.TaintEffect(taint.Effect)}
		if k8sTaint.Effect != corev1.TaintEffectNoSchedule && k8sTaint.Effect != corev1.TaintEffectNoExecute {
			continue
		}
		tolerated := false
		for _, tol := range pod.Tolerations {
			k8sTol := corev1.Toleration{Key: tol.Key, Operator: corev1.TolerationOperator(tol.Operator), Value: tol.Value, Effect: corev1.TaintEffect(tol.Effect)}
			tolerated = tolerated || k8sTol.ToleratesTaint(klog.Background(), &k8sTaint, false)
		}
		if !tolerated {
			return false
		}
	}
	return true
}
