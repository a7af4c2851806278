package kubernetes

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/limits"
	"github.com/google/go-cmp/cmp"
)

var opts = Options{DefaultNamespace: "default"}

func pos(line, col int) inventory.Position {
	return inventory.Position{File: "f.yaml", Line: line, Column: col}
}

// span is the position of a one-line key, which ends just before endCol.
func span(line, col, endCol int) inventory.Position {
	return inventory.Position{File: "f.yaml", Line: line, Column: col, EndLine: line, EndColumn: endCol}
}

func TestJobFieldsAndPositions(t *testing.T) {
	src := `apiVersion: batch/v1
kind: Job
metadata:
  name: migrate
  namespace: billing
spec:
  completions: 3
  ttlSecondsAfterFinished: 60
  template:
    metadata:
      labels:
        app: migrate
    spec:
      serviceAccountName: migrator
      restartPolicy: OnFailure
      nodeSelector:
        kubernetes.io/arch: arm64
      tolerations:
        - key: dedicated
          value: batch
          effect: NoSchedule
      containers:
        - name: main
          image: busybox
`
	frag := Load("f.yaml", []byte(src), opts)
	if len(frag.Errors) != 0 || len(frag.Workloads) != 1 {
		t.Fatalf("errors %v, workloads %d", frag.Errors, len(frag.Workloads))
	}
	w := frag.Workloads[0]
	if w.Kind != "Job" || w.Name != "migrate" || w.Namespace != "billing" || w.NamespaceDefaulted {
		t.Errorf("object = %+v", w.Object)
	}
	if got := *w.Job.Completions; got != 3 || w.Job.BackoffLimit != 6 || *w.Job.TTLSecondsAfterFinished != 60 || w.Job.RestartPolicy != "OnFailure" {
		t.Errorf("job = %+v", w.Job)
	}
	wantPod := inventory.PodTemplate{
		Labels: map[string]string{"app": "migrate"}, ServiceAccountName: "migrator", RestartPolicy: "OnFailure",
		NodeSelector:     map[string]string{"kubernetes.io/arch": "arm64"},
		RequiredAffinity: []inventory.NodeSelectorTerm{},
		Tolerations:      []inventory.Toleration{{Key: "dedicated", Operator: "Equal", Value: "batch", Effect: "NoSchedule"}},
		PodENIRequests:   []inventory.PodENIRequest{},
	}
	if diff := cmp.Diff(wantPod, w.Pod); diff != "" {
		t.Errorf("pod (-want +got):\n%s", diff)
	}
	for path, want := range map[string]inventory.Position{
		"":                                  pos(1, 1),
		"spec":                              span(6, 1, 5),
		"spec.completions":                  span(7, 3, 14),
		"spec.ttlSecondsAfterFinished":      span(8, 3, 26),
		"spec.template.metadata.labels":     span(11, 7, 13),
		"spec.template.spec.nodeSelector":   span(16, 7, 19),
		"spec.template.spec.tolerations[0]": pos(19, 11),
	} {
		if got := w.Locations.At(path); got != want {
			t.Errorf("location of %q = %v, want %v", path, got, want)
		}
	}
	if w.JobSpecPath != "spec" || w.PodPath != "spec.template" {
		t.Errorf("paths %q %q", w.JobSpecPath, w.PodPath)
	}
}

func TestCronJob(t *testing.T) {
	src := `apiVersion: batch/v1
kind: CronJob
metadata:
  name: report
spec:
  schedule: "*/10 * * * *"
  jobTemplate:
    spec:
      backoffLimit: 2
      template:
        spec:
          containers: [{name: c, image: x}]
`
	frag := Load("f.yaml", []byte(src), Options{DefaultNamespace: "team-a"})
	if len(frag.Errors) != 0 || len(frag.Workloads) != 1 {
		t.Fatalf("errors %v", frag.Errors)
	}
	w := frag.Workloads[0]
	if w.Namespace != "team-a" || !w.NamespaceDefaulted {
		t.Errorf("namespace %q defaulted %v", w.Namespace, w.NamespaceDefaulted)
	}
	c := w.CronJob
	if c.PeriodSeconds != 600 || c.ConcurrencyPolicy != "Allow" || c.SuccessfulJobsHistoryLimit != 3 || c.FailedJobsHistoryLimit != 1 {
		t.Errorf("cron = %+v", c)
	}
	if w.Job.BackoffLimit != 2 || w.JobSpecPath != "spec.jobTemplate.spec" {
		t.Errorf("job %+v path %q", w.Job, w.JobSpecPath)
	}
	if got := w.Locations.At("spec.jobTemplate.spec.backoffLimit"); got != span(9, 7, 19) {
		t.Errorf("backoffLimit at %v", got)
	}
}

func TestKindsAndGroups(t *testing.T) {
	tests := []struct {
		name                string
		src                 string
		workloads, sgps, sa int
		errors              int
	}{
		{"deployment", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec: {replicas: 3, template: {spec: {containers: []}}}\n", 1, 0, 0, 0},
		{"statefulset daemonset replicaset pod", "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: a}\n---\napiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: b}\n---\napiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: c}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: []}\n", 4, 0, 0, 0},
		{"replicationcontroller", "apiVersion: v1\nkind: ReplicationController\nmetadata: {name: rc}\nspec: {replicas: 3, template: {metadata: {labels: {app: x}}, spec: {containers: []}}}\n", 1, 0, 0, 0},
		{"argo cron workflow is not a CronJob", "apiVersion: argoproj.io/v1alpha1\nkind: CronWorkflow\nmetadata: {name: w}\nspec: {schedule: '* * * * *'}\n", 0, 0, 0, 0},
		{"a Job of another group is not a Job", "apiVersion: example.com/v1\nkind: Job\nmetadata: {name: j}\n", 0, 0, 0, 0},
		{"sgp and service account", "apiVersion: vpcresources.k8s.aws/v1beta1\nkind: SecurityGroupPolicy\nmetadata: {name: s}\nspec: {podSelector: {}, securityGroups: {groupIds: [sg-1]}}\n---\napiVersion: v1\nkind: ServiceAccount\nmetadata: {name: sa, labels: {a: b}}\n", 0, 1, 1, 0},
		{"not kubernetes", "title: hello\nitems: [1, 2]\n", 0, 0, 0, 0},
		{"scalar document", "just text\n", 0, 0, 0, 0},
		{"empty file", "", 0, 0, 0, 0},
		{"list kind", "apiVersion: v1\nkind: List\nitems:\n- apiVersion: batch/v1\n  kind: Job\n  metadata: {name: j}\n- apiVersion: v1\n  kind: ServiceAccount\n  metadata: {name: s}\n", 1, 0, 1, 0},
		{"typed list kind", "apiVersion: v1\nkind: ServiceAccountList\nitems:\n- apiVersion: v1\n  kind: ServiceAccount\n  metadata: {name: s}\n", 0, 0, 1, 0},
		{"json", `{"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "j"}, "spec": {"completions": 2}}`, 1, 0, 0, 0},
		{"missing name", "apiVersion: batch/v1\nkind: Job\nmetadata: {}\n", 1, 0, 0, 1},
		{"wrong type", "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec: {completions: lots}\n", 1, 0, 0, 1},
		{"negative", "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec: {backoffLimit: -1}\n", 1, 0, 0, 1},
		{"bad surge", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec: {strategy: {rollingUpdate: {maxSurge: lots}}}\n", 1, 0, 0, 1},
		{"labels not a map", "apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: s, labels: [a]}\n", 0, 0, 1, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			frag := Load("f.yaml", []byte(tc.src), opts)
			if len(frag.Workloads) != tc.workloads || len(frag.SecurityGroupPolicies) != tc.sgps || len(frag.ServiceAccounts) != tc.sa || len(frag.Errors) != tc.errors {
				t.Errorf("workloads %d sgps %d sas %d errors %v", len(frag.Workloads), len(frag.SecurityGroupPolicies), len(frag.ServiceAccounts), frag.Errors)
			}
			for _, e := range frag.Errors {
				if e.Position.Line == 0 || e.Position.File != "f.yaml" {
					t.Errorf("error without a line: %+v", e)
				}
			}
		})
	}
}

func TestSyntaxErrorKeepsEarlierDocuments(t *testing.T) {
	src := "apiVersion: batch/v1\nkind: Job\nmetadata: {name: good}\n---\napiVersion: batch/v1\nkind: Job\nmetadata:\n  name: [broken\n"
	frag := Load("f.yaml", []byte(src), opts)
	if len(frag.Workloads) != 1 || frag.Workloads[0].Name != "good" {
		t.Fatalf("workloads %+v", frag.Workloads)
	}
	if len(frag.Errors) != 1 || frag.Errors[0].Position.Line != 8 || !strings.HasPrefix(frag.Errors[0].Message, "YAML syntax error") {
		t.Fatalf("errors %+v", frag.Errors)
	}
}

func TestDeploymentSurgeAndReplicas(t *testing.T) {
	src := "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  replicas: 5\n  strategy:\n    rollingUpdate:\n      maxSurge: 50%\n"
	w := Load("f.yaml", []byte(src), opts).Workloads[0]
	if *w.Replicas != 5 || *w.MaxSurge != 3 {
		t.Errorf("replicas %d surge %d", *w.Replicas, *w.MaxSurge)
	}
}

func TestAnchorsAndMergeKeys(t *testing.T) {
	src := `apiVersion: batch/v1
kind: Job
metadata: {name: j}
spec:
  template:
    metadata:
      labels: &labels
        app: x
    spec:
      nodeSelector:
        <<: *labels
        zone: a
      containers: []
`
	w := Load("f.yaml", []byte(src), opts).Workloads[0]
	if w.Pod.Labels["app"] != "x" || w.Pod.NodeSelector["zone"] != "a" {
		t.Errorf("pod %+v", w.Pod)
	}
}

func TestHandWrittenPodENI(t *testing.T) {
	src := `apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
    - name: c
      resources:
        limits:
          vpc.amazonaws.com/pod-eni: "1"
`
	w := Load("f.yaml", []byte(src), opts).Workloads[0]
	want := []inventory.PodENIRequest{{Container: "c", Field: "limits", Value: "1", Location: span(9, 11, 36)}}
	if diff := cmp.Diff(want, w.Pod.PodENIRequests); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if w.PodPath != "" || w.Locations.At("spec.containers[0]") != pos(6, 7) {
		t.Errorf("pod path %q, locations %v", w.PodPath, w.Locations)
	}
}

func FuzzLoad(f *testing.F) {
	f.Add([]byte("apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec: {completions: 3}\n"))
	f.Add([]byte("apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: c}\nspec: {schedule: '*/5 * * * *', jobTemplate: {spec: {template: {spec: {containers: [{name: a}]}}}}}\n"))
	f.Add([]byte("apiVersion: v1\nkind: List\nitems: [{apiVersion: v1, kind: Pod, metadata: {name: p}}]\n"))
	f.Add([]byte("a: &x [*x]\n"))
	f.Add([]byte("apiVersion: vpcresources.k8s.aws/v1beta1\nkind: SecurityGroupPolicy\nmetadata: {name: s}\nspec: {podSelector: {matchExpressions: [{key: a, operator: In}]}}\n"))
	f.Add([]byte("apiVersion: eksctl.io/v1alpha5\nkind: ClusterConfig\nmetadata: {name: c, region: eu-west-1}\nnodeGroups: [{name: a, instanceType: m5.large, taints: [{key: k, value: v, effect: NoSchedule}]}]\nmanagedNodeGroups: [{name: b, instancesDistribution: {instanceTypes: [c5.large]}, labels: {x: y}}]\n"))
	f.Add([]byte("apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: p}\nspec: {template: {metadata: {labels: {a: b}}, spec: {taints: [{key: k, effect: NoSchedule}], requirements: [{key: kubernetes.io/arch, operator: In, values: [arm64]}]}}}\n"))
	f.Add([]byte("apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: j\n  annotations:\n    eni-lint.io/ignore: 'ENI002,ENI001: reviewed; expires 2027-01-01'\nspec: {template: {metadata: {annotations: {eni-lint.io/ignore: x}}}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		frag := Load("fuzz.yaml", data, opts)
		for _, e := range frag.Errors {
			if e.Position.File != "fuzz.yaml" || e.Message == "" {
				t.Fatalf("error without file or message: %+v", e)
			}
		}
		for _, w := range frag.Workloads {
			if w.ID == "" || w.Locations.At("").Line == 0 {
				t.Fatalf("workload without ID or position: %+v", w.Object)
			}
		}
	})
}

func TestEksctlFargateProfiles(t *testing.T) {
	src := `apiVersion: eksctl.io/v1alpha5
kind: ClusterConfig
metadata: {name: c, region: eu-west-1}
fargateProfiles:
  - name: fp-default
    selectors:
      - namespace: default
      - namespace: batch
        labels: {compute: fargate}
`
	frag := Load("cluster.yaml", []byte(src), opts)
	if len(frag.FargateProfiles) != 1 {
		t.Fatalf("profiles %+v", frag.FargateProfiles)
	}
	p := frag.FargateProfiles[0]
	if p.Name != "fp-default" || len(p.Selectors) != 2 || p.Selectors[1].Labels["compute"] != "fargate" || p.Location.Line != 5 {
		t.Errorf("profile %+v", p)
	}
}

// eksctl's defaults: m5.large only without instance type, instanceSelector or (managed) launch
// template; instanceSelector resolved against the catalog as eksctl filters it.
func TestEksctlInstanceTypes(t *testing.T) {
	src := `apiVersion: eksctl.io/v1alpha5
kind: ClusterConfig
metadata: {name: c, region: eu-west-1}
managedNodeGroups:
  - name: from-template
    launchTemplate: {id: lt-0123456789abcdef0, version: "3"}
  - name: plain
  - name: arm
    instanceSelector: {vCPUs: 2, memory: "8", cpuArchitecture: arm64}
  - name: gpu
    instanceSelector: {vCPUs: 4, memory: 16GiB, gpus: 1, deny: "^g4ad"}
  - name: nothing
    instanceSelector: {vCPUs: 3, memory: 1}
  - name: bad-memory
    instanceSelector: {vCPUs: 2, memory: lots}
nodeGroups:
  - name: self
`
	frag := Load("cluster.yaml", []byte(src), opts)
	byName := map[string]inventory.NodeGroupSpec{}
	for _, g := range frag.NodeGroups {
		byName[g.Name] = g
	}
	if g := byName["from-template"]; len(g.InstanceTypes) != 0 || !strings.Contains(g.UnknownTypes, "launch template lt-0123456789abcdef0") {
		t.Errorf("launch template only: %+v", g)
	}
	for _, name := range []string{"plain", "self"} {
		if g := byName[name]; len(g.InstanceTypes) != 1 || g.InstanceTypes[0] != EksctlDefaultInstanceType {
			t.Errorf("%s: %v, want eksctl's default", name, g.InstanceTypes)
		}
	}
	table, err := limits.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	arm := byName["arm"]
	if len(arm.InstanceTypes) < 3 || !strings.Contains(arm.Source, "instanceSelector") || len(arm.TypeLocations) != len(arm.InstanceTypes) {
		t.Fatalf("arm: %+v", arm)
	}
	for _, name := range arm.InstanceTypes {
		it, ok := table.Lookup(name)
		if ok && (it.Arch != "arm64" || it.VCPUs != 2 || it.MemoryMiB != 8192) {
			t.Errorf("arm selector admits %s: %+v", name, it)
		}
	}
	if !slices.Contains(arm.InstanceTypes, "m6g.large") || slices.Contains(arm.InstanceTypes, "m5.large") {
		t.Errorf("arm: %v", arm.InstanceTypes)
	}
	gpu := byName["gpu"]
	if !slices.Contains(gpu.InstanceTypes, "g4dn.xlarge") || slices.Contains(gpu.InstanceTypes, "g4ad.xlarge") || slices.Contains(gpu.InstanceTypes, "m5.xlarge") {
		t.Errorf("gpu: %v", gpu.InstanceTypes)
	}
	if g := byName["nothing"]; len(g.InstanceTypes) != 0 || !strings.Contains(g.UnknownTypes, "matches no instance type") {
		t.Errorf("nothing: %+v", g)
	}
	if g := byName["bad-memory"]; !strings.Contains(g.UnknownTypes, `memory "lots"`) {
		t.Errorf("bad memory: %+v", g)
	}
}

// eksctl's autoModeConfig: both built-in pools by default, the listed ones otherwise, an
// unknown name is a located error; JSON ClusterConfigs read like YAML ones.
func TestEksctlAutoModeConfig(t *testing.T) {
	tests := []struct {
		name, file, src string
		want            []string
		errs            int
	}{
		{"default pools", "cluster.yaml", "apiVersion: eksctl.io/v1alpha5\nkind: ClusterConfig\nmetadata: {name: c}\nautoModeConfig: {enabled: true}\n", []string{"general-purpose", "system"}, 0},
		{"listed pools", "cluster.yaml", "apiVersion: eksctl.io/v1alpha5\nkind: ClusterConfig\nmetadata: {name: c}\nautoModeConfig:\n  enabled: true\n  nodePools: [system]\n", []string{"system"}, 0},
		{"no built-in pools", "cluster.yaml", "apiVersion: eksctl.io/v1alpha5\nkind: ClusterConfig\nmetadata: {name: c}\nautoModeConfig: {enabled: true, nodePools: []}\n", nil, 0},
		{"disabled", "cluster.yaml", "apiVersion: eksctl.io/v1alpha5\nkind: ClusterConfig\nmetadata: {name: c}\nautoModeConfig: {enabled: false}\n", nil, 0},
		{"unknown pool", "cluster.yaml", "apiVersion: eksctl.io/v1alpha5\nkind: ClusterConfig\nmetadata: {name: c}\nautoModeConfig:\n  enabled: true\n  nodePools: [gpu]\n", nil, 1},
		{"json", "cluster.json", `{"apiVersion": "eksctl.io/v1alpha5", "kind": "ClusterConfig", "metadata": {"name": "c"}, "managedNodeGroups": [{"name": "ng", "instanceType": "m5.large"}], "autoModeConfig": {"enabled": true, "nodePools": ["general-purpose"]}}`, []string{"general-purpose"}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			frag := Load(tc.file, []byte(tc.src), opts)
			var got []string
			for _, p := range frag.NodePools {
				got = append(got, p.Name)
				if p.NodeClassGroup != "eks.amazonaws.com" || p.Location.Line == 0 {
					t.Errorf("pool %+v", p)
				}
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") || len(frag.Errors) != tc.errs {
				t.Errorf("pools %v errors %v", got, frag.Errors)
			}
			if tc.file == "cluster.json" && (len(frag.NodeGroups) != 1 || frag.NodeGroups[0].InstanceTypes[0] != "m5.large") {
				t.Errorf("json node groups %+v", frag.NodeGroups)
			}
		})
	}
}

func TestAutoscalers(t *testing.T) {
	src := `apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata: {name: a, namespace: ns}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: StatefulSet, name: db}
  maxReplicas: 5
---
apiVersion: keda.sh/v1alpha1
kind: ScaledObject
metadata: {name: k, namespace: ns}
spec:
  scaleTargetRef: {name: consumer}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: broken, namespace: ns}
spec:
  scaleTargetRef: {kind: Deployment, name: x}
`
	frag := Load("hpa.yaml", []byte(src), opts)
	if len(frag.Autoscalers) != 3 {
		t.Fatalf("autoscalers %+v", frag.Autoscalers)
	}
	a, k := frag.Autoscalers[0], frag.Autoscalers[1]
	if a.TargetKind != "StatefulSet" || a.TargetName != "db" || a.MaxReplicas != 5 || a.Locations.At("spec.maxReplicas").Line != 6 {
		t.Errorf("hpa %+v", a)
	}
	if k.TargetKind != "Deployment" || k.TargetName != "consumer" || k.MaxReplicas != 100 {
		t.Errorf("scaled object %+v: KEDA's defaults are kind Deployment and maxReplicaCount 100", k)
	}
	if len(frag.Errors) != 1 || !strings.Contains(frag.Errors[0].Message, "maxReplicas is required") {
		t.Errorf("errors %+v", frag.Errors)
	}
}

// A KEDA ScaledJob is a workload: its jobTargetRef is the Job spec, KEDA's defaults fill the
// rest.
func TestScaledJob(t *testing.T) {
	src := `apiVersion: keda.sh/v1alpha1
kind: ScaledJob
metadata: {name: q, namespace: etl}
spec:
  jobTargetRef:
    parallelism: 2
    template:
      metadata: {labels: {app: q}}
      spec:
        restartPolicy: Never
        containers: [{name: c, image: x}]
  scalingStrategy: {strategy: custom, customScalingRunningJobPercentage: "0.5"}
`
	frag := Load("sj.yaml", []byte(src), opts)
	if len(frag.Workloads) != 1 || len(frag.Errors) != 0 {
		t.Fatalf("%+v %+v", frag.Workloads, frag.Errors)
	}
	w := frag.Workloads[0]
	sj := w.ScaledJob
	if sj == nil || sj.MaxReplicaCount != 100 || sj.SuccessfulJobsHistoryLimit != 100 || sj.FailedJobsHistoryLimit != 100 || sj.PollingInterval != 30 ||
		sj.ScalingStrategy != "custom" || sj.RunningJobPercentage == nil || *sj.RunningJobPercentage != 0.5 {
		t.Errorf("scaledJob %+v", sj)
	}
	if w.Job.Parallelism != 2 || w.Job.BackoffLimit != 6 || w.Pod.Labels["app"] != "q" || w.JobSpecPath != "spec.jobTargetRef" || w.Locations.At("spec.jobTargetRef.parallelism").Line != 6 {
		t.Errorf("job %+v pod %+v", w.Job, w.Pod)
	}
}

// A SparkApplication is two workloads, the driver and the executors, each with the labels the
// operator adds and its own service account; the application's nodeSelector applies to both.
func TestSparkApplication(t *testing.T) {
	src := `apiVersion: sparkoperator.k8s.io/v1beta2
kind: SparkApplication
metadata: {name: load, namespace: spark}
spec:
  nodeSelector: {pool: spark}
  timeToLiveSeconds: 600
  dynamicAllocation: {enabled: true, initialExecutors: 3}
  driver:
    serviceAccount: spark-driver
    labels: {team: a}
    tolerations: [{key: spark, operator: Exists}]
  executor:
    instances: 4
    serviceAccount: spark-exec
    nodeSelector: {pool: spark-exec}
`
	frag := Load("spark.yaml", []byte(src), opts)
	if len(frag.Workloads) != 2 || len(frag.Errors) != 0 {
		t.Fatalf("%+v %+v", frag.Workloads, frag.Errors)
	}
	d, e := frag.Workloads[0], frag.Workloads[1]
	if d.ID != "SparkApplication/spark/load#driver" || d.Pod.Labels["spark-role"] != "driver" || d.Pod.Labels["team"] != "a" ||
		d.Pod.Labels["sparkoperator.k8s.io/app-name"] != "load" || d.Pod.ServiceAccountName != "spark-driver" || d.Pod.NodeSelector["pool"] != "spark" ||
		len(d.Pod.Tolerations) != 1 || d.Job == nil || *d.Job.TTLSecondsAfterFinished != 600 || d.TTLPath != "spec.timeToLiveSeconds" {
		t.Errorf("driver %+v %+v", d, d.Job)
	}
	if e.ID != "SparkApplication/spark/load#executors" || e.Pod.Labels["spark-role"] != "executor" || e.Pod.ServiceAccountName != "spark-exec" ||
		e.Pod.NodeSelector["pool"] != "spark-exec" || *e.Replicas != 3 || !e.Spark.UnboundedExecutors {
		t.Errorf("executors %+v %+v (dynamic allocation without maxExecutors: initialExecutors, unbounded)", e, e.Spark)
	}
	e.Locations.Set("x", inventory.Position{Line: 99})
	if _, shared := d.Locations.Get("x"); shared {
		t.Error("the two workloads share their locations")
	}
}

// Kinds eni-lint does not model are listed when they embed a pod spec, and ignored otherwise.
func TestNotModelled(t *testing.T) {
	tests := []struct {
		name, src string
		listed    bool
	}{
		{"Argo Rollout", "apiVersion: argoproj.io/v1alpha1\nkind: Rollout\nmetadata: {name: a}\nspec: {template: {spec: {containers: [{name: c, image: x}]}}}\n", true},
		{"a Tekton TaskRun", "apiVersion: tekton.dev/v1\nkind: TaskRun\nmetadata: {name: w}\nspec: {taskSpec: {steps: [{name: m, image: x}]}, podTemplate: {}, x: {containers: [{image: y}]}}\n", true},
		{"a Knative Service", "apiVersion: serving.knative.dev/v1\nkind: Service\nmetadata: {name: k}\nspec: {template: {spec: {containers: [{image: x}]}}}\n", true},
		{"a ConfigMap", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {containers: x}\n", false},
		{"containers without an image", "apiVersion: example.com/v1\nkind: Thing\nmetadata: {name: t}\nspec: {containers: [{name: c}]}\n", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			frag := Load("x.yaml", []byte(tc.src), opts)
			if (len(frag.NotModelled) == 1) != tc.listed || len(frag.Workloads) != 0 {
				t.Errorf("not modelled %+v, workloads %d", frag.NotModelled, len(frag.Workloads))
			}
			if tc.listed && frag.NotModelled[0].Locations.At("").Line != 1 {
				t.Errorf("location %+v", frag.NotModelled[0].Locations)
			}
		})
	}
}

// Argo: pods per template per run, through steps and DAG tasks, withItems, withSequence and
// retries; what cannot be counted is a reason for a lower bound.
func TestArgoWorkflows(t *testing.T) {
	tests := []struct {
		name, spec string
		want       string // template=T,… sorted
		unbounded  string
		ttl        string // the Job TTL the workflow's deletion maps to
	}{
		{"one container", "entrypoint: a\ntemplates: [{name: a, container: {image: x}}]", "a=1", "", "nil"},
		{"steps, items and retries", `entrypoint: main
templates:
  - name: main
    steps:
      - [{name: s1, template: a}, {name: s2, template: b, withItems: [1, 2, 3]}]
      - [{name: s3, template: a, withSequence: {count: "5"}}]
  - {name: a, retryStrategy: {limit: "2"}, container: {image: x}}
  - {name: b, script: {image: x, source: "print(1)"}}`, "a=18,b=3", "", "nil"},
		{"dag with a range and a retried group", `entrypoint: g
templates:
  - name: g
    retryStrategy: {limit: 1}
    dag: {tasks: [{name: t, template: c, withSequence: {start: "1", end: "4"}}]}
  - {name: c, containerSet: {containers: [{name: a, image: x}, {name: b, image: y}]}}`, "c=8", "", "nil"},
		{"withParam, templateRef, retries without limit", `entrypoint: m
templates:
  - name: m
    steps:
      - [{name: a, template: a, withParam: "{{inputs.parameters.list}}"}, {name: r, templateRef: {name: shared, template: t}}]
  - {name: a, retryStrategy: {retryPolicy: Always}, container: {image: x}}`, "a=1", "withParam,templateRef,no literal limit", "nil"},
		{"recursion", `entrypoint: loop
templates:
  - name: loop
    steps: [[{name: again, template: loop}], [{name: work, template: w}]]
  - {name: w, container: {image: x}}`, "w=1", "calls itself", "nil"},
		{"podGC OnPodCompletion", "entrypoint: a\npodGC: {strategy: OnPodCompletion}\ntemplates: [{name: a, container: {image: x}}]", "a=1", "", "0"},
		{"ttlStrategy", "entrypoint: a\nttlStrategy: {secondsAfterSuccess: 60, secondsAfterFailure: 300}\ntemplates: [{name: a, container: {image: x}}]", "a=1", "", "300"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := "apiVersion: argoproj.io/v1alpha1\nkind: Workflow\nmetadata: {name: wf, namespace: argo}\nspec:\n  " + strings.ReplaceAll(tc.spec, "\n", "\n  ") + "\n"
			frag := Load("wf.yaml", []byte(src), opts)
			if len(frag.Errors) > 0 {
				t.Fatalf("errors %+v", frag.Errors)
			}
			var got []string
			var reasons string
			ttl := "none"
			for _, w := range frag.Workloads {
				got = append(got, fmt.Sprintf("%s=%d", w.Argo.Template, *w.Job.Completions))
				for _, u := range w.Unbounded {
					reasons += u.Reason + ";"
				}
				ttl = "nil"
				if w.Job.TTLSecondsAfterFinished != nil {
					ttl = fmt.Sprint(*w.Job.TTLSecondsAfterFinished)
				}
				if w.Pod.Labels["workflows.argoproj.io/workflow"] != "wf" {
					t.Errorf("labels %v", w.Pod.Labels)
				}
			}
			if strings.Join(got, ",") != tc.want || ttl != tc.ttl {
				t.Errorf("pods %v ttl %s, want %s ttl %s", got, ttl, tc.want, tc.ttl)
			}
			for _, want := range strings.Split(tc.unbounded, ",") {
				if !strings.Contains(reasons, want) || (tc.unbounded == "") != (reasons == "") {
					t.Errorf("reasons %q, want %q", reasons, tc.unbounded)
				}
			}
		})
	}
}

// A workflow whose templates each call the next twice, 25 levels deep, would be 2^25 walks
// without memoisation and 2^25 pods without the budget.
func TestArgoFanOutBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("apiVersion: argoproj.io/v1alpha1\nkind: Workflow\nmetadata: {name: bomb}\nspec:\n  entrypoint: t0\n  templates:\n")
	for i := 0; i < 25; i++ {
		fmt.Fprintf(&b, "  - {name: t%d, steps: [[{name: a, template: t%d}, {name: b, template: t%d}]]}\n", i, i+1, i+1)
	}
	b.WriteString("  - {name: t25, container: {image: x}}\n")
	frag := Load("bomb.yaml", []byte(b.String()), opts)
	if len(frag.Workloads) != 1 || *frag.Workloads[0].Job.Completions != maxWorkflowPods {
		t.Fatalf("workloads %+v", frag.Workloads)
	}
	found := false
	for _, u := range frag.Workloads[0].Unbounded {
		found = found || strings.Contains(u.Reason, "a budget")
	}
	if !found {
		t.Errorf("no budget reason: %+v", frag.Workloads[0].Unbounded)
	}
}

func TestSparkExecutorsKept(t *testing.T) {
	src := "apiVersion: sparkoperator.k8s.io/v1beta2\nkind: SparkApplication\nmetadata: {name: s, namespace: n}\nspec:\n  sparkConf: {\"spark.kubernetes.executor.deleteOnTermination\": \"false\"}\n  executor: {instances: 3}\n"
	frag := Load("s.yaml", []byte(src), opts)
	if len(frag.Workloads) != 2 || !frag.Workloads[1].Spark.KeepsExecutors || *frag.Workloads[1].Replicas != 3 {
		t.Errorf("%+v", frag.Workloads)
	}
}

// Ignore rules: on DisruptionTarget alone they are bounded by disruptions; on exit codes, on
// another condition or on both, they are not.
func TestPodFailurePolicyIgnore(t *testing.T) {
	cases := []struct {
		name              string
		rules             string
		ignore, disrupted bool
	}{
		{"no policy", ``, false, false},
		{"DisruptionTarget only", `[{action: Ignore, onPodConditions: [{type: DisruptionTarget}]}]`, false, true},
		{"DisruptionTarget with status", `[{action: Ignore, onPodConditions: [{type: DisruptionTarget, status: "True"}]}]`, false, true},
		{"exit codes", `[{action: Ignore, onExitCodes: {operator: In, values: [3]}}]`, true, false},
		{"another condition", `[{action: Ignore, onPodConditions: [{type: DisruptionTarget}, {type: ConfigIssue}]}]`, true, false},
		{"Count on disruptions", `[{action: Count, onPodConditions: [{type: DisruptionTarget}]}]`, false, false},
		{"both kinds", `[{action: Ignore, onPodConditions: [{type: DisruptionTarget}]}, {action: Ignore, onExitCodes: {operator: NotIn, values: [0]}}]`, true, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			policy := ""
			if c.rules != "" {
				policy = "  podFailurePolicy:\n    rules: " + c.rules + "\n"
			}
			src := "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n" + policy +
				"  template:\n    spec:\n      restartPolicy: Never\n      containers: [{name: c, image: x}]\n"
			frag := Load("f.yaml", []byte(src), opts)
			if len(frag.Errors) != 0 || len(frag.Workloads) != 1 {
				t.Fatalf("errors %v, workloads %d", frag.Errors, len(frag.Workloads))
			}
			j := frag.Workloads[0].Job
			if j.PodFailurePolicyIgnore != c.ignore || j.PodFailurePolicyIgnoreDisruptions != c.disrupted {
				t.Errorf("ignore %v, disruptions only %v; want %v, %v", j.PodFailurePolicyIgnore, j.PodFailurePolicyIgnoreDisruptions, c.ignore, c.disrupted)
			}
		})
	}
}
