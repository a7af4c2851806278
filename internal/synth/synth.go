// Package synth writes synthetic monorepos of Kubernetes manifests for benchmarks: a given
// number of documents spread over namespaces and files, with the mix a platform team sees
// (Deployments, Jobs, CronJobs, SecurityGroupPolicies, ServiceAccounts, ConfigMaps). The output
// is deterministic for a given size and seed.
package synth

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
)

// Write creates docs documents under out, perFile to a file, over the given number of
// namespaces. Document i is a SecurityGroupPolicy when i is a multiple of policyEvery (a
// multiple of 10); 10 is a dense worst case, since every workload is then matched against
// many policies of its namespace.
func Write(out string, docs, perFile, namespaces, policyEvery int, seed int64) error {
	if policyEvery < 10 || policyEvery%10 != 0 {
		return fmt.Errorf("policyEvery %d is not a multiple of 10", policyEvery)
	}
	g := generator{policyEvery: policyEvery}
	return g.generate(out, docs, perFile, namespaces, rand.New(rand.NewSource(seed)))
}

type generator struct{ policyEvery int }

func (g generator) generate(out string, docs, perFile, namespaces int, rng *rand.Rand) error {
	var b strings.Builder
	file := 0
	flush := func(ns string) error {
		if b.Len() == 0 {
			return nil
		}
		dir := filepath.Join(out, "teams", ns)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("manifests-%05d.yaml", file)), []byte(b.String()), 0o644)
		b.Reset()
		file++
		return err
	}
	inFile := 0
	for i := 0; i < docs; i++ {
		ns := fmt.Sprintf("team-%03d", (i/perFile)%namespaces)
		if inFile > 0 {
			b.WriteString("---\n")
		}
		b.WriteString(g.document(i, ns, rng))
		inFile++
		if inFile == perFile {
			if err := flush(ns); err != nil {
				return err
			}
			inFile = 0
		}
	}
	return flush("rest")
}

func (g generator) document(i int, ns string, rng *rand.Rand) string {
	kind := i % 10
	if kind == 0 && i%g.policyEvery != 0 {
		kind = 9 // a ConfigMap instead of a policy
	}
	switch kind {
	case 0:
		return fmt.Sprintf(securityGroupPolicyDoc, i, ns, rng.Intn(3), rng.Uint32())
	case 1:
		return fmt.Sprintf(serviceAccountDoc, i, ns, ns)
	case 2, 3:
		return fmt.Sprintf(cronJobDoc, i, ns, 1+rng.Intn(30), rng.Intn(7), rng.Intn(3), i-i%10+1)
	case 4, 5:
		return fmt.Sprintf(jobDoc, i, ns, 1+rng.Intn(4), 60*rng.Intn(10), rng.Intn(3))
	case 6, 7, 8:
		return fmt.Sprintf(deploymentDoc, i, ns, 1+rng.Intn(5), i, i, rng.Intn(3))
	default:
		return fmt.Sprintf(configMapDoc, i, ns, i)
	}
}

// The documents of a synthetic tree, filled by document.
const (
	securityGroupPolicyDoc = `apiVersion: vpcresources.k8s.aws/v1beta1
kind: SecurityGroupPolicy
metadata:
  name: sgp-%d
  namespace: %s
spec:
  podSelector:
    matchLabels:
      db-access: "%d"
  securityGroups:
    groupIds: [sg-%08x]
`
	serviceAccountDoc = `apiVersion: v1
kind: ServiceAccount
metadata:
  name: sa-%d
  namespace: %s
  labels:
    team: %s
`
	cronJobDoc = `apiVersion: batch/v1
kind: CronJob
metadata:
  name: cron-%d
  namespace: %s
spec:
  schedule: "*/%d * * * *"
  concurrencyPolicy: Forbid
  jobTemplate:
    spec:
      backoffLimit: %d
      template:
        metadata:
          labels:
            db-access: "%d"
        spec:
          serviceAccountName: sa-%d
          restartPolicy: Never
          containers:
            - name: main
              image: busybox
`
	jobDoc = `apiVersion: batch/v1
kind: Job
metadata:
  name: job-%d
  namespace: %s
spec:
  completions: %d
  ttlSecondsAfterFinished: %d
  template:
    metadata:
      labels:
        db-access: "%d"
    spec:
      restartPolicy: Never
      containers:
        - name: main
          image: busybox
`
	deploymentDoc = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: app-%d
  namespace: %s
spec:
  replicas: %d
  selector:
    matchLabels: {app: app-%d}
  template:
    metadata:
      labels:
        app: app-%d
        db-access: "%d"
    spec:
      nodeSelector:
        kubernetes.io/arch: amd64
      containers:
        - name: main
          image: nginx
          resources:
            requests: {cpu: 100m, memory: 128Mi}
`
	configMapDoc = `apiVersion: v1
kind: ConfigMap
metadata:
  name: cm-%d
  namespace: %s
data:
  key: value-%d
`
)
