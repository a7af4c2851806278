package analysis

import (
	"sort"
	"strings"
	"testing"

	"github.com/eni-lint/eni-lint/pkg/inventory"
)

func group(name, file string) inventory.NodeGroupSpec {
	return inventory.NodeGroupSpec{Name: name, InstanceTypes: []string{"m5.large"}, Location: inventory.Position{File: file, Line: 1}}
}

func pool(name, file string) inventory.NodePool {
	return inventory.NodePool{Name: name, Location: inventory.Position{File: file, Line: 1}}
}

func workload(name, file string) inventory.Workload {
	return inventory.Workload{Object: inventory.Object{Kind: "Job", Namespace: "ns", Name: name, ID: "Job/ns/" + name + "@" + file}}
}

// describe lists each cluster as name=node groups|workloads, sorted, for comparison.
func describe(cs []*cluster) string {
	var out []string
	for _, c := range cs {
		var groups, works []string
		for _, f := range c.frags {
			for _, g := range f.NodeGroups {
				groups = append(groups, g.Name)
			}
			for _, p := range f.NodePools {
				groups = append(groups, "pool:"+p.Name)
			}
			for _, w := range f.Workloads {
				works = append(works, w.Name)
			}
		}
		for _, g := range c.nodeGroups {
			groups = append(groups, g.Name)
		}
		sort.Strings(groups)
		sort.Strings(works)
		out = append(out, c.meta.Name+"="+strings.Join(groups, ",")+"|"+strings.Join(works, ","))
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

func TestPlanClusters(t *testing.T) {
	eksctl := func(cluster string, g inventory.NodeGroupSpec) inventory.NodeGroupSpec {
		g.Cluster = inventory.ClusterRef{Kind: "eksctl", Name: cluster}
		return g
	}
	tf := func(root, env string, groups []inventory.NodeGroupSpec, works ...inventory.Workload) inventory.Fragment {
		return inventory.Fragment{File: root + "/*.tf", TerraformRoot: root, Environment: env, NodeGroups: groups, Workloads: works}
	}
	manifest := inventory.Fragment{File: "k8s/job.yaml", Workloads: []inventory.Workload{workload("shared", "k8s/job.yaml")}}
	tests := []struct {
		name  string
		frags []inventory.Fragment
		flags []inventory.NodeGroupSpec
		specs []ClusterSpec
		want  string
	}{
		{
			name:  "no infrastructure: no cluster",
			frags: []inventory.Fragment{manifest},
			want:  "",
		},
		{
			name:  "flags make the default cluster",
			frags: []inventory.Fragment{manifest},
			flags: []inventory.NodeGroupSpec{group("g", "--node-group g=m5.large")},
			want:  "default=g|shared",
		},
		{
			name: "two roots in two environments: four clusters, each with its root's objects",
			frags: []inventory.Fragment{
				tf("infra/east", "env/dev", []inventory.NodeGroupSpec{group("e", "infra/east/main.tf")}, workload("east-only", "infra/east/main.tf")),
				tf("infra/east", "env/prod", []inventory.NodeGroupSpec{group("e", "infra/east/main.tf")}, workload("east-only", "infra/east/main.tf")),
				tf("infra/west", "env/dev", []inventory.NodeGroupSpec{group("w", "infra/west/main.tf")}),
				tf("infra/west", "env/prod", []inventory.NodeGroupSpec{group("w", "infra/west/main.tf")}),
				manifest,
			},
			want: "infra/east:env/dev=e|east-only,shared infra/east:env/prod=e|east-only,shared infra/west:env/dev=w|shared infra/west:env/prod=w|shared",
		},
		{
			name: "an add-ons root without node groups deploys to its environment's clusters",
			frags: []inventory.Fragment{
				tf("eks", "prod", []inventory.NodeGroupSpec{group("g", "eks/main.tf")}),
				tf("eks", "dev", []inventory.NodeGroupSpec{group("g", "eks/main.tf")}),
				tf("addons", "prod", nil, workload("prod-addon", "addons/main.tf")),
			},
			want: "eks:dev=g| eks:prod=g|prod-addon",
		},
		{
			name: "NodePool manifests join the only cluster",
			frags: []inventory.Fragment{
				{File: "cluster.yaml", NodeGroups: []inventory.NodeGroupSpec{eksctl("main", group("default", "cluster.yaml"))}},
				{File: "karpenter/pool.yaml", NodePools: []inventory.NodePool{pool("default", "karpenter/pool.yaml")}},
				manifest,
			},
			want: "main=default,pool:default|shared",
		},
		{
			name: "NodePool manifests of two folders, no other cluster: one cluster per folder",
			frags: []inventory.Fragment{
				{File: "clusters/a/pool.yaml", NodePools: []inventory.NodePool{pool("p", "clusters/a/pool.yaml")}},
				{File: "clusters/b/pool.yaml", NodePools: []inventory.NodePool{pool("p", "clusters/b/pool.yaml")}},
				manifest,
			},
			want: "clusters/a=pool:p|shared clusters/b=pool:p|shared",
		},
		{
			name: "config clusters take what they name; manifests they map go only there",
			frags: []inventory.Fragment{
				{File: "clusters/a/pool.yaml", NodePools: []inventory.NodePool{pool("p", "clusters/a/pool.yaml")}},
				{File: "clusters/b/pool.yaml", NodePools: []inventory.NodePool{pool("p", "clusters/b/pool.yaml")}},
				{File: "apps/a/job.yaml", Workloads: []inventory.Workload{workload("a-only", "apps/a/job.yaml")}},
				manifest,
			},
			specs: []ClusterSpec{
				{Name: "A", Infrastructure: []string{"clusters/a"}, Manifests: []string{"apps/a"}},
				{Name: "B", Infrastructure: []string{"clusters/b"}},
			},
			want: "A=pool:p|a-only,shared B=pool:p|shared",
		},
		{
			name: "pattern folders: the NodePools and manifests a root's folder holds are its cluster's",
			frags: []inventory.Fragment{
				tf("patterns/karpenter", "", nil),
				{File: "patterns/karpenter/*.tf", TerraformRoot: "patterns/karpenter", FargateProfiles: []inventory.FargateProfile{{Name: "karpenter"}}},
				{File: "patterns/karpenter/karpenter.yaml", NodePools: []inventory.NodePool{pool("default", "patterns/karpenter/karpenter.yaml")}},
				{File: "patterns/karpenter/example.yaml", Workloads: []inventory.Workload{workload("inflate", "patterns/karpenter/example.yaml")}},
				tf("patterns/mng", "", []inventory.NodeGroupSpec{group("mng", "patterns/mng/eks.tf")}),
				{File: "patterns/mng/example.yaml", Workloads: []inventory.Workload{workload("app", "patterns/mng/example.yaml")}},
				manifest,
			},
			want: "patterns/karpenter=pool:default|inflate,shared patterns/mng=mng|app,shared",
		},
		{
			name: "same name, different kinds: told apart by kind",
			frags: []inventory.Fragment{
				{File: "prod.yaml", NodeGroups: []inventory.NodeGroupSpec{eksctl("prod", group("g", "prod.yaml"))}},
				tf("prod", "", []inventory.NodeGroupSpec{group("t", "prod/main.tf")}),
			},
			want: "prod (eksctl)=g| prod (terraform)=t|",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := describe(planClusters(tc.frags, tc.flags, tc.specs, []string{"."})); got != tc.want {
				t.Errorf("clusters:\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}
