// Package kustomize builds kustomizations in-process with sigs.k8s.io/kustomize/api, as
// `kustomize build` would (namespaces, name prefixes and labels applied), and points every
// object back at the resource file it came from: kustomize's origin annotation names the file,
// and the object's fields keep their lines in that file where the build did not add them.
package kustomize

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/loaders/kubernetes"
)

// FileNames are the names kustomize looks for in a folder.
var FileNames = []string{"kustomization.yaml", "kustomization.yml", "Kustomization"}

// IsKustomization says whether a folder holds a kustomization.
func IsKustomization(dir string) bool {
	return kustomizationFile(dir) != ""
}

func kustomizationFile(dir string) string {
	for _, n := range FileNames {
		p := filepath.Join(dir, n)
		if info, err := os.Stat(p); err == nil && !info.IsDir() {
			return p
		}
	}
	return ""
}

// Load builds the kustomizations among dirs that no other one uses as a base or resource,
// one fragment each.
func Load(dirs []string, opts kubernetes.Options) []inventory.Fragment {
	used := map[string]bool{}
	for _, dir := range dirs {
		for _, ref := range references(dir) {
			used[filepath.Clean(filepath.Join(dir, ref))] = true
		}
	}
	var out []inventory.Fragment
	sort.Strings(dirs)
	for _, dir := range dirs {
		if !used[filepath.Clean(dir)] {
			out = append(out, build(dir, opts))
		}
	}
	return out
}

// references lists the resources, bases and components of a kustomization.
func references(dir string) []string {
	data, err := os.ReadFile(kustomizationFile(dir))
	if err != nil {
		return nil
	}
	var k struct {
		Resources  []string `yaml:"resources"`
		Bases      []string `yaml:"bases"`
		Components []string `yaml:"components"`
	}
	if yaml.Unmarshal(data, &k) != nil {
		return nil
	}
	return append(append(k.Resources, k.Bases...), k.Components...)
}

// originFS is the disk, except that the root kustomization asks for origin annotations, so
// that each built object names the file it came from.
type originFS struct {
	filesys.FileSystem
	root string
}

func (f originFS) ReadFile(name string) ([]byte, error) {
	data, err := f.FileSystem.ReadFile(name)
	if err != nil || filepath.Clean(filepath.Dir(name)) != filepath.Clean(f.root) {
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

func build(dir string, opts kubernetes.Options) (frag inventory.Fragment) {
	file := kustomizationFile(dir)
	frag = inventory.Fragment{File: file}
	defer func() {
		if r := recover(); r != nil {
			frag.Errors = append(frag.Errors, inventory.LoadError{Position: inventory.Position{File: file}, Message: fmt.Sprintf("kustomize build failed: %v", r)})
		}
	}()
	abs, err := filepath.Abs(dir)
	if err != nil {
		frag.Errors = append(frag.Errors, inventory.LoadError{Position: inventory.Position{File: file}, Message: err.Error()})
		return frag
	}
	k := krusty.MakeKustomizer(krusty.MakeDefaultOptions())
	resources, err := k.Run(originFS{FileSystem: filesys.MakeFsOnDisk(), root: abs}, abs)
	if err != nil {
		frag.Errors = append(frag.Errors, inventory.LoadError{Position: inventory.Position{File: file}, Message: "kustomize build: " + err.Error()})
		return frag
	}
	sources := map[string]inventory.Fragment{}
	for _, res := range resources.Resources() {
		src := file // where the object comes from: its origin file, else the kustomization
		if origin, err := res.GetOrigin(); err == nil && origin != nil && origin.Path != "" && origin.Repo == "" {
			src = filepath.Join(dir, origin.Path)
		}
		data, err := res.AsYAML()
		if err != nil {
			continue
		}
		built := kubernetes.Load(src, data, opts)
		original, ok := sources[src]
		if !ok && src != file {
			if b, err := os.ReadFile(src); err == nil {
				original = kubernetes.Load(src, b, opts)
				sources[src] = original
			}
		}
		relocate(&built, &original, file)
		frag.Append(built)
	}
	return frag
}

// relocate gives the built object's fields the positions they have in the source file;
// fields the build added point at the source document, or at the kustomization when the
// source is unknown. The source object is the one of the same kind in the origin file whose
// name the built name contains (a name prefix or suffix may have been added).
func relocate(built, original *inventory.Fragment, kustomization string) {
	var sources []*inventory.Object
	original.EachObject(func(o *inventory.Object) { sources = append(sources, o) })
	fix := func(o *inventory.Object) {
		var src *inventory.Object
		for _, c := range sources {
			if c.Kind == o.Kind && strings.Contains(o.Name, c.Name) && (src == nil || len(c.Name) > len(src.Name)) {
				src = c
			}
		}
		for path := range o.Locations {
			switch {
			case src == nil:
				o.Locations[path] = inventory.Position{File: kustomization} // the source file is not known
			case src.Locations[path].Known():
				o.Locations[path] = src.Locations[path]
			default:
				o.Locations[path] = src.Locations[""]
			}
		}
		if src != nil {
			o.ID = strings.SplitN(o.ID, "@", 2)[0] + "@" + src.Locations[""].File + fmt.Sprintf(":%d", src.Locations[""].Line)
		}
	}
	built.EachObject(fix)
}
