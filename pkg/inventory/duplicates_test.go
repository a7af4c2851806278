package inventory

import "testing"

func TestDuplicateNodePools(t *testing.T) {
	at := func(file string) Position { return Position{File: file, Line: 1, Column: 1} }
	pools := []NodePool{
		{Kind: "NodePool", Name: "default", Location: at("a.yaml")},
		{Kind: "NodePool", Name: "gpu", Location: at("b.yaml")},
		{Kind: "Provisioner", Name: "default", Location: at("c.yaml")}, // another kind: another object
		{Kind: "NodePool", Name: "default", Location: at("d.yaml")},
	}
	got := DuplicateNodePools(pools)
	for i, want := range [][]string{{"a.yaml", "d.yaml"}, nil, nil, {"a.yaml", "d.yaml"}} {
		if len(got[i]) != len(want) {
			t.Fatalf("pool %d: %+v, want %v", i, got[i], want)
		}
		for j, file := range want {
			if got[i][j].Location.File != file {
				t.Errorf("pool %d definition %d: %s, want %s", i, j, got[i][j].Location.File, file)
			}
		}
	}
}
