package inventory

import "testing"

func TestMarkDuplicates(t *testing.T) {
	w := func(kind, ns, name, file, by string) Workload {
		return Workload{Object: Object{Kind: kind, Namespace: ns, Name: name, Locations: map[string]Position{"": {File: file, Line: 1}}}, BuiltBy: by}
	}
	ws := []Workload{w("CronJob", "a", "x", "base.yaml", "dev"), w("CronJob", "a", "x", "base.yaml", "prod"), w("CronJob", "b", "x", "other.yaml", ""), w("Job", "a", "x", "job.yaml", "")}
	MarkDuplicates(ws)
	if len(ws[0].Duplicates) != 2 || ws[0].Duplicates[1].BuiltBy != "prod" || len(ws[1].Duplicates) != 2 {
		t.Errorf("the two overlays: %+v %+v", ws[0].Duplicates, ws[1].Duplicates)
	}
	if ws[2].Duplicates != nil || ws[3].Duplicates != nil {
		t.Error("another namespace or kind is another object")
	}
}
