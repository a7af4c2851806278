package yamledit

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/eni-lint/eni-lint/pkg/yamlpos"
	"go.yaml.in/yaml/v3"
)

// TestRoundTripOverTestdata edits every YAML file under testdata/ and checks that the bytes
// around the edit never change: every integer field set to its own value is no edit; set to
// another value and back, the file is byte for byte the original; a key inserted under every
// block mapping adds exactly one line, and the file parses with the new value in place.
func TestRoundTripOverTestdata(t *testing.T) {
	root := filepath.Join("..", "..", "testdata")
	files, edits, inserts := 0, 0, 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		docs, _ := yamlpos.Documents(data)
		files++
		for _, doc := range docs {
			if doc.Kind != yaml.MappingNode {
				continue
			}
			walk(doc, "", func(path string, k, v *yaml.Node) {
				if v.Kind == yaml.ScalarNode && v.Style == 0 && v.Tag == "!!int" {
					n, err := strconv.Atoi(v.Value)
					if err != nil || v.Value != strconv.Itoa(n) {
						return
					}
					if _, changed, err := SetInt(data, doc.Line, path, n); err != nil || changed {
						t.Errorf("%s:%d %s: same value: changed %v, err %v", p, v.Line, path, changed, err)
					}
					e, changed, err := SetInt(data, doc.Line, path, n+1)
					if err != nil || !changed {
						t.Errorf("%s:%d %s: new value: changed %v, err %v", p, v.Line, path, changed, err)
						return
					}
					once := e.Apply(data)
					back, changed, err := SetInt(once, doc.Line, path, n)
					if err != nil || !changed || !bytes.Equal(back.Apply(once), data) {
						t.Errorf("%s:%d %s: setting %d back does not restore the file (err %v)", p, v.Line, path, n, err)
					}
					edits++
				}
				if v.Kind == yaml.MappingNode && v.Style == 0 && len(v.Content) > 0 && v.Line > k.Line && v.Content[0].Column > 1 {
					probe := path + ".eniLintProbe"
					if _, kv := lookup(v, "eniLintProbe"); kv != nil {
						return
					}
					e, changed, err := SetInt(data, doc.Line, probe, 7)
					if err != nil {
						return // a mapping whose first key shares a line (a list item): refused, never rewritten
					}
					out := e.Apply(data)
					if !changed || bytes.Count(out, []byte("\n")) != bytes.Count(data, []byte("\n"))+1 {
						t.Errorf("%s:%d %s: the insertion is not one line", p, k.Line, probe)
					}
					if !bytes.Equal(append(append([]byte{}, out[:e.Start]...), out[e.Start+len(e.Text):]...), data) {
						t.Errorf("%s:%d %s: bytes outside the inserted line changed", p, k.Line, probe)
					}
					if got, ok := valueAt(out, doc.Line, probe); !ok || got != "7" {
						t.Errorf("%s:%d %s: after the insertion the value is %q (found %v)", p, k.Line, probe, got, ok)
					}
					inserts++
				}
			})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d files, %d values, %d insertions", files, edits, inserts)
	if files < 100 || edits < 100 || inserts < 300 {
		t.Errorf("round-tripped %d files, %d values, %d insertions: testdata looks missing", files, edits, inserts)
	}
}

// walk visits every key of a mapping tree with its dotted path; lists are not entered (the
// editor takes map keys only).
func walk(m *yaml.Node, prefix string, visit func(path string, k, v *yaml.Node)) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind != yaml.ScalarNode || strings.Contains(k.Value, ".") || k.Value == "" {
			continue
		}
		if _, first := lookup(m, k.Value); first != v {
			continue // a duplicate key: the editor finds the first
		}
		path := k.Value
		if prefix != "" {
			path = prefix + "." + k.Value
		}
		if prefix != "" {
			visit(path, k, v)
		}
		if v.Kind == yaml.MappingNode {
			walk(v, path, visit)
		}
	}
}

func valueAt(data []byte, docLine int, path string) (string, bool) {
	docs, _ := yamlpos.Documents(data)
	for _, d := range docs {
		if d.Line != docLine {
			continue
		}
		n := d
		for _, key := range strings.Split(path, ".") {
			if n.Kind != yaml.MappingNode {
				return "", false
			}
			if _, n = lookup(n, key); n == nil {
				return "", false
			}
		}
		return n.Value, true
	}
	return "", false
}
