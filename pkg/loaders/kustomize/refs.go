package kustomize

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/eni-lint/eni-lint/pkg/confine"
	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/yamlpos"
)

// kustomization is what eni-lint reads of a kustomization file itself, before kustomize does:
// every string that kustomize may treat as a path or URL, with its position.
type kustomization struct {
	file string
	refs []reference // every string value outside the keys that never hold paths
	dirs []string    // resources, bases and components: what may be another kustomization
	// helmCharts is set when the file has helmCharts, which a build renders in-process.
	helmCharts bool
}

type reference struct {
	value string
	pos   inventory.Position
}

// notPaths are top-level keys whose values are never loaded as files: labels, annotations,
// images, names and inline patches. Every other string in a kustomization is checked, so a
// field kustomize learns to load later is refused rather than fetched.
var notPaths = map[string]bool{
	"apiVersion": true, "kind": true, "metadata": true, "commonLabels": true, "labels": true,
	"commonAnnotations": true, "images": true, "namePrefix": true, "nameSuffix": true,
	"namespace": true, "replicas": true, "vars": true, "generatorOptions": true,
	"buildMetadata": true, "sortOptions": true, "nameReference": true,
	// helmCharts are rendered in-process from vendored charts (helmcharts.go); their repo is
	// never fetched, and their values files are confined below the kustomization there.
	"helmCharts": true, "helmGlobals": true,
}

// notPathsInItems are keys of list items (patches, replacements, generators) whose values are
// inline content or selectors.
var notPathsInItems = map[string]bool{
	"patch": true, "target": true, "options": true, "literals": true, "name": true,
	"namespace": true, "behavior": true, "type": true, "source": true, "targets": true,
	"select": true, "reject": true, "fieldPaths": true, "group": true, "version": true,
	"kind": true, "labelSelector": true, "annotationSelector": true,
}

// kustomizations reads each kustomization file of a load once: Load and the tree check of
// every root share it, so a base used by many overlays is parsed once.
type kustomizations struct {
	fsys *confine.FS
	// mu guards read and fails: the builds of several root kustomizations read them at once.
	mu    sync.Mutex
	read  map[string]kustomization
	fails map[string]error
}

func newKustomizations(fsys *confine.FS) *kustomizations {
	return &kustomizations{fsys: fsys, read: map[string]kustomization{}, fails: map[string]error{}}
}

func (ks *kustomizations) get(dir string) (kustomization, error) {
	abs := ks.fsys.Abs(dir)
	ks.mu.Lock()
	k, ok := ks.read[abs]
	err := ks.fails[abs]
	ks.mu.Unlock()
	if ok {
		return k, err
	}
	// Read outside the lock: two builds that ask for one folder at once both read it, and
	// both get the same answer.
	k, err = readKustomization(ks.fsys, dir)
	ks.mu.Lock()
	ks.read[abs], ks.fails[abs] = k, err
	ks.mu.Unlock()
	return k, err
}

func readKustomization(fsys *confine.FS, dir string) (kustomization, error) {
	k := kustomization{file: kustomizationFile(fsys, dir)}
	if k.file == "" {
		return k, fmt.Errorf("no kustomization file")
	}
	data, err := fsys.ReadFile(k.file)
	if err != nil {
		return k, err
	}
	docs, err := yamlpos.Documents(data)
	if err != nil {
		return k, err
	}
	if len(docs) == 0 || docs[0].Kind != yaml.MappingNode {
		return k, nil
	}
	root := docs[0]
	for i := 0; i+1 < len(root.Content); i += 2 {
		key, val := root.Content[i].Value, yamlpos.Resolve(root.Content[i+1])
		if key == "helmCharts" {
			k.helmCharts = true
		}
		if notPaths[key] {
			continue
		}
		collect(&k, val, 0)
		if key == "resources" || key == "bases" || key == "components" {
			if val != nil && val.Kind == yaml.SequenceNode {
				for _, item := range val.Content {
					if item = yamlpos.Resolve(item); item.Kind == yaml.ScalarNode {
						k.dirs = append(k.dirs, item.Value)
					}
				}
			}
		}
	}
	return k, nil
}

func collect(k *kustomization, n *yaml.Node, depth int) {
	n = yamlpos.Resolve(n)
	if n == nil || depth > 32 {
		return
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Tag == "!!str" && !strings.Contains(n.Value, "\n") { // a string with a newline is an inline patch
			k.refs = append(k.refs, reference{value: n.Value, pos: inventory.Position{File: k.file, Line: n.Line, Column: n.Column}})
		}
	case yaml.SequenceNode:
		for _, c := range n.Content {
			collect(k, c, depth+1)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if !notPathsInItems[n.Content[i].Value] {
				collect(k, n.Content[i+1], depth+1)
			}
		}
	}
}

// position is where an entry of resources, bases or components is written.
func (k kustomization) position(entry string) inventory.Position {
	for _, r := range k.refs {
		if r.value == entry {
			return r.pos
		}
	}
	return inventory.Position{File: k.file}
}

// local lists the resources, bases and components that are local paths.
func (k kustomization) local() []string {
	var out []string
	for _, d := range k.dirs {
		if !Remote(d) {
			out = append(out, d)
		}
	}
	return out
}

var scpUser = regexp.MustCompile(`^[a-z][a-z0-9-]*@`)

// Remote reports whether kustomize would fetch a reference rather than read it from the disk:
// a URL with a scheme, a git address (user@host:repo, github.com/org/repo, repo//path?ref=x).
// It errs on the side of remote: whatever kustomize might clone or download is refused.
func Remote(ref string) bool {
	r := strings.ToLower(strings.TrimSpace(ref))
	r = strings.TrimPrefix(r, "git::")
	switch {
	case strings.Contains(r, "://"), strings.Contains(r, "//"), strings.Contains(r, "?"):
		return true
	case scpUser.MatchString(r):
		return true
	case strings.HasPrefix(r, "github.com/"), strings.HasPrefix(r, "github.com:"), r == "github.com":
		return true
	}
	return false
}

// checkTree reads the kustomization at dir and every local kustomization it uses, and
// returns an error for every remote reference (nothing is fetched) and for a cycle.
func checkTree(ks *kustomizations, dir string) []inventory.LoadError {
	fsys := ks.fsys
	var problems []inventory.LoadError
	state := map[string]int{} // 1 while its bases are read, 2 when done
	// via is the entry (resources, bases or components) that led to dir: a cycle is reported
	// at the entry that closes it.
	var visit func(dir string, depth int, via inventory.Position)
	visit = func(dir string, depth int, via inventory.Position) {
		abs := fsys.Abs(dir)
		switch state[abs] {
		case 1:
			at := via
			if at.File == "" {
				at = inventory.Position{File: kustomizationFile(fsys, dir)}
			}
			problems = append(problems, inventory.LoadError{Position: at,
				Message: fmt.Sprintf("this entry leads back to %s, which uses itself through its resources, bases or components (a cycle): not built", kustomizationFile(fsys, dir))})
			return
		case 2:
			return
		}
		if depth > 64 {
			problems = append(problems, inventory.LoadError{Position: inventory.Position{File: kustomizationFile(fsys, dir)}, Message: "kustomizations nest more than 64 deep: not built"})
			return
		}
		state[abs] = 1
		defer func() { state[abs] = 2 }()
		k, err := ks.get(dir)
		if err != nil {
			problems = append(problems, inventory.LoadError{Position: inventory.Position{File: k.file}, Message: "cannot read the kustomization: " + confine.Reason(err)})
			return
		}
		for _, r := range k.refs {
			if Remote(r.value) {
				problems = append(problems, inventory.LoadError{Position: r.pos,
					Message: fmt.Sprintf("%q is remote: remote resources and bases are not fetched; render them first (kustomize build … | eni-lint check -) or vendor them into the repository", r.value)})
			}
		}
		for _, d := range k.local() {
			sub := filepath.Join(dir, d)
			if IsKustomization(fsys, sub) {
				visit(sub, depth+1, k.position(d))
			}
		}
	}
	visit(dir, 0, inventory.Position{})
	return problems
}

// objectEstimate counts the objects a build of dir reads: the apiVersion keys of its resource
// files (every object has one, items of a List included; nested ones only overcount) and,
// as often as they are used, those of the kustomizations it builds on. It runs after
// checkTree, so there is no cycle; counts stop growing past MaxObjects.
func objectEstimate(ks *kustomizations, dir string, memo map[string]int) int {
	fsys := ks.fsys
	abs := fsys.Abs(dir)
	if n, ok := memo[abs]; ok {
		return n
	}
	memo[abs] = 0
	k, err := ks.get(dir)
	if err != nil {
		return 0
	}
	n := 0
	for _, d := range k.local() {
		if n > MaxObjects {
			break
		}
		sub := filepath.Join(dir, d)
		if IsKustomization(fsys, sub) {
			n += objectEstimate(ks, sub, memo)
		} else if data, err := fsys.ReadFile(sub); err == nil {
			n += bytes.Count(data, []byte("apiVersion"))
		}
	}
	n = min(n, MaxObjects+1)
	memo[abs] = n
	return n
}

// treeOf lists dir and every local kustomization it uses, each once (checkTree has ruled out
// cycles and remote references).
func treeOf(ks *kustomizations, dir string) []string {
	var out []string
	seen := map[string]bool{}
	var visit func(d string, depth int)
	visit = func(d string, depth int) {
		abs := ks.fsys.Abs(d)
		if seen[abs] || depth > 64 {
			return
		}
		seen[abs] = true
		out = append(out, d)
		k, err := ks.get(d)
		if err != nil {
			return
		}
		for _, sub := range k.local() {
			if p := filepath.Join(d, sub); IsKustomization(ks.fsys, p) {
				visit(p, depth+1)
			}
		}
	}
	visit(dir, 0)
	return out
}
