package analysis

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/eni-lint/eni-lint/internal/synth"
	"github.com/eni-lint/eni-lint/internal/testtool"
	"github.com/eni-lint/eni-lint/pkg/findings"
	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/report"
	"github.com/eni-lint/eni-lint/pkg/rules"
)

// TestPartitionsGiveTheSameReport: the engine may evaluate the per-workload stage of the model
// over slices of the workloads at once (rules.PartitionQuery); the report must be the one a
// single evaluation gives, byte for byte, whatever the number of slices and whether a slice
// boundary splits a class or a namespace.
func TestPartitionsGiveTheSameReport(t *testing.T) {
	dir := t.TempDir()
	if err := synth.Write(dir, testtool.Size(1000, 1500), 7, 9, 10, 3); err != nil {
		t.Fatal(err)
	}
	// What the synthetic tree lacks, first and last in the walk's order, so that the first
	// and the last partition hold it: one object defined twice (ENI013), an unreadable
	// schedule (ENI006), a disruption-only podFailurePolicy (ENI005), a selected hostNetwork
	// pod and a hand-requesting one (ENI008), an ignore entry naming no rule (ENI009).
	for name, text := range map[string]string{"aaa-special.yaml": specialFirst, "zzz-special.yaml": specialLast} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	eng, err := rules.New(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var groups []inventory.NodeGroupSpec
	for i := range 3 {
		groups = append(groups, inventory.NodeGroupSpec{Name: fmt.Sprintf("g%d", i), InstanceTypes: []string{"m5.large", "c5.xlarge"}})
	}
	// onDelete, the default, runs every rule on this tree; -tags slow compares onCompletion too.
	releases := []inventory.Release{inventory.ReleaseOnDelete}
	if testtool.Slow {
		releases = append(releases, inventory.ReleaseOnCompletion)
	}
	for _, release := range releases {
		opts := Options{
			Paths: []string{dir}, ENIRelease: release, CooldownSeconds: 60,
			DefaultNamespace: "default", FailOn: findings.Error, NodeGroups: groups, Today: "2026-01-01",
		}
		var want []byte
		// One partition, two (one per core) and more than there are classes in some slice;
		// -tags slow adds three.
		counts := []int{1, 2, 7}
		if testtool.Slow {
			counts = []int{1, 2, 3, 7}
		}
		for _, k := range counts {
			rep, err := Check(ctx, eng.WithPartitions(k), opts)
			if err != nil {
				t.Fatal(err)
			}
			got, err := reportJSON(rep)
			if err != nil {
				t.Fatal(err)
			}
			if k == 1 {
				want = got
				rules := map[string]bool{}
				for _, f := range rep.Findings {
					rules[f.Rule] = true
				}
				for _, r := range []string{"ENI001", "ENI002", "ENI003", "ENI005", "ENI006", "ENI008", "ENI009", "ENI013"} {
					if !rules[r] && (r != "ENI001" || release == inventory.ReleaseOnDelete) {
						t.Fatalf("%s: no %s finding: the tree does not test what it should", release, r)
					}
				}
				if len(rep.Workloads) < 500 {
					t.Fatalf("%s: %d workloads: too few to compare", release, len(rep.Workloads))
				}
				continue
			}
			if string(got) != string(want) {
				t.Errorf("%s: %d partitions give another report than one (%d bytes against %d)", release, k, len(got), len(want))
			}
		}
		// The policies grouping the workloads into classes themselves (an input without the
		// engine's classes), in one partition and in two: the same report.
		for _, k := range []int{1, 2} {
			rep, err := Check(ctx, eng.WithPolicyClasses().WithPartitions(k), opts)
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := reportJSON(rep); string(got) != string(want) {
				t.Errorf("%s: the policies' own classes in %d partitions give another report than the engine's (%d bytes against %d)", release, k, len(got), len(want))
			}
		}
		// Profiled, the report is one query with every rule, without partitions and without
		// the fanned-out findings evaluated apart: the same report.
		profiled := opts
		profiled.ProfilePolicies = io.Discard
		rep, err := Check(ctx, eng, profiled)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := reportJSON(rep); string(got) != string(want) {
			t.Errorf("%s: one query gives another report than the report and the fanned-out findings apart (%d bytes against %d)", release, len(got), len(want))
		}
	}
}

// reportJSON is the report as --format json writes it (its node groups and witnesses' runs
// are in tables only that writer fills).
func reportJSON(rep *findings.Report) ([]byte, error) {
	var b bytes.Buffer
	err := report.JSON{}.Write(&b, rep)
	return b.Bytes(), err
}

const specialFirst = `apiVersion: vpcresources.k8s.aws/v1beta1
kind: SecurityGroupPolicy
metadata: {name: special, namespace: special}
spec:
  podSelector: {matchLabels: {app: special}}
  securityGroups: {groupIds: [sg-1]}
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: backup, namespace: special}
spec:
  schedule: "*/10 * * * *"
  jobTemplate:
    spec:
      backoffLimit: 2
      template:
        metadata: {labels: {app: special}}
        spec: {restartPolicy: Never, containers: [{name: c, image: i}]}
---
apiVersion: batch/v1
kind: Job
metadata: {name: flaky, namespace: special}
spec:
  backoffLimit: 3
  podFailurePolicy:
    rules:
    - action: Ignore
      onPodConditions: [{type: DisruptionTarget}]
  template:
    metadata: {labels: {app: special}}
    spec: {restartPolicy: Never, containers: [{name: c, image: i}]}
`

const specialLast = `apiVersion: batch/v1
kind: CronJob
metadata: {name: backup, namespace: special}
spec:
  schedule: "*/5 * * * *"
  jobTemplate:
    spec:
      backoffLimit: 6
      template:
        metadata: {labels: {app: special}}
        spec: {restartPolicy: Never, containers: [{name: c, image: i}]}
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: broken, namespace: special}
spec:
  schedule: "every now and then"
  jobTemplate:
    spec:
      ttlSecondsAfterFinished: 300
      template:
        metadata: {labels: {app: special}}
        spec: {restartPolicy: Never, containers: [{name: c, image: i}]}
---
apiVersion: v1
kind: Pod
metadata: {name: host, namespace: special, labels: {app: special}}
spec: {hostNetwork: true, containers: [{name: c, image: i}]}
---
apiVersion: v1
kind: Pod
metadata:
  name: by-hand
  namespace: special
  annotations: {eni-lint.io/ignore: "ENI999: names no rule of this run"}
spec:
  restartPolicy: Never
  containers: [{name: c, image: i, resources: {limits: {vpc.amazonaws.com/pod-eni: "1"}}}]
`

// TestCustomRuleSeesTheFannedOutFindings: with a custom policy the report is one query, so a
// custom rule that reads ENI002's findings finds them (without one, ENI002 and ENI003 are a
// query of their own, which the report query does not see).
func TestCustomRuleSeesTheFannedOutFindings(t *testing.T) {
	dir, policies := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "special.yaml"), []byte(specialFirst), 0o644); err != nil {
		t.Fatal(err)
	}
	const custom = `# METADATA
# title: ENI002 findings are counted
# description: A test rule that reads another rule's findings.
# custom:
#   id: ORG009
#   severity: info
package eni.rules.org009

import data.eni.model

finding contains f if {
	n := count(data.eni.rules.eni002.finding)
	n > 0
	some w in model.eni_workloads
	f := model.finding("ORG009", "", sprintf("%d ENI002 findings", [n]), w, [w.podPath], {})
}
`
	if err := os.WriteFile(filepath.Join(policies, "org009.rego"), []byte(custom), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	eng, err := rules.New(ctx, policies)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Check(ctx, eng, Options{
		Paths: []string{dir}, ENIRelease: inventory.ReleaseOnDelete, CooldownSeconds: 60, DefaultNamespace: "default",
		FailOn: findings.Error, NodeGroups: []inventory.NodeGroupSpec{{Name: "g", InstanceTypes: []string{"m5.large"}}}, Today: "2026-01-01",
	})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range rep.Findings {
		got[f.Rule] = f.Message
	}
	if _, ok := got["ENI002"]; !ok || got["ORG009"] != "2 ENI002 findings" {
		t.Errorf("ENI002 %q, ORG009 %q: the custom rule does not see ENI002's findings", got["ENI002"], got["ORG009"])
	}
}
