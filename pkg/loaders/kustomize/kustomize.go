// Package kustomize builds kustomizations in-process with sigs.k8s.io/kustomize/api, as
// `kustomize build` would (namespaces, name prefixes and labels applied), and points every
// object back at the resource file it came from: kustomize's origin annotation names the file,
// and the object's fields keep their lines in that file where the build did not add them.
package kustomize

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/eni-lint/eni-lint/internal/fanout"
	"github.com/eni-lint/eni-lint/pkg/confine"
	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/loaders/helm"
	"github.com/eni-lint/eni-lint/pkg/loaders/kubernetes"
)

// FileNames are the names kustomize looks for in a folder.
var FileNames = []string{"kustomization.yaml", "kustomization.yml", "Kustomization"}

// IsKustomization says whether a folder holds a kustomization.
func IsKustomization(fsys *confine.FS, dir string) bool {
	return kustomizationFile(fsys, dir) != ""
}

func kustomizationFile(fsys *confine.FS, dir string) string {
	for _, n := range FileNames {
		p := filepath.Join(dir, n)
		if fsys.IsFile(p) {
			return p
		}
	}
	return ""
}

// MaxObjects bounds the objects one kustomization may build. kustomize's build time grows
// with the square of its objects (measured on 2 cores: 2,000 Jobs in one base take 8 s, 4,000
// take 32 s), so a build is refused before it starts when its files hold more.
const MaxObjects = 5000

// Load builds the kustomizations among dirs that no other one uses as a base or resource,
// one fragment each. Nothing remote is fetched: a kustomization that names a remote resource
// or base anywhere in its tree is not built, and the error names the reference.
func Load(fsys *confine.FS, dirs []string, opts kubernetes.Options, helmLimits helm.Limits) []inventory.Fragment {
	ks := newKustomizations(fsys)
	used := map[string][]string{}
	for _, dir := range dirs {
		k, _ := ks.get(dir)
		for _, ref := range k.local() {
			sub := filepath.Clean(filepath.Join(dir, ref))
			used[filepath.Clean(dir)] = append(used[filepath.Clean(dir)], sub)
		}
	}
	isUsed := map[string]bool{}
	for _, subs := range used {
		for _, s := range subs {
			isUsed[s] = true
		}
	}
	sort.Strings(dirs)
	reached := map[string]bool{}
	var reach func(d string)
	reach = func(d string) {
		if reached[d] {
			return
		}
		reached[d] = true
		for _, s := range used[d] {
			reach(s)
		}
	}
	var roots []string
	for _, dir := range dirs {
		if !isUsed[filepath.Clean(dir)] {
			reach(filepath.Clean(dir))
			roots = append(roots, dir)
		}
	}
	// Kustomizations that use each other in a circle are no one's base: build them anyway, so
	// that the cycle is reported instead of the folder vanishing.
	for _, dir := range dirs {
		if !reached[filepath.Clean(dir)] {
			reach(filepath.Clean(dir))
			roots = append(roots, dir)
		}
	}
	// The builds are independent (each reads through the confined file system and returns its
	// fragment): one worker per core, the fragments in the roots' order. Building overlay after
	// overlay was most of what reading aws-samples/eks-workshop-v2 took.
	out := make([]inventory.Fragment, len(roots))
	fanout.Each(len(roots), 0, func(i int) { out[i] = build(ks, roots[i], opts, helmLimits) })
	return out
}

// confinedFS is kustomize's view of the disk: every read goes through the run's confined file
// system, nothing is written, and the root kustomization asks for origin annotations, so that
// each built object names the file it came from.
type confinedFS struct {
	fsys *confine.FS
	root string
	// virtual are files the build reads instead of the disk's (absolute paths): kustomizations
	// without their helmCharts, and the templates those charts rendered to.
	virtual map[string][]byte
	// read records the files the build read (absolute paths), so that a folder's files the
	// kustomization does not list can be named.
	read map[string]bool
}

var errReadOnly = errors.New("eni-lint does not write files")

func (f confinedFS) Create(string) (filesys.File, error) { return nil, errReadOnly }
func (f confinedFS) Mkdir(string) error                  { return errReadOnly }
func (f confinedFS) MkdirAll(string) error               { return errReadOnly }
func (f confinedFS) RemoveAll(string) error              { return errReadOnly }
func (f confinedFS) WriteFile(string, []byte) error      { return errReadOnly }
func (f confinedFS) IsDir(p string) bool                 { return f.fsys.IsDir(p) }

func (f confinedFS) Exists(p string) bool {
	_, err := f.fsys.Stat(p)
	return err == nil
}

func (f confinedFS) Open(p string) (filesys.File, error) {
	data, err := f.ReadFile(p)
	if err != nil {
		return nil, err
	}
	info, err := f.fsys.Stat(p)
	if err != nil {
		return nil, err
	}
	return &memFile{Reader: bytes.NewReader(data), info: info}, nil
}

func (f confinedFS) ReadDir(p string) ([]string, error) {
	entries, err := f.fsys.ReadDir(p)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.Name()
	}
	return names, nil
}

// CleanedAbs splits a path into its folder and file the way kustomize's disk does, without
// resolving links (the confined file system resolves them, inside the roots only).
func (f confinedFS) CleanedAbs(p string) (filesys.ConfirmedDir, string, error) {
	abs := f.fsys.Abs(p)
	info, err := f.fsys.Stat(abs)
	if err != nil {
		return "", "", err
	}
	if info.IsDir() {
		return filesys.ConfirmedDir(abs), "", nil
	}
	return filesys.ConfirmedDir(filepath.Dir(abs)), filepath.Base(abs), nil
}

func (f confinedFS) Glob(pattern string) ([]string, error) {
	matches, err := filepath.Glob(f.fsys.Abs(pattern))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, m := range matches {
		if _, err := f.fsys.Stat(m); err == nil {
			out = append(out, m)
		}
	}
	return out, nil
}

func (f confinedFS) Walk(p string, fn filepath.WalkFunc) error {
	return f.fsys.Walk(p, func(path string, isDir bool) error {
		info, err := f.fsys.Stat(path)
		return fn(path, info, err)
	}, func(confine.Skip) {})
}

func (f confinedFS) ReadFile(name string) ([]byte, error) {
	data, err := f.fsys.ReadFile(name)
	if v, ok := f.virtual[filepath.Clean(f.fsys.Abs(name))]; ok {
		data, err = v, nil
	}
	if err == nil && f.read != nil {
		f.read[filepath.Clean(f.fsys.Abs(name))] = true
	}
	if err != nil || filepath.Clean(filepath.Dir(f.fsys.Abs(name))) != filepath.Clean(f.root) {
		return data, err
	}
	base := filepath.Base(name)
	for _, n := range FileNames {
		if base == n && !strings.Contains(string(data), "buildMetadata") {
			return append(append(data, '\n'), []byte("buildMetadata: [originAnnotations]\n")...), nil
		}
	}
	return data, nil
}

// memFile is a file read whole into memory.
type memFile struct {
	*bytes.Reader
	info fs.FileInfo
}

func (m *memFile) Write([]byte) (int, error)  { return 0, errReadOnly }
func (m *memFile) Close() error               { return nil }
func (m *memFile) Stat() (os.FileInfo, error) { return m.info, nil }

func build(ks *kustomizations, dir string, opts kubernetes.Options, helmLimits helm.Limits) (frag inventory.Fragment) {
	fsys := ks.fsys
	file := kustomizationFile(fsys, dir)
	frag = inventory.Fragment{File: file}
	defer func() {
		if r := recover(); r != nil {
			frag.Errors = append(frag.Errors, inventory.LoadError{Position: inventory.Position{File: file}, Message: fmt.Sprintf("kustomize build failed: %v", r)})
		}
	}()
	if problems := checkTree(ks, dir); len(problems) > 0 {
		frag.Errors = append(frag.Errors, problems...)
		return frag
	}
	if objectEstimate(ks, dir, map[string]int{}) > MaxObjects {
		frag.Errors = append(frag.Errors, inventory.LoadError{Position: inventory.Position{File: file}, Message: fmt.Sprintf(
			"the build would read more than %d objects (counted by apiVersion in its files; a budget): kustomize's build time grows with the square of the objects; not built. Build it outside and pipe it in: kustomize build %s | eni-lint check -",
			MaxObjects, dir)})
		return frag
	}
	abs := fsys.Abs(dir)
	virtual, rendered, read, ok := inflateTree(ks, dir, helmLimits, &frag)
	if !ok {
		return frag
	}
	k := krusty.MakeKustomizer(krusty.MakeDefaultOptions())
	resources, err := k.Run(confinedFS{fsys: fsys, root: abs, virtual: virtual, read: read}, abs)
	if err != nil {
		frag.Errors = append(frag.Errors, inventory.LoadError{Position: inventory.Position{File: file}, Message: "kustomize build: " + err.Error()})
		return frag
	}
	if n := len(resources.Resources()); n > MaxObjects {
		frag.Errors = append(frag.Errors, inventory.LoadError{Position: inventory.Position{File: file}, Message: fmt.Sprintf("the build makes %d objects, more than the budget of %d: not read", n, MaxObjects)})
		return frag
	}
	// Only a build that succeeded says which files its folders hold but do not list.
	for p := range read {
		frag.ReadFiles = append(frag.ReadFiles, p)
	}
	sort.Strings(frag.ReadFiles)
	readBuilt(&frag, resources.Resources(), dir, file, virtual, rendered, fsys, opts)
	return frag
}

// inflateTree renders the Helm charts the kustomizations of dir's tree inflate: the
// kustomization files rewritten without them (virtual), where each rendered file comes from
// (rendered: chart and template), and the values files read. Their objects and errors go into
// frag; false when a kustomization could not be rewritten, and nothing is built.
func inflateTree(ks *kustomizations, dir string, helmLimits helm.Limits, frag *inventory.Fragment) (virtual map[string][]byte, rendered map[string][2]string, read map[string]bool, ok bool) {
	fsys := ks.fsys
	virtual, rendered = map[string][]byte{}, map[string][2]string{}
	read = map[string]bool{} // the files the build reads, for the folder's unlisted files
	for _, d := range treeOf(ks, dir) {
		if k, err := ks.get(d); err != nil || !k.helmCharts {
			continue // read once already (checkTree): only those with charts are read again
		}
		kfile := kustomizationFile(fsys, d)
		data, err := fsys.ReadFile(kfile)
		if err != nil {
			continue
		}
		inf := inflateHelmCharts(fsys, d, kfile, data, helmLimits)
		if inf == nil {
			continue
		}
		for _, f := range inf.frags {
			frag.Append(f)
		}
		if inf.kustomization == nil {
			return nil, nil, nil, false
		}
		virtual[filepath.Clean(fsys.Abs(kfile))] = inf.kustomization
		for p, text := range inf.files {
			virtual[p] = text
			rendered[p] = inf.sources[p]
		}
		for _, p := range inf.valuesFiles {
			read[p] = true
		}
		for _, c := range inf.charts {
			frag.Charts = append(frag.Charts, filepath.Clean(fsys.Abs(c)))
			frag.RenderedCharts = append(frag.RenderedCharts, c)
		}
	}
	return virtual, rendered, read, true
}

// readBuilt reads the build's objects into frag, each located in the file it comes from (its
// origin, else the kustomization): a source file's positions, a rendered template's through
// the Helm locator.
func readBuilt(frag *inventory.Fragment, built []*resource.Resource, dir, file string, virtual map[string][]byte, rendered map[string][2]string, fsys *confine.FS, opts kubernetes.Options) {
	sources := map[string]*originIndex{}
	for _, res := range built {
		src := file // where the object comes from: its origin file, else the kustomization
		if origin, err := res.GetOrigin(); err == nil && origin != nil && origin.Path != "" && origin.Repo == "" {
			src = filepath.Join(dir, origin.Path)
		}
		data, err := res.AsYAML()
		if err != nil {
			continue
		}
		objects := kubernetes.Load(src, data, opts)
		origins, ok := sources[src]
		switch {
		case ok || src == file:
		case rendered[filepath.Clean(fsys.Abs(src))] != [2]string{}:
			// A rendered template: its objects' fields are located in the template by the
			// Helm locator, as for --helm-chart.
			at := rendered[filepath.Clean(fsys.Abs(src))]
			original := kubernetes.Load(at[1], virtual[filepath.Clean(fsys.Abs(src))], opts)
			helm.NewLocator(fsys, at[0]).Relocate(&original, at[1])
			origins = newOriginIndex(&original)
			sources[src] = origins
		default:
			if b, err := fsys.ReadFile(src); err == nil {
				original := kubernetes.Load(src, b, opts)
				origins = newOriginIndex(&original)
			}
			sources[src] = origins
		}
		relocate(&objects, origins, file)
		for i := range objects.Workloads {
			objects.Workloads[i].BuiltBy = file
		}
		frag.Append(objects)
	}
}

// relocate gives the built object's fields the positions they have in the source file;
// fields the build added point at the source document, or at the kustomization when the
// source is unknown (origins is nil).
func relocate(built *inventory.Fragment, origins *originIndex, kustomization string) {
	fix := func(o *inventory.Object) {
		src := origins.find(o.Kind, o.Name)
		o.Locations.Update(func(path string, _ inventory.Position) inventory.Position {
			switch {
			case src == nil:
				return inventory.Position{File: kustomization} // the source file is not known
			case src.Locations.At(path).Known():
				return src.Locations.At(path)
			default:
				return src.Locations.At("")
			}
		})
		if src != nil {
			o.ID = strings.SplitN(o.ID, "@", 2)[0] + "@" + src.Locations.At("").File + fmt.Sprintf(":%d", src.Locations.At("").Line)
		}
	}
	built.EachObject(fix)
}

// originIndex finds the source object of a built one among the objects of its origin file:
// the one of the same kind whose name the built name contains (a name prefix or suffix may
// have been added), the longest if several do. It is built once per file: a file of
// thousands of objects is matched in linear time, not by scanning the file per object.
type originIndex struct {
	byName map[string]*inventory.Object // kind + "/" + name; the first of a name wins
	byKind map[string][]*inventory.Object
	// affixes are the prefix and suffix the last scanned match of a kind had: a
	// kustomization adds the same ones to every object, so the next lookup is exact.
	affixes map[string][2]string
}

func newOriginIndex(f *inventory.Fragment) *originIndex {
	x := &originIndex{byName: map[string]*inventory.Object{}, byKind: map[string][]*inventory.Object{}, affixes: map[string][2]string{}}
	f.EachObject(func(o *inventory.Object) {
		if _, dup := x.byName[o.Kind+"/"+o.Name]; !dup {
			x.byName[o.Kind+"/"+o.Name] = o
		}
		x.byKind[o.Kind] = append(x.byKind[o.Kind], o)
	})
	return x
}

func (x *originIndex) find(kind, name string) *inventory.Object {
	if x == nil {
		return nil
	}
	if c := x.byName[kind+"/"+name]; c != nil {
		return c
	}
	if a, ok := x.affixes[kind]; ok && len(name) > len(a[0])+len(a[1]) && strings.HasPrefix(name, a[0]) && strings.HasSuffix(name, a[1]) {
		if c := x.byName[kind+"/"+name[len(a[0]):len(name)-len(a[1])]]; c != nil {
			return c
		}
	}
	var src *inventory.Object
	for _, c := range x.byKind[kind] {
		if strings.Contains(name, c.Name) && (src == nil || len(c.Name) > len(src.Name)) {
			src = c
		}
	}
	if src != nil && src.Name != "" {
		i := strings.Index(name, src.Name)
		x.affixes[kind] = [2]string{name[:i], name[i+len(src.Name):]}
	}
	return src
}
