package findings

import "testing"

func TestDetailsViews(t *testing.T) {
	row := Finding{Rule: "ENI001", Details: map[string]any{
		"nodeGroup": "sgp", "instanceType": "m5.large", "branchInterfaces": float64(9), "demand": float64(44),
		"atLeast": true, "otherContributors": float64(2), "nodeGroupLocation": map[string]any{"file": "main.tf", "line": float64(3), "column": float64(1)},
		"contributors": []any{map[string]any{"id": "CronJob/default/a@x.yaml:1", "kind": "CronJob", "namespace": "default", "name": "a", "held": float64(41), "active": float64(1)}},
		"ttlChecks":    []any{map[string]any{"workload": "CronJob/default/a@x.yaml:1", "ttl": float64(600), "demandAfter": float64(30), "atLeast": false, "remedy": ""}},
		"fixes":        []any{map[string]any{"change": "c", "lever": "ttl", "set": []any{map[string]any{"field": "spec.x", "value": float64(60)}, map[string]any{"field": "spec.y", "text": "Forbid"}}}},
	}}
	d, ok := row.Exceed()
	if !ok || d.NodeGroup != "sgp" || d.Demand != 44 || d.BranchInterfaces != 9 || d.OtherContributors != 2 || d.NodeGroupLocation == nil || d.NodeGroupLocation.Line != 3 ||
		len(d.Contributors) != 1 || d.Contributors[0].Held != 41 || d.Contributors[0].Name != "a" || len(d.TTLChecks) != 1 || d.TTLChecks[0].DemandAfter != 30 {
		t.Errorf("Exceed = %+v, %v", d, ok)
	}
	withOdd := Finding{Rule: "ENI001", Details: map[string]any{"fixes": append(row.Details["fixes"].([]any), "not a fix")}}
	fixes := withOdd.FixDetails()
	if len(fixes) != 1 || len(fixes[0].Set) != 2 || fixes[0].Set[0].Value == nil || *fixes[0].Set[0].Value != 60 || fixes[0].Set[1].Value != nil || fixes[0].Set[1].Text != "Forbid" {
		t.Errorf("FixDetails = %+v: want one fix (the string skipped), a value and a text", fixes)
	}
	if got := row.Fixes(); len(got) != 1 || got[0] != "c" {
		t.Errorf("Fixes = %v", got)
	}
	s := row.Subject()
	if s.NodeGroup == nil || *s.NodeGroup != "sgp" || s.Demand == nil || *s.Demand != 44 || !s.AtLeast || s.Retained != nil || s.T != nil {
		t.Errorf("Subject = %+v", s)
	}

	// A key the details lack is nil, and one that is present but empty is not: the baseline
	// and the fingerprints tell them apart.
	other := Finding{Rule: "ENI004", Details: map[string]any{"nodeGroup": "", "withTrunking": []any{}}}
	if _, ok := other.Exceed(); ok {
		t.Error("Exceed decodes another rule's details")
	}
	if s := other.Subject(); s.NodeGroup == nil || *s.NodeGroup != "" || s.InstanceType != nil {
		t.Errorf("Subject of ENI004 = %+v: want nodeGroup present and empty, instanceType absent", s)
	}
	// A key of another type keeps its zero value; the others are read.
	odd := Finding{Rule: "ENI001", Details: map[string]any{"nodeGroup": float64(3), "demand": float64(7)}}
	if d, ok := odd.Exceed(); ok || d.NodeGroup != "" || d.Demand != 7 {
		t.Errorf("Exceed of odd details = %+v, %v", d, ok)
	}
	if (Finding{}).FixDetails() != nil || (Finding{}).Subject().NodeGroup != nil {
		t.Error("a finding without details has views")
	}
}
