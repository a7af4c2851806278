package analysis

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"

	"github.com/eni-lint/eni-lint/internal/fanout"
	"github.com/eni-lint/eni-lint/pkg/confine"
	"github.com/eni-lint/eni-lint/pkg/findings"
	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/limits"
	"github.com/eni-lint/eni-lint/pkg/loaders"
	"github.com/eni-lint/eni-lint/pkg/rules"
)

// ClusterSpec is one entry of the config's clusters: what it names is that cluster's, and
// discovery still runs for the rest.
type ClusterSpec struct {
	Name string
	// Infrastructure are the files and folders whose node groups are the cluster's (Terraform
	// roots, eksctl and CloudFormation files, Karpenter NodePools).
	Infrastructure []string
	// Manifests are the files and folders whose objects are deployed to this cluster only.
	Manifests []string
	// VarFiles evaluate the Terraform roots under Infrastructure with these var files, in order.
	VarFiles   []string
	NodeGroups []inventory.NodeGroupSpec
	Location   inventory.Position
}

// cluster is one cluster of a run while it is being planned: what it is, and the fragments
// (filtered to what belongs to it) it is evaluated on.
type cluster struct {
	meta       findings.Cluster
	key        clusterKey
	frags      []inventory.Fragment
	nodeGroups []inventory.NodeGroupSpec
	// manifests counts the files whose objects the cluster gets.
	manifests map[string]bool
}

// clusterKey tells the clusters of a plan apart: their kind (clusterConfig, the flags',
// clusterTerraform, clusterKarpenter, or the kind of a ClusterRef an object names), and what
// names one of that kind: a config entry's or a reference's name, a Terraform root and its
// environment, a NodePool folder.
type clusterKey struct{ kind, name, env string }

// configKey is the key of the config file's cluster name.
func configKey(name string) clusterKey { return clusterKey{kind: clusterConfig, name: name} }

// Cluster kinds, as reports name them.
const (
	clusterTerraform = "terraform"
	clusterKarpenter = "karpenter"
	clusterFlags     = "flags"
	clusterConfig    = "config"
)

// planClusters splits what was read into clusters (docs/model.md, "Clusters"). Discovery,
// without config: each Terraform root module, in each environment, that declares node groups,
// pools or Fargate profiles, or whose folder holds NodePool manifests; each eksctl
// ClusterConfig (by metadata.name); each CloudFormation template with node groups; the
// --node-group flags and the config's nodeGroups ("default"). Other NodePool manifests join the
// only cluster, else form a cluster per folder. Config clusters take the infrastructure and
// manifests they name. Objects go to every cluster, except those under a config cluster's
// manifests (that cluster only), those a Terraform root declares (its own cluster, or the
// clusters of the same environment when the root has no node groups) and those in a Terraform
// root's folder (that root's clusters). scanned are the paths the run was given: a root that is
// one of them holds everything, so its folder decides nothing.
func planClusters(frags []inventory.Fragment, flagGroups []inventory.NodeGroupSpec, specs []ClusterSpec, scanned []string) []*cluster {
	p := &planner{frags: frags, specs: specs, byKey: map[clusterKey]*cluster{}, rootClusters: map[string][]*cluster{},
		groups: make([][]*cluster, len(frags)), pools: make([][][]*cluster, len(frags)), rootFrags: map[string][]int{}}
	for _, s := range specs {
		c := p.get(configKey(s.Name), findings.Cluster{Name: s.Name, Kind: clusterConfig, VarFiles: s.VarFiles, Sources: []inventory.Position{s.Location},
			Infrastructure: slashed(s.Infrastructure), ManifestPaths: slashed(s.Manifests)})
		c.nodeGroups = append(c.nodeGroups, s.NodeGroups...)
	}
	if len(flagGroups) > 0 {
		c := p.get(clusterKey{kind: clusterFlags}, findings.Cluster{Name: "default", Kind: clusterFlags})
		c.nodeGroups = append(c.nodeGroups, flagGroups...)
		for _, g := range flagGroups {
			c.meta.Sources = appendPosition(c.meta.Sources, g.Location)
		}
	}
	p.placeInfrastructure()
	p.findRoots(scanned)
	p.placeWaitingPools()
	uniqueNames(p.order)
	p.assignObjects()
	return p.order
}

// planner is one planClusters: the clusters made so far, by key and in order, and where each
// fragment's node groups (groups) and NodePools (pools) go.
type planner struct {
	frags []inventory.Fragment
	specs []ClusterSpec
	byKey map[clusterKey]*cluster
	order []*cluster
	// rootClusters are the clusters each Terraform root's evaluations went to, rootFrags the
	// fragments of each root.
	rootClusters map[string][]*cluster
	rootFrags    map[string][]int
	groups       [][]*cluster
	pools        [][][]*cluster
	// waiting are the NodePools no infrastructure claims, placed once the clusters are known.
	waiting []pendingPool
	// roots are the Terraform roots that are not a folder the run was asked to scan.
	roots []plannedRoot
}

type pendingPool struct{ frag, pool int }

type plannedRoot struct{ dir, abs string }

// get is the cluster of key, made with meta the first time.
func (p *planner) get(key clusterKey, meta findings.Cluster) *cluster {
	if c, ok := p.byKey[key]; ok {
		return c
	}
	c := &cluster{meta: meta, key: key, manifests: map[string]bool{}}
	p.byKey[key] = c
	p.order = append(p.order, c)
	return c
}

func (p *planner) addRoot(root string, c *cluster) {
	root = filepath.Clean(root)
	if !slices.Contains(p.rootClusters[root], c) {
		p.rootClusters[root] = append(p.rootClusters[root], c)
	}
}

// configFor is the config cluster that names path as infrastructure; in a Terraform
// environment a config cluster declared, that one.
func (p *planner) configFor(path, declaredFor string) *cluster {
	var first *cluster
	for _, s := range p.specs {
		for _, infra := range s.Infrastructure {
			if !within(path, infra) {
				continue
			}
			c := p.byKey[configKey(s.Name)]
			if declaredFor == "" || s.Name == declaredFor {
				return c
			}
			if first == nil {
				first = c
			}
		}
	}
	return first
}

// infraOf is the cluster an item of infrastructure belongs to, or nil when it waits for the
// others (a NodePool manifest).
func (p *planner) infraOf(f inventory.Fragment, file string, ref inventory.ClusterRef) *cluster {
	if f.TerraformRoot != "" {
		if c := p.configFor(f.TerraformRoot, f.ConfigCluster); c != nil {
			if c.meta.Environment == "" {
				c.meta.Environment = f.Environment
			}
			p.addRoot(f.TerraformRoot, c)
			return c
		}
		c := p.get(terraformKey(f), findings.Cluster{Name: terraformName(f.TerraformRoot, f.Environment), Kind: clusterTerraform,
			Root: filepath.ToSlash(f.TerraformRoot), Environment: f.Environment, VarFiles: f.VarFiles,
			Sources: []inventory.Position{{File: filepath.ToSlash(f.TerraformRoot)}}})
		p.addRoot(f.TerraformRoot, c)
		return c
	}
	if c := p.configFor(file, ""); c != nil {
		return c
	}
	if ref.Kind != "" {
		c := p.get(clusterKey{kind: ref.Kind, name: ref.Name}, findings.Cluster{Name: ref.Name, Kind: ref.Kind})
		c.meta.Sources = appendPosition(c.meta.Sources, ref.Location)
		return c
	}
	return nil
}

// placeInfrastructure gives each fragment's node groups and NodePools their cluster, or
// leaves a NodePool waiting.
func (p *planner) placeInfrastructure() {
	for i, f := range p.frags {
		p.groups[i] = make([]*cluster, len(f.NodeGroups))
		p.pools[i] = make([][]*cluster, len(f.NodePools))
		for j, g := range f.NodeGroups {
			p.groups[i][j] = p.infraOf(f, g.Location.File, g.Cluster)
		}
		for j, pool := range f.NodePools {
			c := p.infraOf(f, pool.Location.File, pool.Cluster)
			if c == nil {
				c = manifestsCluster(p.specs, p.byKey, pool.Location.File)
			}
			if c == nil {
				p.waiting = append(p.waiting, pendingPool{i, j})
			} else {
				p.pools[i][j] = []*cluster{c}
			}
		}
		if f.TerraformRoot != "" {
			root := filepath.Clean(f.TerraformRoot)
			p.rootFrags[root] = append(p.rootFrags[root], i)
			if len(f.FargateProfiles) > 0 {
				// Fargate only (the Karpenter controller on Fargate): still an EKS cluster.
				p.infraOf(f, f.TerraformRoot, inventory.ClusterRef{})
			}
		}
	}
}

// findRoots lists the Terraform roots that are not a folder the run was asked to scan (which
// holds everything), for holder.
func (p *planner) findRoots(scanned []string) {
	for r := range p.rootFrags {
		if r == "." || slices.ContainsFunc(scanned, func(s string) bool { return filepath.Clean(s) == r }) {
			continue
		}
		if abs, err := filepath.Abs(r); err == nil {
			p.roots = append(p.roots, plannedRoot{r, abs})
		}
	}
	sort.Slice(p.roots, func(i, j int) bool { return p.roots[i].dir < p.roots[j].dir })
}

// holder is the Terraform root whose folder holds a file: a pattern folder with main.tf and
// the manifests and NodePools applied to its cluster.
func (p *planner) holder(file string) string {
	abs, err := filepath.Abs(file)
	if err != nil || len(p.roots) == 0 {
		return ""
	}
	best := ""
	for _, r := range p.roots {
		if confine.Within(r.abs, abs) && len(r.dir) > len(best) {
			best = r.dir
		}
	}
	return best
}

// placeWaitingPools gives the NodePool manifests no infrastructure claims the clusters of the
// Terraform root that holds them, else the only cluster, else a cluster of their folder.
func (p *planner) placeWaitingPools() {
	var unplaced []pendingPool
	for _, w := range p.waiting {
		file := p.frags[w.frag].NodePools[w.pool].Location.File
		if h := p.holder(file); h != "" {
			for _, i := range p.rootFrags[h] {
				p.pools[w.frag][w.pool] = appendNew(p.pools[w.frag][w.pool], []*cluster{p.infraOf(p.frags[i], file, inventory.ClusterRef{})})
			}
			continue
		}
		unplaced = append(unplaced, w)
	}
	only := len(p.order) == 1
	for _, w := range unplaced {
		if only {
			p.pools[w.frag][w.pool] = []*cluster{p.order[0]}
			continue
		}
		dir := filepath.ToSlash(filepath.Dir(p.frags[w.frag].NodePools[w.pool].Location.File))
		name := dir
		if name == "." {
			name = clusterKarpenter
		}
		p.pools[w.frag][w.pool] = []*cluster{p.get(clusterKey{kind: clusterKarpenter, name: dir}, findings.Cluster{Name: name, Kind: clusterKarpenter, Root: dir, Sources: []inventory.Position{{File: dir}}})}
	}
}

// assignObjects gives each cluster its part of every fragment: the objects that go to it, and
// the node groups, NodePools and Fargate profiles placed there.
func (p *planner) assignObjects() {
	for i, f := range p.frags {
		targets := objectTargets(f, p.specs, p.byKey, p.order)
		if targets == nil && f.TerraformRoot == "" {
			if h := p.holder(f.File); h != "" && len(p.rootClusters[h]) > 0 {
				targets = map[*cluster]bool{}
				for _, c := range p.rootClusters[h] {
					targets[c] = true
				}
			}
		}
		for _, c := range p.order {
			p.assignPart(i, f, c, targets == nil || targets[c])
		}
	}
}

// assignPart gives cluster c its part of fragment i: its objects when in, and what is placed
// there.
func (p *planner) assignPart(i int, f inventory.Fragment, c *cluster, in bool) {
	part := f
	part.NodeGroups, part.NodePools, part.FargateProfiles = nil, nil, nil
	if !in {
		part.ClearObjects()
	}
	for j, g := range f.NodeGroups {
		if p.groups[i][j] == c {
			g.Environment = f.Environment
			if f.TerraformRoot != "" && !within(g.Location.File, f.TerraformRoot) {
				g.Root = filepath.ToSlash(filepath.Clean(f.TerraformRoot))
			}
			part.NodeGroups = append(part.NodeGroups, g)
		}
	}
	for j, pool := range f.NodePools {
		if slices.Contains(p.pools[i][j], c) {
			part.NodePools = append(part.NodePools, pool)
		}
	}
	for _, fp := range f.FargateProfiles {
		if ref := fargateCluster(f, fp, p.byKey); ref == c || (ref == nil && in) {
			part.FargateProfiles = append(part.FargateProfiles, fp)
		}
	}
	if in && (len(f.Workloads) > 0 || len(f.SecurityGroupPolicies) > 0 || len(f.ServiceAccounts) > 0) {
		c.manifests[f.File] = true
	}
	if in || len(part.NodeGroups) > 0 || len(part.NodePools) > 0 || len(part.FargateProfiles) > 0 {
		c.frags = append(c.frags, part)
	}
}

// objectTargets are the clusters a fragment's objects go to; nil means every cluster.
func objectTargets(f inventory.Fragment, specs []ClusterSpec, byKey map[clusterKey]*cluster, order []*cluster) map[*cluster]bool {
	targets := map[*cluster]bool{}
	for _, s := range specs {
		for _, p := range s.Manifests {
			if within(f.File, p) || (f.TerraformRoot != "" && within(f.TerraformRoot, p)) {
				targets[byKey[configKey(s.Name)]] = true
			}
		}
	}
	if len(targets) > 0 {
		return targets
	}
	if f.TerraformRoot == "" {
		return nil
	}
	// What a Terraform root declares is deployed by that root: to its own cluster, or, for a
	// root without node groups (an add-ons root), to the clusters of its environment.
	if c, ok := byKey[terraformKey(f)]; ok {
		targets[c] = true
		return targets
	}
	for _, s := range specs {
		for _, p := range s.Infrastructure {
			if within(f.TerraformRoot, p) && (f.ConfigCluster == "" || f.ConfigCluster == s.Name) {
				targets[byKey[configKey(s.Name)]] = true
			}
		}
	}
	if len(targets) > 0 {
		return targets
	}
	if f.Environment != "" {
		for _, c := range order {
			if c.meta.Environment == f.Environment {
				targets[c] = true
			}
		}
		if len(targets) > 0 {
			return targets
		}
	}
	return nil
}

// manifestsCluster is the config cluster whose manifests hold file, if any (a NodePool kept
// beside the cluster's applications).
func manifestsCluster(specs []ClusterSpec, byKey map[clusterKey]*cluster, file string) *cluster {
	for _, s := range specs {
		for _, p := range s.Manifests {
			if within(file, p) {
				return byKey[configKey(s.Name)]
			}
		}
	}
	return nil
}

// fargateCluster is the cluster that declares a Fargate profile, or nil when the profile
// follows its fragment's objects.
func fargateCluster(f inventory.Fragment, p inventory.FargateProfile, byKey map[clusterKey]*cluster) *cluster {
	if p.Cluster.Kind != "" {
		return byKey[clusterKey{kind: p.Cluster.Kind, name: p.Cluster.Name}]
	}
	if f.TerraformRoot != "" {
		return byKey[terraformKey(f)]
	}
	return nil
}

func terraformKey(f inventory.Fragment) clusterKey {
	return clusterKey{kind: clusterTerraform, name: filepath.Clean(f.TerraformRoot), env: f.Environment}
}

// terraformName names a Terraform cluster: its root folder, and the environment after a colon
// (infra:env/prod); the environment alone for the current folder.
func terraformName(root, env string) string {
	root = filepath.ToSlash(filepath.Clean(root))
	switch {
	case root == "." && env == "":
		return clusterTerraform
	case root == ".":
		return env
	case env == "":
		return root
	default:
		return root + ":" + env
	}
}

// uniqueNames keeps cluster names apart: a second cluster of the same name gets its kind
// after it ("prod (eksctl)"), and a number when that is not enough.
func uniqueNames(cs []*cluster) {
	count := map[string]int{}
	for _, c := range cs {
		count[c.meta.Name]++
	}
	seen := map[string]bool{}
	for _, c := range cs {
		if count[c.meta.Name] > 1 {
			c.meta.Name = fmt.Sprintf("%s (%s)", c.meta.Name, c.meta.Kind)
		}
		name := c.meta.Name
		for n := 2; seen[name]; n++ {
			name = fmt.Sprintf("%s #%d", c.meta.Name, n)
		}
		c.meta.Name = name
		seen[name] = true
	}
}

func appendPosition(ps []inventory.Position, p inventory.Position) []inventory.Position {
	for _, q := range ps {
		if q == p {
			return ps
		}
	}
	return append(ps, p)
}

// within says whether path p is dir or inside it (confine.Under).
func within(p, dir string) bool { return confine.Under(p, dir) }

// manifestList is a cluster's manifest files, sorted.
func manifestList(c *cluster) []string {
	out := make([]string, 0, len(c.manifests))
	for f := range c.manifests {
		out = append(out, filepath.ToSlash(f))
	}
	sort.Strings(out)
	return out
}

// checkClusters evaluates each cluster on its own, on a pool of workers sharing the prepared
// query, and merges the reports: rows and node groups carry their cluster, a finding that
// several clusters share is listed once with all of them, and each cluster's verdict is kept.
func checkClusters(ctx context.Context, engine *rules.Engine, opts Options, table *limits.Table, clusters []*cluster, stats loaders.Stats) (*findings.Report, error) {
	type result struct {
		rep *findings.Report
		inv *inventory.Inventory
		err error
	}
	results := make([]result, len(clusters))
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	workers = min(workers, len(clusters))
	share := opts.runWitnessBudget().Share(len(clusters))
	opts.witnessBudget = &share
	if len(clusters) > 1 {
		// Manifests outside every cluster's folder are in each cluster: convert them once.
		opts.sharedInputs = &rules.WorkloadInputs{}
	}
	fanout.Each(len(clusters), workers, func(i int) {
		rep, inv, err := checkFragments(ctx, engine, opts, table, clusters[i].frags, stats, clusters[i].nodeGroups)
		results[i] = result{rep, inv, err}
	})

	m := &merger{multi: len(clusters) > 1, byKey: map[string]int{}, workloads: map[string]int{}, envs: map[string]int{},
		workloadIDs: map[string]bool{}, policyIDs: map[string]bool{}, accountIDs: map[string]bool{}}
	for i, c := range clusters {
		if err := results[i].err; err != nil {
			return nil, fmt.Errorf("cluster %s: %w", c.meta.Name, err)
		}
		m.add(c, results[i].rep, results[i].inv, opts.ListManifests)
	}
	return m.finish(), nil
}

// merger puts the clusters' reports together: a finding several clusters share once with all
// of them, a workload's figures once per set of equal figures, each cluster's and
// environment's verdict kept.
type merger struct {
	multi  bool
	merged *findings.Report
	// byKey and workloads are the merged findings and workloads by what makes two equal;
	// envs the environments' positions in merged.Environments.
	byKey, workloads, envs map[string]int
	// The objects any cluster got, each once, for the run's input counts.
	workloadIDs, policyIDs, accountIDs map[string]bool
}

// add merges one cluster's report.
func (m *merger) add(c *cluster, rep *findings.Report, inv *inventory.Inventory, listManifests bool) {
	meta := m.clusterMeta(c, rep, inv, listManifests)
	for _, w := range inv.Workloads {
		m.workloadIDs[w.ID] = true
	}
	for _, p := range inv.SecurityGroupPolicies {
		m.policyIDs[p.ID] = true
	}
	for _, a := range inv.ServiceAccounts {
		m.accountIDs[a.ID] = true
	}
	clusterFindings, clusterWorkloads := rep.Findings, rep.Workloads
	if m.merged == nil {
		m.merged = rep
		m.merged.Findings = nil
		m.merged.Workloads = nil
		m.merged.Clusters = nil
	} else {
		merged := m.merged
		merged.NodeGroups = append(merged.NodeGroups, rep.NodeGroups...)
		merged.IgnoreUses = append(merged.IgnoreUses, rep.IgnoreUses...)
		merged.InstanceTypes = append(merged.InstanceTypes, rep.InstanceTypes...)
		merged.Errors = appendNewErrors(merged.Errors, rep.Errors)
		merged.CNISettings = append(merged.CNISettings, rep.CNISettings...)
		merged.OnFargate = append(merged.OnFargate, rep.OnFargate...)
		merged.Inputs.NotModelled = appendNew(merged.Inputs.NotModelled, rep.Inputs.NotModelled)
		merged.CapacityKnown = merged.CapacityKnown || rep.CapacityKnown
	}
	m.merged.Clusters = append(m.merged.Clusters, meta)
	m.addEnvironment(c, meta.ExitCode)
	m.addWorkloads(c.meta.Name, clusterWorkloads)
	m.addFindings(c, clusterFindings)
}

// clusterMeta is what the report says of one cluster; its node groups and rows are named
// after it.
func (m *merger) clusterMeta(c *cluster, rep *findings.Report, inv *inventory.Inventory, listManifests bool) findings.Cluster {
	name := c.meta.Name
	meta := c.meta
	meta.Manifests = len(c.manifests)
	if listManifests {
		meta.ManifestFiles = manifestList(c)
	}
	meta.Workloads, meta.SecurityGroupPolicies, meta.ServiceAccounts = len(inv.Workloads), len(inv.SecurityGroupPolicies), len(inv.ServiceAccounts)
	meta.ExitCode, meta.Summary = rep.ExitCode(), rep.Summary
	meta.NodeGroups = []string{}
	if meta.Sources == nil {
		meta.Sources = []inventory.Position{}
	}
	for j := range rep.NodeGroups {
		g := &rep.NodeGroups[j]
		g.Cluster = name
		meta.NodeGroups = append(meta.NodeGroups, g.ID)
	}
	for j := range rep.InstanceTypes {
		if m.multi {
			rep.InstanceTypes[j].Cluster = name
		}
		rep.InstanceTypes[j].Environment = c.meta.Environment
	}
	return meta
}

// addEnvironment keeps the worst exit code of each Terraform environment and its var files.
func (m *merger) addEnvironment(c *cluster, exit int) {
	env := c.meta.Environment
	if env == "" {
		return
	}
	if k, ok := m.envs[env]; ok {
		v := &m.merged.Environments[k]
		v.ExitCode = max(v.ExitCode, exit)
		if files := strings.Join(c.meta.VarFiles, ","); !slices.Contains(strings.Split(v.VarFile, ","), files) {
			v.VarFile += "," + files
		}
		return
	}
	m.envs[env] = len(m.merged.Environments)
	m.merged.Environments = append(m.merged.Environments, findings.EnvironmentVerdict{Name: env, VarFile: strings.Join(c.meta.VarFiles, ","), ExitCode: exit})
}

// addWorkloads lists a workload's figures once; where they differ between clusters (a
// Fargate profile in one of them) once per set of equal figures.
func (m *merger) addWorkloads(name string, ws []findings.WorkloadNumbers) {
	for _, w := range ws {
		if m.multi {
			w.Clusters = []string{name}
		}
		key := w.ID + "\x00" + fmt.Sprint(w.Numbers, w.Hidden, w.Unbounded)
		if k, ok := m.workloads[key]; ok {
			have := &m.merged.Workloads[k]
			have.Clusters = append(have.Clusters, name)
			// A copy: the list is shared by the workloads of one placement key.
			have.NodeGroups = appendNew(slices.Clone(have.NodeGroups), w.NodeGroups)
			continue
		}
		m.workloads[key] = len(m.merged.Workloads)
		m.merged.Workloads = append(m.merged.Workloads, w)
	}
}

// addFindings lists a finding several clusters share once, with all their names.
func (m *merger) addFindings(c *cluster, fs []findings.Finding) {
	name, env := c.meta.Name, c.meta.Environment
	for _, f := range fs {
		key := fmt.Sprintf("%s|%v|%s|%v", f.Rule, f.Location, f.Message, f.Suppressed != nil)
		if k, ok := m.byKey[key]; ok {
			have := &m.merged.Findings[k]
			if m.multi {
				have.Clusters = append(have.Clusters, name)
			}
			if env != "" && !slices.Contains(have.Environments, env) {
				have.Environments = append(have.Environments, env)
			}
			continue
		}
		if m.multi {
			f.Clusters = []string{name}
		}
		if env != "" {
			f.Environments = []string{env}
		}
		m.byKey[key] = len(m.merged.Findings)
		m.merged.Findings = append(m.merged.Findings, f)
	}
}

// finish counts each environment's findings and the run's inputs.
func (m *merger) finish() *findings.Report {
	merged := m.merged
	// An environment's counts are those of the findings that occur in it, each once.
	for k := range merged.Environments {
		v := &merged.Environments[k]
		v.Summary = findings.Summary{LoadErrors: len(merged.Errors)}
		for _, f := range merged.Findings {
			if !slices.Contains(f.Environments, v.Name) {
				continue
			}
			switch {
			case f.Suppressed != nil:
				v.Summary.Suppressed++
			case f.Severity == findings.Error:
				v.Summary.Errors++
			case f.Severity == findings.Warning:
				v.Summary.Warnings++
			case f.Severity == findings.Info:
				v.Summary.Info++
			}
		}
	}
	merged.Inputs.Workloads, merged.Inputs.SecurityGroupPolicies, merged.Inputs.ServiceAccounts = len(m.workloadIDs), len(m.policyIDs), len(m.accountIDs)
	merged.Inputs.NodeGroups = len(merged.NodeGroups)
	if merged.Workloads == nil {
		merged.Workloads = []findings.WorkloadNumbers{}
	}
	if merged.Findings == nil {
		merged.Findings = []findings.Finding{}
	}
	return merged
}

func appendNew[T comparable](have, more []T) []T {
	for _, x := range more {
		if !slices.Contains(have, x) {
			have = append(have, x)
		}
	}
	return have
}

func appendNewErrors(have, more []inventory.LoadError) []inventory.LoadError {
	seen := map[string]bool{}
	for _, e := range have {
		seen[fmt.Sprint(e)] = true
	}
	for _, e := range more {
		if !seen[fmt.Sprint(e)] {
			seen[fmt.Sprint(e)] = true
			have = append(have, e)
		}
	}
	return have
}

func slashed(paths []string) []string {
	var out []string
	for _, p := range paths {
		out = append(out, filepath.ToSlash(filepath.Clean(p)))
	}
	return out
}
