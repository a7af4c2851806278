// Command genlimits rebuilds pkg/limits/instance-types.tsv, the instance table embedded in
// eni-lint, from the CSV files the project keeps in shared/data:
//
//   - instance-branch-eni-limits.csv: branch ENIs and trunking per type, extracted from the VPC
//     resource controller's limits table (the authority for what a node advertises);
//   - instance-karpenter-labels.csv: node labels and resources Karpenter reports, used for the
//     architecture, CPU, memory and max-pods figures, and for newer types the controller table
//     lacks but whose vpc.amazonaws.com/pod-eni resource Karpenter lists.
//
// Run it through `go generate ./pkg/limits` (see the README, "Refreshing the instance table").
// The output is sorted and deterministic, so a refresh shows up as a readable diff.
package main

import (
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

type row struct {
	name             string
	trunking         bool
	branch           int
	interfaces       int // 0 when unknown
	ipv4PerInterface int // 0 when unknown
	hypervisor       string
	bareMetal        bool
	arch             string
	vcpus            int
	memoryMiB        int
	maxPods          int
	source           string
}

func main() {
	data := flag.String("data", "../../../shared/data", "folder holding the shared CSV files")
	out := flag.String("out", "instance-types.tsv", "file to write")
	labelsOut := flag.String("labels-out", "karpenter-labels.tsv", "file to write Karpenter's node labels per type to")
	flag.Parse()
	rows, err := build(*data)
	if err != nil {
		fmt.Fprintln(os.Stderr, "genlimits:", err)
		os.Exit(1)
	}
	if err := writeLabelsFile(*data, *labelsOut); err != nil {
		fmt.Fprintln(os.Stderr, "genlimits:", err)
		os.Exit(1)
	}
	f, err := os.Create(*out)
	if err != nil {
		fmt.Fprintln(os.Stderr, "genlimits:", err)
		os.Exit(1)
	}
	if err := write(f, rows); err != nil {
		fmt.Fprintln(os.Stderr, "genlimits:", err)
		os.Exit(1)
	}
	if err := f.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "genlimits:", err)
		os.Exit(1)
	}
}

func readCSV(path string) ([][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	records, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(records) < 2 {
		return nil, fmt.Errorf("%s: no rows", path)
	}
	return records[1:], nil
}

func atoi(path, field, s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("%s: %s %q is not a number", path, field, s)
	}
	return n, nil
}

func build(dir string) ([]row, error) {
	limitsPath := filepath.Join(dir, "instance-branch-eni-limits.csv")
	labelsPath := filepath.Join(dir, "instance-karpenter-labels.csv")
	byName, err := readLimits(limitsPath)
	if err != nil {
		return nil, err
	}
	karp, err := readKarpenterLabels(labelsPath)
	if err != nil {
		return nil, err
	}
	for name, l := range karp {
		if err := addKarpenterLabels(byName, name, l, labelsPath, limitsPath); err != nil {
			return nil, err
		}
	}
	rows := make([]row, 0, len(byName))
	for _, x := range byName {
		rows = append(rows, *x)
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].name < rows[j].name })
	return rows, nil
}

// readLimits reads the VPC resource controller's table: one row per type with its trunking,
// branch and interface limits; max pods follows from them.
func readLimits(path string) (map[string]*row, error) {
	limits, err := readCSV(path)
	if err != nil {
		return nil, err
	}
	byName := map[string]*row{}
	for _, r := range limits {
		if len(r) != 7 {
			return nil, fmt.Errorf("%s: row %v has %d fields", path, r, len(r))
		}
		x := &row{name: r[0], trunking: r[1] == "true", hypervisor: r[5], bareMetal: r[6] == "true", source: "vpc-resource-controller"}
		if x.branch, err = atoi(path, "branch_interfaces", r[2]); err != nil {
			return nil, err
		}
		if x.interfaces, err = atoi(path, "interfaces", r[3]); err != nil {
			return nil, err
		}
		if x.ipv4PerInterface, err = atoi(path, "ipv4_per_interface", r[4]); err != nil {
			return nil, err
		}
		if x.trunking != (x.branch > 0) {
			return nil, fmt.Errorf("%s: %s: trunking %v disagrees with %d branch interfaces", path, x.name, x.trunking, x.branch)
		}
		// The EKS max-pods formula for the VPC CNI without prefix delegation.
		x.maxPods = x.interfaces*(x.ipv4PerInterface-1) + 2
		byName[x.name] = x
	}
	return byName, nil
}

// readKarpenterLabels reads Karpenter's label table: type, label, value.
func readKarpenterLabels(path string) (map[string]map[string]string, error) {
	labels, err := readCSV(path)
	if err != nil {
		return nil, err
	}
	karp := map[string]map[string]string{}
	for _, r := range labels {
		if len(r) != 3 {
			return nil, fmt.Errorf("%s: row %v has %d fields", path, r, len(r))
		}
		if karp[r[0]] == nil {
			karp[r[0]] = map[string]string{}
		}
		karp[r[0]][r[1]] = r[2]
	}
	return karp, nil
}

// addKarpenterLabels gives a type Karpenter's architecture, CPUs and memory, and adds a type
// the controller's table lacks when Karpenter states its branch capacity.
func addKarpenterLabels(byName map[string]*row, name string, l map[string]string, labelsPath, limitsPath string) error {
	var err error
	podENI, hasPodENI := l["resource/vpc.amazonaws.com/pod-eni"]
	x, known := byName[name]
	if !known {
		// Only types whose branch capacity Karpenter states are added; for the others
		// trunking support is not known, and eni-lint must say so (ENI006), not guess.
		if !hasPodENI {
			return nil
		}
		n, err := atoi(labelsPath, name+" pod-eni", podENI)
		if err != nil {
			return err
		}
		x = &row{name: name, trunking: n > 0, branch: n, hypervisor: l["karpenter.k8s.aws/instance-hypervisor"], bareMetal: strings.HasSuffix(name, ".metal"), source: "karpenter"}
		if p, ok := l["resource/pods"]; ok {
			if x.maxPods, err = atoi(labelsPath, name+" pods", p); err != nil {
				return err
			}
		}
		byName[name] = x
	} else if hasPodENI && podENI != strconv.Itoa(x.branch) {
		return fmt.Errorf("%s: pod-eni %s disagrees with %s for %s", labelsPath, podENI, limitsPath, name)
	}
	x.arch = l["kubernetes.io/arch"]
	if v, ok := l["karpenter.k8s.aws/instance-cpu"]; ok {
		if x.vcpus, err = atoi(labelsPath, name+" cpu", v); err != nil {
			return err
		}
	}
	if v, ok := l["karpenter.k8s.aws/instance-memory"]; ok {
		if x.memoryMiB, err = atoi(labelsPath, name+" memory", v); err != nil {
			return err
		}
	}
	return nil
}

func write(w io.Writer, rows []row) error {
	var b strings.Builder
	b.WriteString("# eni-lint instance table: generated by internal/tools/genlimits from shared/data; do not edit.\n")
	b.WriteString("# Refresh: go generate ./pkg/limits (README: \"Refreshing the instance table\").\n")
	b.WriteString("# 0 in interfaces, ipv4PerInterface, vcpus, memoryMiB or maxPods means not known; - means empty.\n")
	b.WriteString("type\ttrunking\tbranchInterfaces\tinterfaces\tipv4PerInterface\thypervisor\tbareMetal\tarch\tvcpus\tmemoryMiB\tmaxPods\tsource\n")
	dash := func(s string) string {
		if s == "" {
			return "-"
		}
		return s
	}
	for _, r := range rows {
		fmt.Fprintf(&b, "%s\t%t\t%d\t%d\t%d\t%s\t%t\t%s\t%d\t%d\t%d\t%s\n", r.name, r.trunking, r.branch, r.interfaces,
			r.ipv4PerInterface, dash(r.hypervisor), r.bareMetal, dash(r.arch), r.vcpus, r.memoryMiB, r.maxPods, r.source)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeLabelsFile writes the node labels Karpenter puts on each instance type, one row per type
// and one column per label key, for evaluating NodePool requirements.
func writeLabelsFile(dir, out string) error {
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := writeLabels(f, dir); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func writeLabels(w io.Writer, dir string) error {
	path := filepath.Join(dir, "instance-karpenter-labels.csv")
	records, err := readCSV(path)
	if err != nil {
		return err
	}
	byType := map[string]map[string]string{}
	keys := map[string]bool{}
	for _, r := range records {
		if len(r) != 3 || strings.HasPrefix(r[1], "resource/") {
			continue
		}
		if byType[r[0]] == nil {
			byType[r[0]] = map[string]string{}
		}
		byType[r[0]][r[1]] = r[2]
		keys[r[1]] = true
	}
	var cols, types []string
	for k := range keys {
		cols = append(cols, k)
	}
	sort.Strings(cols)
	for t := range byType {
		types = append(types, t)
	}
	sort.Strings(types)
	var b strings.Builder
	b.WriteString("# Node labels Karpenter sets per instance type: generated by internal/tools/genlimits from shared/data; do not edit.\n")
	b.WriteString("# - means the label is absent.\n")
	b.WriteString("type\t" + strings.Join(cols, "\t") + "\n")
	for _, t := range types {
		b.WriteString(t)
		for _, c := range cols {
			v, ok := byType[t][c]
			if !ok || v == "" {
				v = "-"
			}
			b.WriteString("\t" + v)
		}
		b.WriteString("\n")
	}
	_, err = io.WriteString(w, b.String())
	return err
}
