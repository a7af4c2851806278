package synth

import (
	"bufio"
	"fmt"
	"io"
	"math/rand"
)

// WriteSnapshot writes what `kubectl get nodes,pods,jobs,cronjobs -A -o json` prints for a
// cluster of the given nodes and pods, one item at a time (memory does not grow with the
// size). Pods look like real ones (labels, annotations, volumes, tolerations, statuses, ~3 KB);
// one in sgpEvery uses Security groups for Pods, and most of those are finished Job pods of
// CronJobs that still carry their branch ENI. Deterministic for a given seed.
func WriteSnapshot(out io.Writer, nodes, pods, sgpEvery int, seed int64) error {
	w := bufio.NewWriterSize(out, 1<<20)
	rnd := rand.New(rand.NewSource(seed))
	types := []string{"m5.large", "m5.xlarge", "c5.2xlarge", "r5.large", "m6i.large"}
	capacity := map[string]int{"m5.large": 9, "m5.xlarge": 18, "c5.2xlarge": 38, "r5.large": 9, "m6i.large": 9}
	fmt.Fprint(w, "{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n")
	first := true
	sep := func() {
		if !first {
			fmt.Fprint(w, ",\n")
		}
		first = false
	}
	for i := 0; i < nodes; i++ {
		sep()
		t := types[i%len(types)]
		fmt.Fprintf(w, snapshotNode, i/65536%256, i/256%256, i%256, t, 'a'+rune(i%3), i%20, i, capacity[t], capacity[t])
	}
	cronjobs := pods/(sgpEvery*20) + 1
	for c := 0; c < cronjobs; c++ {
		sep()
		fmt.Fprintf(w, `        {"apiVersion": "batch/v1", "kind": "CronJob", "metadata": {"name": "report-%d", "namespace": "team-%d"}, "spec": {"schedule": "*/10 * * * *", "successfulJobsHistoryLimit": 3, "failedJobsHistoryLimit": 1, "jobTemplate": {"spec": {"backoffLimit": 6}}}}`, c, c%50)
		for j := 0; j < 4; j++ {
			fmt.Fprintf(w, ",\n        {\"apiVersion\": \"batch/v1\", \"kind\": \"Job\", \"metadata\": {\"name\": \"report-%d-%d\", \"namespace\": \"team-%d\", \"ownerReferences\": [{\"apiVersion\": \"batch/v1\", \"kind\": \"CronJob\", \"name\": \"report-%d\", \"controller\": true}]}, \"spec\": {\"backoffLimit\": 6}}", c, 29412300+j, c%50, c)
		}
	}
	for i := 0; i < pods; i++ {
		sep()
		writePod(w, rnd, i, nodes, cronjobs, sgpEvery)
	}
	fmt.Fprint(w, "\n    ],\n    \"kind\": \"List\",\n    \"metadata\": {\"resourceVersion\": \"\"}\n}\n")
	return w.Flush()
}

// writePod writes pod i on a random node: one in sgpEvery requests a branch ENI, and three in
// four of those are finished pods of a random CronJob's Jobs.
func writePod(w io.Writer, rnd *rand.Rand, i, nodes, cronjobs, sgpEvery int) {
	node := rnd.Intn(max(nodes, 1))
	ns := fmt.Sprintf("team-%d", i%50)
	sgp := i%sgpEvery == 0
	phase, owner, ownerKind, annotation, resources, state := "Running", fmt.Sprintf("app-%d-7d9f8b6c5", i%997), "ReplicaSet", "", `"requests": {"cpu": "100m", "memory": "128Mi"}`, `"running": {"startedAt": "2026-12-01T07:00:00Z"}`
	if sgp {
		resources = `"limits": {"vpc.amazonaws.com/pod-eni": "1"}, "requests": {"cpu": "100m", "memory": "128Mi", "vpc.amazonaws.com/pod-eni": "1"}`
		annotation = fmt.Sprintf(`, "vpc.amazonaws.com/pod-eni": "[{\"eniId\":\"eni-%017x\",\"ifAddress\":\"0a:1b:2c:3d:4e:5f\",\"privateIp\":\"10.0.%d.%d\",\"vlanId\":%d,\"subnetCidr\":\"10.0.0.0/16\"}]"`, i, i/256%256, i%256, i%4094+1)
		if rnd.Intn(4) != 0 { // three in four SGP pods are finished CronJob pods
			c := rnd.Intn(cronjobs)
			ns = fmt.Sprintf("team-%d", c%50)
			phase, ownerKind, owner = "Succeeded", "Job", fmt.Sprintf("report-%d-%d", c, 29412300+rnd.Intn(4))
			state = `"terminated": {"exitCode": 0, "reason": "Completed", "startedAt": "2026-12-01T08:00:00Z", "finishedAt": "2026-12-01T08:01:00Z"}`
		}
	}
	fmt.Fprintf(w, snapshotPod,
		i, ns, i, 1000000+i, i%997, ns, sgp, annotation, ownerKind, owner, i,
		node/65536%256, node/256%256, node%256, i%10, resources,
		phase, i/256%256, i%256, phase == "Running", phase == "Running", i%10, i, state)
}

// snapshotNode is one Node item: its address, instance type, zone, node group, id and pod-eni
// capacity (twice).
const snapshotNode = `        {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "ip-10-%d-%d-%d.ec2.internal", "creationTimestamp": "2026-11-30T08:00:00Z",
            "labels": {"kubernetes.io/arch": "amd64", "kubernetes.io/os": "linux", "node.kubernetes.io/instance-type": %q, "topology.kubernetes.io/zone": "us-east-1%c", "eks.amazonaws.com/nodegroup": "ng-%d"}},
            "spec": {"providerID": "aws:///us-east-1a/i-%012x"},
            "status": {"capacity": {"cpu": "4", "memory": "16099812Ki", "pods": "58", "vpc.amazonaws.com/pod-eni": "%d"}, "allocatable": {"cpu": "3920m", "pods": "58", "vpc.amazonaws.com/pod-eni": "%d"},
                "conditions": [{"type": "Ready", "status": "True", "lastHeartbeatTime": "2026-12-01T09:59:00Z", "lastTransitionTime": "2026-11-30T08:01:00Z", "reason": "KubeletReady"}]}}`

// snapshotPod is one Pod item, ~3 KB as real ones are.
const snapshotPod = `        {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "pod-%d", "namespace": %q, "uid": "%08x-1111-2222-3333-444455556666", "resourceVersion": "%d", "creationTimestamp": "2026-12-01T07:00:00Z",
            "labels": {"app": "app-%d", "pod-template-hash": "7d9f8b6c5", "team": %q, "rds-access": "%t"},
            "annotations": {"kubectl.kubernetes.io/restartedAt": "2026-11-01T00:00:00Z", "prometheus.io/scrape": "true"%s},
            "ownerReferences": [{"apiVersion": "apps/v1", "kind": %q, "name": %q, "uid": "%08x-aaaa-bbbb-cccc-ddddeeeeffff", "controller": true, "blockOwnerDeletion": true}]},
            "spec": {"nodeName": "ip-10-%d-%d-%d.ec2.internal", "serviceAccountName": "default", "restartPolicy": "Always", "dnsPolicy": "ClusterFirst", "schedulerName": "default-scheduler", "terminationGracePeriodSeconds": 30,
                "containers": [{"name": "main", "image": "123456789012.dkr.ecr.us-east-1.amazonaws.com/app:%d", "imagePullPolicy": "IfNotPresent", "ports": [{"containerPort": 8080, "protocol": "TCP"}],
                    "env": [{"name": "LOG_LEVEL", "value": "info"}, {"name": "POD_NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"}}}],
                    "resources": {%s}, "volumeMounts": [{"name": "kube-api-access", "mountPath": "/var/run/secrets/kubernetes.io/serviceaccount", "readOnly": true}]}],
                "tolerations": [{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}, {"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}],
                "volumes": [{"name": "kube-api-access", "projected": {"defaultMode": 420, "sources": [{"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}}, {"configMap": {"name": "kube-root-ca.crt", "items": [{"key": "ca.crt", "path": "ca.crt"}]}}]}}]},
            "status": {"phase": %q, "hostIP": "10.0.0.1", "podIP": "10.0.%d.%d", "qosClass": "Burstable", "startTime": "2026-12-01T07:00:00Z",
                "conditions": [{"type": "Initialized", "status": "True", "lastTransitionTime": "2026-12-01T07:00:00Z"}, {"type": "Ready", "status": "%t", "lastTransitionTime": "2026-12-01T07:00:05Z"}, {"type": "PodScheduled", "status": "True", "lastTransitionTime": "2026-12-01T07:00:00Z"}],
                "containerStatuses": [{"name": "main", "ready": %t, "restartCount": 0, "image": "app:%d", "imageID": "sha256:%064x", "state": {%s}}]}}`
