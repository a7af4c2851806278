// Package loaders turns the paths a user names into inventory fragments: it walks folders,
// picks the files each loader understands, and parses them in parallel. Each input kind has
// its own loader package (kubernetes today); this package only finds files and dispatches.
package loaders

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/eni-lint/eni-lint/internal/fanout"
	"github.com/eni-lint/eni-lint/pkg/confine"
	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/loaders/cloudformation"
	"github.com/eni-lint/eni-lint/pkg/loaders/helm"
	"github.com/eni-lint/eni-lint/pkg/loaders/kubernetes"
	"github.com/eni-lint/eni-lint/pkg/loaders/kustomize"
	"github.com/eni-lint/eni-lint/pkg/loaders/terraform"
	"github.com/eni-lint/eni-lint/pkg/loaders/tfplan"
	"github.com/eni-lint/eni-lint/pkg/yamlpos"
	"go.yaml.in/yaml/v3"
)

// Options configure a load.
type Options struct {
	DefaultNamespace string
	// Workers is how many files are parsed at once; 0 means one per CPU.
	Workers int
	// Stdin is read when a path is "-".
	Stdin io.Reader
	// Exclude are globs (with **) of files and folders not to read, matched against paths as
	// walked.
	Exclude []string
	// Terraform holds the variable inputs of Terraform root modules.
	Terraform terraform.Options
	// HelmCharts are charts to render in-process (--helm-chart).
	HelmCharts []helm.Chart
	// SkipTreeCharts keeps the charts found in the scanned folders unrendered (their
	// templates/ folders are listed as skipped); by default each is rendered with its own
	// values.yaml.
	SkipTreeCharts bool
	// HelmRoots are the folders `# Source:` paths of rendered Helm output are relative to; the
	// current folder when empty.
	HelmRoots []string
	// Helm are the budgets of in-process chart rendering.
	Helm helm.Limits
	// FS confines every read to the scanned folders; Load makes one when it is nil.
	FS *confine.FS
	// YAML are the budgets of each YAML stream.
	YAML yamlpos.Limits
	// TerraformPlans are Terraform plan or state JSON files named on the command line or in
	// the config (--terraform-plan); plans found in the scanned folders are read too.
	TerraformPlans []TerraformPlan
	// Reading, when set, is told when an input starts being read and returns what to call
	// when it is done, so that a run stopped by --timeout can name what it was reading.
	Reading func(input string) (done func())

	locator *helm.Locator
}

// kubernetes are the options of every manifest read: parsed files, kustomize builds, Helm
// output and manifests declared in Terraform.
func (o Options) kubernetes() kubernetes.Options {
	return kubernetes.Options{DefaultNamespace: o.DefaultNamespace, YAML: o.YAML}
}

func (o Options) reading(input string) func() {
	if o.Reading == nil {
		return func() {}
	}
	return o.Reading(input)
}

// notRead is the error of an input left unread because the run was stopped.
func notRead(ctx context.Context) string {
	if ctx.Err() == context.DeadlineExceeded {
		return "not read: the run passed --timeout first"
	}
	return "not read: " + ctx.Err().Error()
}

// newHelmLocator makes the run's one locator of `# Source:` templates: it reads each
// template once, whatever the number of documents that name it.
func (o Options) newHelmLocator() *helm.Locator {
	roots := o.HelmRoots
	if len(roots) == 0 {
		roots = []string{"."}
	}
	return helm.NewLocator(o.FS, roots...)
}

// Stats describe what a load looked at.
type Stats struct {
	Files     int `json:"files"`
	Documents int `json:"documents"`
	// SkippedChartTemplates are Helm chart template folders: they are Go templates, not
	// manifests, and must be rendered first (helm template … | eni-lint check -).
	SkippedChartTemplates []string `json:"skippedChartTemplates,omitempty"`
	// TerraformModules counts folders with Terraform files.
	TerraformModules int `json:"terraformModules,omitempty"`
	// Kustomizations counts the kustomizations built; BuiltKustomizations names their
	// folders (the roots: kustomizations no other one uses).
	Kustomizations      int      `json:"kustomizations,omitempty"`
	BuiltKustomizations []string `json:"builtKustomizations,omitempty"`
	// HelmCharts counts the charts rendered.
	HelmCharts int `json:"helmCharts,omitempty"`
	// RenderedCharts are the charts rendered: those of --helm-chart and those found in the
	// scanned folders (with their default values).
	RenderedCharts []string `json:"renderedCharts,omitempty"`
	// TerraformPlans are the Terraform plan and state files read, each with what it joined.
	TerraformPlans []inventory.PlanSummary `json:"terraformPlans,omitempty"`
	// Skipped are entries a walk did not read: links that leave the scanned folders, named
	// pipes, devices, sockets, second links to a file already read.
	Skipped []confine.Skip `json:"skipped,omitempty"`
}

// StdinName is the file name findings use for input read from standard input.
const StdinName = "<stdin>"

// skipDirs are never walked into: version control, dependency and tool caches.
var skipDirs = map[string]bool{".git": true, "node_modules": true, ".terraform": true}

func terraformFile(name string) bool {
	return strings.HasSuffix(name, ".tf") || strings.HasSuffix(name, ".tf.json")
}

func manifestFile(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}

// helmChartFile says whether path is one of a Helm chart's own files at the chart's root
// (beside Chart.yaml): Chart.yaml, Chart.lock, requirements.yaml/.lock, values.schema.json
// and values files (values.yaml, values-prod.yaml, …). Helm reads them; none is a manifest.
func helmChartFile(fsys *confine.FS, path string) bool {
	base := strings.ToLower(filepath.Base(path))
	switch {
	case base == "chart.yaml" || base == "chart.lock" || base == "requirements.yaml" || base == "requirements.lock" || base == "values.schema.json":
	case strings.HasPrefix(base, "values") && (strings.HasSuffix(base, ".yaml") || strings.HasSuffix(base, ".yml")):
	default:
		return false
	}
	return fsys.IsFile(filepath.Join(filepath.Dir(path), "Chart.yaml"))
}

// Load reads every path and returns one fragment per file, in path order. Every file is read
// through opts.FS (one is made, confined to the paths, when it is nil): nothing outside the
// scanned folders is opened, and only regular files are read.
func Load(ctx context.Context, paths []string, opts Options) ([]inventory.Fragment, Stats) {
	if opts.FS == nil {
		fsys, err := confine.New("", 0)
		if err != nil {
			return []inventory.Fragment{failed(".", "cannot open the working folder: "+err.Error())}, Stats{}
		}
		defer fsys.Close()
		opts.FS = fsys
	}
	opts.locator = opts.newHelmLocator()
	r := &run{ctx: ctx, opts: opts, fsys: opts.FS, seen: map[string]bool{}, tfDirs: map[string]bool{}, kustDirs: map[string]bool{},
		fromTree: map[string]bool{}, treeFrags: map[string][2]int{}}
	// Discover, then read each kind of source, then settle which source an object counts
	// from (a chart rendered elsewhere, a template Terraform renders): one pass each.
	for _, p := range paths {
		r.discover(p)
	}
	r.addPlans()
	r.readFiles()
	r.renderCharts()
	if !r.buildKustomizations() || !r.loadTerraform() {
		return r.frags, r.stats
	}
	r.countChartsOnce()
	r.stats.TerraformPlans = joinPlans(r.fsys, r.frags, opts)
	// The same document read by two loaders (a manifest and Terraform's file() of it) is
	// one definition; inventory.Reconcile then marks the duplicates of every kind.
	inventory.ReadOnce(r.frags, func(file string) string { return filepath.Clean(r.fsys.Abs(file)) })
	for _, f := range r.frags {
		r.stats.Documents += f.Documents
	}
	return r.frags, r.stats
}

// run is one Load: what discovery found, the fragments read so far and the counts.
type run struct {
	ctx   context.Context
	opts  Options
	fsys  *confine.FS
	stats Stats
	frags []inventory.Fragment
	// files are the manifest files to read on their own, each once (seen).
	files []string
	seen  map[string]bool
	// tfDirs and kustDirs are the Terraform and kustomization folders found.
	tfDirs, kustDirs map[string]bool
	treeCharts       []string // charts found in the scanned folders, rendered unless SkipTreeCharts
	kustFiles        []string // manifest files of kustomization folders, read only through a build
	// fromTree are the absolute folders of the charts rendered because they are in the tree,
	// treeFrags the fragments each of them rendered, [from, to) in frags.
	fromTree  map[string]bool
	treeFrags map[string][2]int
	// renderedElsewhere are the absolute chart folders a release or a kustomization rendered,
	// inflated the charts kustomizations rendered, as named.
	renderedElsewhere, inflated []string
}

func (r *run) add(f string) {
	if !r.seen[f] {
		r.seen[f] = true
		r.files = append(r.files, f)
	}
}

func (r *run) skip(s confine.Skip) { r.stats.Skipped = append(r.stats.Skipped, s) }

// discover reads one path of the command line: standard input, a file or a folder to walk.
func (r *run) discover(p string) {
	if p == "-" {
		r.readStdin()
		return
	}
	isDir, err := r.fsys.AddPath(p)
	if err != nil {
		r.frags = append(r.frags, failed(p, "cannot read: "+confine.Reason(err)))
		return
	}
	if isDir {
		r.walk(p)
		return
	}
	if _, err := r.fsys.Stat(p); err != nil {
		r.frags = append(r.frags, failed(p, "cannot read: "+confine.Reason(err)))
		return
	}
	if terraformFile(p) {
		r.tfDirs[filepath.Dir(filepath.Clean(p))] = true
		r.stats.Files++
		return
	}
	r.add(filepath.Clean(p)) // a file named explicitly is read whatever its extension
}

func (r *run) readStdin() {
	var data []byte
	var err error
	if r.opts.Stdin != nil {
		data, err = io.ReadAll(io.LimitReader(r.opts.Stdin, r.fsys.MaxFileSize()+1))
	}
	if err != nil {
		r.frags = append(r.frags, failed(StdinName, "cannot read standard input: "+err.Error()))
		return
	}
	if int64(len(data)) > r.fsys.MaxFileSize() {
		r.frags = append(r.frags, failed(StdinName, fmt.Sprintf("standard input has more than the %d-byte budget (--max-file-size): not read", r.fsys.MaxFileSize())))
		return
	}
	// `# Source:` paths of rendered charts are relative to the working folder.
	if err := r.fsys.AddRoot("."); err != nil {
		r.frags = append(r.frags, failed(".", "cannot open the working folder: "+confine.Reason(err)))
	}
	r.stats.Files++
	r.frags = append(r.frags, loadBytes(StdinName, data, r.opts))
}

// walk finds the sources of a folder: manifests, kustomization folders, charts and Terraform
// folders.
func (r *run) walk(p string) {
	err := r.fsys.Walk(p, func(path string, isDir bool) error {
		if path != p && excluded(path, r.opts.Exclude) {
			if isDir {
				return fs.SkipDir
			}
			return nil
		}
		if isDir {
			return r.folder(p, path)
		}
		// The files of a kustomization folder are its inputs: they are read through the
		// build, not on their own. A chart's Chart.yaml and values files are Helm's, read
		// as Helm reads them when the chart renders (a repeated key: the last one wins),
		// never as manifests.
		if manifestFile(path) && !terraformFile(path) {
			switch {
			case r.kustDirs[filepath.Dir(path)]:
				r.stats.Files++ // read by the kustomize build
				r.kustFiles = append(r.kustFiles, path)
			case helmChartFile(r.fsys, path):
				r.stats.Files++ // read by the chart's render
			default:
				r.add(path)
			}
		}
		if terraformFile(path) {
			r.tfDirs[filepath.Dir(path)] = true
			r.stats.Files++
		}
		return nil
	}, r.skip)
	if err != nil {
		r.frags = append(r.frags, failed(p, "cannot walk: "+confine.Reason(err)))
	}
}

// folder decides a folder of the walk from p: skipped, a kustomization, a chart (whose
// templates are rendered, not read), or walked into.
func (r *run) folder(p, path string) error {
	if path != p && skipDirs[filepath.Base(path)] {
		return fs.SkipDir
	}
	if kustomize.IsKustomization(r.fsys, path) {
		r.kustDirs[path] = true
	}
	if filepath.Base(path) != "templates" || !r.fsys.IsFile(filepath.Join(filepath.Dir(path), "Chart.yaml")) {
		return nil
	}
	chart := filepath.Dir(path)
	// A subchart (CHART/charts/SUB) is rendered by its parent, with the parent's values.
	parent := filepath.Dir(filepath.Dir(chart))
	subchart := filepath.Base(filepath.Dir(chart)) == "charts" && r.fsys.IsFile(filepath.Join(parent, "Chart.yaml"))
	if r.opts.SkipTreeCharts {
		r.stats.SkippedChartTemplates = append(r.stats.SkippedChartTemplates, path)
	} else if !subchart {
		r.treeCharts = append(r.treeCharts, chart)
	}
	return fs.SkipDir
}

// addPlans adds the plans named on the command line or in the config, read like a file named
// there.
func (r *run) addPlans() {
	for _, p := range r.opts.TerraformPlans {
		if _, err := r.fsys.AddPath(p.File); err != nil {
			r.frags = append(r.frags, failed(p.File, "cannot read the Terraform plan: "+confine.Reason(err)))
			continue
		}
		r.add(filepath.Clean(p.File))
	}
}

// readFiles reads the manifest files on every core, in path order.
func (r *run) readFiles() {
	// A file of a kustomization's folder that is also named (eni-lint check k8s k8s/job.yaml) is
	// read on its own: it is counted once, and not listed as unread beside the build.
	r.kustFiles = slices.DeleteFunc(r.kustFiles, func(f string) bool {
		if r.seen[filepath.Clean(f)] {
			r.stats.Files--
			return true
		}
		return false
	})
	sort.Strings(r.files)
	r.stats.Files += len(r.files)
	for _, f := range parseAll(r.ctx, r.files, r.opts) {
		if f.NotManifest != "" {
			r.stats.Skipped = append(r.stats.Skipped, confine.Skip{Path: f.File, Reason: f.NotManifest})
			f = inventory.Fragment{File: f.File}
		}
		r.frags = append(r.frags, f)
	}
}

// renderCharts renders the charts given (--helm-chart) and those of the tree not given.
func (r *run) renderCharts() {
	charts := append([]helm.Chart{}, r.opts.HelmCharts...)
	given := map[string]bool{}
	for _, c := range r.opts.HelmCharts {
		given[filepath.Clean(r.fsys.Abs(c.Dir))] = true
	}
	for _, dir := range r.treeCharts {
		if abs := filepath.Clean(r.fsys.Abs(dir)); !given[abs] {
			charts = append(charts, helm.Chart{Dir: dir})
			r.fromTree[abs] = true
		}
	}
	for _, c := range charts {
		if r.ctx.Err() != nil {
			r.frags = append(r.frags, failed(c.Dir, notRead(r.ctx)))
			continue
		}
		r.renderChart(c)
	}
}

func (r *run) renderChart(c helm.Chart) {
	done := r.opts.reading("the chart " + c.Dir)
	k8s := r.opts.kubernetes()
	namespace := r.opts.DefaultNamespace
	if c.Namespace != "" {
		namespace, k8s.DefaultNamespace = c.Namespace, c.Namespace
	}
	rendered := helm.Render(r.fsys, c, namespace, helmLimitsOf(r.opts), func(file string, docs []*yaml.Node) inventory.Fragment {
		return kubernetes.LoadDocuments(file, docs, nil, k8s)
	}, r.skip)
	done()
	abs := filepath.Clean(r.fsys.Abs(c.Dir))
	failed := false
	if r.fromTree[abs] {
		// Nobody asked for this chart: one that does not render with its own values (it
		// needs values from elsewhere, or dependencies not vendored) is a warning that
		// says what would decide it, not a failed run.
		for i := range rendered {
			for _, e := range rendered[i].Errors {
				failed = true
				rendered[i].Unresolved = append(rendered[i].Unresolved, inventory.UnresolvedObject{
					Source: "Helm chart " + c.Dir, Location: e.Position,
					Reason: "it does not render with its own values.yaml (" + e.Message + "): give it values with --helm-chart DIR:VALUES, or skip the charts of the tree with --render-charts=false",
				})
			}
			rendered[i].Errors = nil
		}
		r.treeFrags[abs] = [2]int{len(r.frags), len(r.frags) + len(rendered)}
	}
	r.stats.HelmCharts++
	if !failed {
		r.stats.RenderedCharts = append(r.stats.RenderedCharts, c.Dir)
	}
	r.frags = append(r.frags, rendered...)
}

// buildKustomizations builds the kustomization folders found; false when the run's deadline
// passed first (the fragments then say what was not read).
func (r *run) buildKustomizations() bool {
	if len(r.kustDirs) == 0 {
		return true
	}
	dirs := slices.Sorted(maps.Keys(r.kustDirs))
	if r.ctx.Err() != nil {
		r.frags = append(r.frags, failed(dirs[0], fmt.Sprintf("%s (and the other %d kustomizations)", notRead(r.ctx), len(dirs)-1)))
		return false
	}
	done := r.opts.reading(fmt.Sprintf("%d kustomizations (%s …)", len(dirs), dirs[0]))
	built := kustomize.Load(r.fsys, dirs, r.opts.kubernetes(), helmLimitsOf(r.opts))
	done()
	r.stats.Kustomizations = len(built)
	for _, f := range built {
		dir := f.File
		if kustomize.IsKustomization(r.fsys, filepath.Dir(dir)) {
			dir = filepath.Dir(dir) // the fragment is named after the kustomization file
		}
		r.stats.BuiltKustomizations = append(r.stats.BuiltKustomizations, dir)
	}
	for _, f := range built {
		r.renderedElsewhere = append(r.renderedElsewhere, f.Charts...)
		r.inflated = append(r.inflated, f.RenderedCharts...)
	}
	r.stats.Skipped = append(r.stats.Skipped, unlisted(r.fsys, r.kustFiles, built)...)
	r.frags = append(r.frags, built...)
	return true
}

// loadTerraform evaluates the Terraform folders found; false when the run's deadline passed
// first.
func (r *run) loadTerraform() bool {
	if len(r.tfDirs) == 0 {
		return true
	}
	dirs := slices.Sorted(maps.Keys(r.tfDirs))
	r.stats.TerraformModules = len(dirs)
	if r.ctx.Err() != nil {
		r.frags = append(r.frags, failed(dirs[0], fmt.Sprintf("%s (and the other %d Terraform folders)", notRead(r.ctx), len(dirs)-1)))
		return false
	}
	tf := r.opts.Terraform
	tf.Kubernetes = r.opts.kubernetes()
	tf.FS = r.fsys
	tf.Helm = helmLimitsOf(r.opts)
	done := r.opts.reading(fmt.Sprintf("%d Terraform folders (%s …)", len(dirs), dirs[0]))
	tfFrags := terraform.Load(dirs, tf)
	done()
	r.dropTemplates(tfFrags)
	for _, f := range tfFrags {
		r.renderedElsewhere = append(r.renderedElsewhere, f.Charts...)
	}
	r.frags = append(r.frags, tfFrags...)
	return true
}

// dropTemplates empties the fragments of the files Terraform renders with templatefile():
// a template, not a manifest, whose ${…} and %{…} would read as YAML errors or as wrong
// values. Each is listed as not read, with the reason.
func (r *run) dropTemplates(tfFrags []inventory.Fragment) {
	templates := map[string]bool{}
	for _, f := range tfFrags {
		for _, t := range f.Templates {
			templates[filepath.Clean(t)] = true
		}
	}
	const rendered = "a template that Terraform renders with templatefile(): not a manifest"
	listed := map[string]int{}
	for i, s := range r.stats.Skipped {
		listed[s.Path] = i
	}
	for i := range r.frags {
		if templates[filepath.Clean(r.fsys.Abs(r.frags[i].File))] {
			if at, ok := listed[r.frags[i].File]; ok {
				r.stats.Skipped[at].Reason = rendered // already listed: the precise reason
			} else {
				r.stats.Skipped = append(r.stats.Skipped, confine.Skip{Path: r.frags[i].File, Reason: rendered})
			}
			r.frags[i] = inventory.Fragment{File: r.frags[i].File}
		}
	}
}

// countChartsOnce drops what a chart of the tree rendered with its own values when a
// helm_release installs it or a kustomization's helmCharts inflates it: it is rendered there
// with that release's values, and its objects count once, from there.
func (r *run) countChartsOnce() {
	byRelease := map[string]bool{}
	for _, chart := range r.renderedElsewhere {
		if c := filepath.Clean(chart); r.fromTree[c] {
			byRelease[c] = true
		}
	}
	if len(byRelease) > 0 {
		for chart := range byRelease {
			span := r.treeFrags[chart]
			for i := span[0]; i < span[1]; i++ {
				r.frags[i] = inventory.Fragment{File: r.frags[i].File}
			}
		}
		kept := r.stats.RenderedCharts[:0]
		for _, c := range r.stats.RenderedCharts {
			if !byRelease[filepath.Clean(r.fsys.Abs(c))] {
				kept = append(kept, c)
			}
		}
		r.stats.RenderedCharts = kept
		r.stats.HelmCharts = len(kept)
	}
	r.stats.RenderedCharts = append(r.stats.RenderedCharts, r.inflated...)
	r.stats.HelmCharts += len(r.inflated)
}

// unlisted names the files of kustomization folders that no successful build read: the
// kustomization does not list them, so `kubectl apply -k` does not apply them, and eni-lint
// does not read them. People apply such files on their own; the entry says how to check them.
// A folder no successful build reached (a build that failed says so itself) is left out.
func unlisted(fsys *confine.FS, files []string, built []inventory.Fragment) []confine.Skip {
	read := map[string]bool{}
	for _, f := range built {
		for _, p := range f.ReadFiles {
			read[p] = true
		}
	}
	var out []confine.Skip
	for _, f := range files {
		dir := filepath.Dir(f)
		reached := false
		for _, name := range kustomize.FileNames {
			reached = reached || read[filepath.Clean(fsys.Abs(filepath.Join(dir, name)))]
		}
		if reached && !read[filepath.Clean(fsys.Abs(f))] {
			out = append(out, confine.Skip{Path: f, Reason: "in a kustomization's folder, but the kustomization does not list it: not read; if it is applied on its own (kubectl apply -f), name it: eni-lint check " + f})
		}
	}
	return out
}

func parseAll(ctx context.Context, files []string, opts Options) []inventory.Fragment {
	out := make([]inventory.Fragment, len(files))
	fanout.Each(len(files), opts.Workers, func(i int) {
		if ctx.Err() != nil {
			out[i] = failed(files[i], notRead(ctx))
			return
		}
		done := opts.reading(files[i])
		out[i] = loadFile(files[i], opts)
		done()
	})
	return out
}

func loadFile(file string, opts Options) (frag inventory.Fragment) {
	// A loader that fails in a way nobody foresaw costs this file, never the run.
	defer func() {
		if r := recover(); r != nil {
			frag = failed(file, fmt.Sprintf("cannot read this file (the loader failed: %v)", r))
		}
	}()
	data, err := opts.FS.ReadFile(file)
	if err != nil {
		return failed(file, "cannot read: "+confine.Reason(err))
	}
	return loadBytes(file, data, opts)
}

// loadBytes parses a YAML or JSON file once and hands each document to its loader:
// CloudFormation templates (and CDK output) to cloudformation, the rest to kubernetes.
func loadBytes(file string, data []byte, opts Options) inventory.Fragment {
	// `terraform show -json` output, found in the tree or named: Terraform's own view of a
	// root. A file named as a plan that is none gets the reader's located error.
	if tfplan.Sniff(data) || opts.namedPlan(file) {
		return tfplan.Load(file, data, opts.kubernetes())
	}
	docs, err := yamlpos.DocumentsWithin(data, opts.YAML)
	// %{ if }/%{ for } is Terraform template syntax, never YAML's: a file that holds it and
	// does not parse is a template some code renders, not a manifest.
	// A file whose readable part holds a Kubernetes object stays a manifest with an error:
	// appending %{ to a CronJob must not make it vanish.
	if err != nil && bytes.Contains(data, []byte("%{")) && !holdsObject(docs) && len(objectLines.FindAll(data, 2)) < 2 {
		return inventory.Fragment{File: file, NotManifest: "not valid YAML, and it holds Terraform template directives (%{ … }): a template, not a manifest"}
	}
	if why := ownOutput(docs); why != "" {
		return inventory.Fragment{File: file, NotManifest: why}
	}
	var manifests []*yaml.Node
	var templates []inventory.Fragment
	for _, d := range docs {
		if cloudformation.IsTemplate(d) {
			templates = append(templates, cloudformation.Load(file, d))
		} else {
			manifests = append(manifests, d)
		}
	}
	// Rendered Helm output: each document that names its template is read on its own and
	// pointed back at the template.
	var rendered []inventory.Fragment
	plain := manifests[:0:0]
	seen := map[string]map[string]int{} // per template, the objects of each kind located so far
	for _, d := range manifests {
		if source := helm.SourceOf(d); source != "" {
			f := kubernetes.LoadDocuments(source, []*yaml.Node{d}, nil, opts.kubernetes())
			if seen[source] == nil {
				seen[source] = map[string]int{}
			}
			opts.locator.RelocateCounting(&f, source, seen[source])
			f.EachObject(func(o *inventory.Object) { o.ReadFrom = file })
			rendered = append(rendered, f)
			continue
		}
		plain = append(plain, d)
	}
	frag := kubernetes.LoadDocuments(file, plain, err, opts.kubernetes())
	for _, r := range rendered {
		frag.Append(r)
	}
	for _, t := range templates {
		frag.Documents += t.Documents
		frag.NodeGroups = append(frag.NodeGroups, t.NodeGroups...)
		frag.Errors = append(frag.Errors, t.Errors...)
	}
	return frag
}

func failed(file, msg string) inventory.Fragment {
	return inventory.Fragment{File: file, Errors: []inventory.LoadError{{Position: inventory.Position{File: file}, Message: msg}}}
}

func excluded(path string, globs []string) bool {
	p := filepath.ToSlash(filepath.Clean(path))
	for _, g := range globs {
		if m, _ := doublestar.Match(filepath.ToSlash(filepath.Clean(g)), p); m {
			return true
		}
	}
	return false
}

var objectLines = regexp.MustCompile(`(?m)^\s*(apiVersion|kind):`)

// holdsObject reports whether any document has an apiVersion and a kind.
func holdsObject(docs []*yaml.Node) bool {
	for _, d := range docs {
		if _, _, ok := kubernetes.TypeMeta(d); ok {
			return true
		}
	}
	return false
}

// helmLimitsOf are the budgets of every in-process chart rendering (--helm-chart, charts in
// the tree, helm_release, a kustomization's helmCharts), with the run's YAML budgets.
func helmLimitsOf(opts Options) helm.Limits {
	lim := opts.Helm
	lim.YAML = opts.YAML
	return lim
}

// ownOutput says why a file is one eni-lint wrote (a JSON report, a SARIF log, a baseline),
// or "": a report or baseline left in the tree by an earlier run is no input of the next.
// Only a single top-level mapping with the report's own marker and no kind counts, so a
// manifest cannot hide behind one.
func ownOutput(docs []*yaml.Node) string {
	if len(docs) != 1 {
		return ""
	}
	d := docs[0]
	if d.Kind == yaml.DocumentNode && len(d.Content) == 1 {
		d = d.Content[0]
	}
	if d.Kind != yaml.MappingNode {
		return ""
	}
	value := func(m *yaml.Node, key string) *yaml.Node {
		for i := 0; i+1 < len(m.Content); i += 2 {
			if m.Content[i].Value == key {
				return m.Content[i+1]
			}
		}
		return nil
	}
	if value(d, "kind") != nil || value(d, "apiVersion") != nil {
		return ""
	}
	text := func(n *yaml.Node) string {
		if n == nil || n.Kind != yaml.ScalarNode {
			return ""
		}
		return n.Value
	}
	const not = ": eni-lint's own output, not an input"
	switch v := text(value(d, "schemaVersion")); {
	case strings.HasPrefix(v, "eni-lint.report/"):
		return "an eni-lint JSON report (" + v + ")" + not
	case strings.HasPrefix(v, "eni-lint.audit/"):
		return "an eni-lint audit report (" + v + ")" + not
	}
	if v := text(value(d, "version")); strings.HasPrefix(v, "eni-lint.baseline/") {
		return "an eni-lint baseline (" + v + ")" + not
	}
	if runs := value(d, "runs"); runs != nil && runs.Kind == yaml.SequenceNode && len(runs.Content) > 0 && text(value(d, "version")) == "2.1.0" {
		first := runs.Content[0]
		if first.Kind == yaml.MappingNode {
			if tool := value(first, "tool"); tool != nil && tool.Kind == yaml.MappingNode {
				if driver := value(tool, "driver"); driver != nil && driver.Kind == yaml.MappingNode && text(value(driver, "name")) == "eni-lint" {
					return "an eni-lint SARIF log" + not
				}
			}
		}
	}
	return ""
}
