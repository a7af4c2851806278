package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestEmbeddedTableIsGenerated regenerates the table from shared/data (when it is beside the
// checkout, as in CI) and requires the embedded file to be exactly that: a stale table fails.
func TestEmbeddedTableIsGenerated(t *testing.T) {
	data := filepath.Join("..", "..", "..", "..", "shared", "data")
	if _, err := os.Stat(filepath.Join(data, "instance-branch-eni-limits.csv")); err != nil {
		t.Skip("shared/data is not beside this checkout")
	}
	rows, err := build(data)
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := write(&got, rows); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("..", "..", "..", "pkg", "limits", "instance-types.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Error("pkg/limits/instance-types.tsv is not what genlimits writes from shared/data: run go generate ./pkg/limits")
	}
	got.Reset()
	if err := writeLabels(&got, data); err != nil {
		t.Fatal(err)
	}
	want, err = os.ReadFile(filepath.Join("..", "..", "..", "pkg", "limits", "karpenter-labels.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Error("pkg/limits/karpenter-labels.tsv is stale: run go generate ./pkg/limits")
	}
}

func TestBuildRejectsDisagreement(t *testing.T) {
	dir := t.TempDir()
	limits := "instance_type,trunking_compatible,branch_interfaces,interfaces,ipv4_per_interface,hypervisor,bare_metal\nm5.large,true,9,3,10,nitro,false\n"
	labels := "instance_type,key,value\nm5.large,resource/vpc.amazonaws.com/pod-eni,8\n"
	if err := os.WriteFile(filepath.Join(dir, "instance-branch-eni-limits.csv"), []byte(limits), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "instance-karpenter-labels.csv"), []byte(labels), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := build(dir); err == nil {
		t.Error("a pod-eni figure that disagrees with the controller table was accepted")
	}
}
