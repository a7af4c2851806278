package fix

import (
	"maps"
	"path/filepath"
	"slices"
)

// Workspace is the files as the fixes so far leave them, in memory: what the check reads
// again (as its overlay) and what is written at the end.
type Workspace struct {
	read func(path string) ([]byte, error)
	// files are the changed and new files, by absolute path.
	files map[string][]byte
	// originals are the files' contents before any fix (nil for a new file).
	originals map[string][]byte
}

// NewWorkspace reads files with read (the run's confined file system).
func NewWorkspace(read func(path string) ([]byte, error)) *Workspace {
	return &Workspace{read: read, files: map[string][]byte{}, originals: map[string][]byte{}}
}

func abs(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return filepath.Clean(p)
}

// Read is a file's current contents.
func (w *Workspace) Read(p string) ([]byte, error) {
	if data, ok := w.files[abs(p)]; ok {
		return data, nil
	}
	return w.read(p)
}

// Exists says whether a file is there, changed, new or on disk.
func (w *Workspace) Exists(p string) bool {
	_, err := w.Read(p)
	return err == nil
}

// Write replaces a file's contents (or makes a new file).
func (w *Workspace) Write(p string, data []byte) {
	a := abs(p)
	if _, seen := w.originals[a]; !seen {
		if old, err := w.read(p); err == nil {
			w.originals[a] = old
		} else {
			w.originals[a] = nil
		}
	}
	w.files[a] = data
}

// Clone is a copy to try more changes on.
func (w *Workspace) Clone() *Workspace {
	return &Workspace{read: w.read, files: maps.Clone(w.files), originals: maps.Clone(w.originals)}
}

// Overlay is what the check reads instead of the disk.
func (w *Workspace) Overlay() map[string][]byte { return maps.Clone(w.files) }

// Changed lists the files whose contents differ from the disk's, sorted.
func (w *Workspace) Changed() []string {
	var out []string
	for p, data := range w.files {
		if old := w.originals[p]; old == nil || string(old) != string(data) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// Original and Current are a changed file's contents before and after (nil: no such file).
func (w *Workspace) Original(p string) []byte { return w.originals[p] }
func (w *Workspace) Current(p string) []byte  { return w.files[p] }
