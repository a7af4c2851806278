// Package confine is the only way eni-lint reads and writes files. A pull request is
// untrusted, so the run draws one boundary and keeps every read inside it:
//
//   - the repository the run is in: the git work tree that holds the working folder (the
//     nearest folder up from it with a .git entry), or the working folder when there is none;
//   - every path the command line names: a folder named is a root, a file named is readable.
//
// Files are opened through an os.Root of the repository or of a named path, so a symbolic link
// is followed only while it stays inside the boundary (loops are reported); one that leaves it,
// a named pipe, a device or a socket is refused with an error that says which, and no file is
// read past the size budget. The scanned paths decide what is reported on, not what may be read.
//
// Writes go through Write (write.go): no link or special file at any component inside the
// repository, new files created exclusively, existing ones replaced atomically, and a file that
// changed since it was read left alone.
package confine

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// DefaultMaxFileSize is the size budget of one input file (--max-file-size).
const DefaultMaxFileSize = 10 << 20

// OutsideError is a path, or a link on the way to it, that leads outside the boundary: the
// repository and the paths the command line names.
type OutsideError struct {
	Path   string
	Target string // where the link points, when known
}

func (e *OutsideError) Error() string {
	if e.Target != "" {
		return fmt.Sprintf("%s leads outside the repository (to %s): not read", e.Path, e.Target)
	}
	return fmt.Sprintf("%s is outside the repository and the paths named on the command line: not read", e.Path)
}

// NotRegularError is a named pipe, device, socket or other file that is not a regular file:
// reading one could block forever or never end.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file: not read", e.Path, describeMode(e.Mode))
}

// TooLargeError is a file over the size budget.
type TooLargeError struct {
	Path  string
	Size  int64 // -1 when the size was only found by reading
	Limit int64
}

func (e *TooLargeError) Error() string {
	if e.Size >= 0 {
		return fmt.Sprintf("%s has %d bytes, more than the %d-byte budget (--max-file-size): not read", e.Path, e.Size, e.Limit)
	}
	return fmt.Sprintf("%s has more than the %d-byte budget (--max-file-size): not read", e.Path, e.Limit)
}

func describeMode(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m.IsDir():
		return "a folder"
	default:
		return "not a regular file (" + m.Type().String() + ")"
	}
}

type root struct {
	abs  string
	root *os.Root
}

// FS reads files inside the boundary: the repository and the paths named. It is safe for
// concurrent use.
type FS struct {
	mu  sync.Mutex
	cwd string
	// repo is the repository (see Repository), opened once (nil when it cannot be opened):
	// every path lexically inside it is read through it, so a link is followed wherever it
	// leads inside the repository and refused where it leaves it, whichever folder was scanned.
	repo  *root
	roots []*root          // folders named outside the repository, longest path first
	files map[string]*root // files named outside the repository: absolute path → their folder
	// maxFileSize is the size budget of one file.
	maxFileSize int64
	// overlay holds contents read instead of the disk's, by absolute path (SetOverlay).
	overlay map[string][]byte
}

// Repository is the folder a run in dir may read: the git work tree that holds dir (the
// nearest folder up from it that has a .git entry, a folder or a worktree's file), or dir
// itself when there is none. git is not run: the answer depends on the folders alone.
func Repository(dir string) string {
	if tree, ok := WorkTree(dir); ok {
		return tree
	}
	return filepath.Clean(dir)
}

// WorkTree is the git work tree that holds dir (the nearest folder up from it with a .git
// entry), and whether there is one. git is not run.
func WorkTree(dir string) (string, bool) {
	dir = filepath.Clean(dir)
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d, true
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", false
		}
		d = parent
	}
}

// SetOverlay makes the file system read these contents (by absolute, clean path) instead of
// the disk's: `eni-lint fix` checks its changes in memory before it writes any. A path the
// disk does not have is a new file of its folder. Confinement is unchanged: an overlay path
// outside the boundary is refused like any other.
func (f *FS) SetOverlay(files map[string][]byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.overlay = files
}

func (f *FS) overlaid(p string) ([]byte, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	data, ok := f.overlay[f.Abs(p)]
	return data, ok
}

// overlayInfo describes a file of the overlay.
type overlayInfo struct {
	name string
	size int64
}

func (i overlayInfo) Name() string       { return i.name }
func (i overlayInfo) Size() int64        { return i.size }
func (i overlayInfo) Mode() fs.FileMode  { return 0o644 }
func (i overlayInfo) ModTime() time.Time { return time.Time{} }
func (i overlayInfo) IsDir() bool        { return false }
func (i overlayInfo) Sys() any           { return nil }

// New makes a file system confined to the repository that holds cwd (the working folder; ""
// for the process's); maxFileSize 0 means DefaultMaxFileSize. Paths named on the command line
// outside the repository are added with AddPath.
func New(cwd string, maxFileSize int64) (*FS, error) {
	if maxFileSize <= 0 {
		maxFileSize = DefaultMaxFileSize
	}
	if cwd == "" {
		var err error
		if cwd, err = os.Getwd(); err != nil {
			return nil, err
		}
	}
	cwd, err := filepath.Abs(cwd)
	if err != nil {
		return nil, err
	}
	f := &FS{cwd: filepath.Clean(cwd), maxFileSize: maxFileSize, files: map[string]*root{}}
	repo := Repository(f.cwd)
	if r, err := os.OpenRoot(repo); err == nil {
		f.repo = &root{abs: repo, root: r}
	}
	return f, nil
}

// MaxFileSize is the size budget of one file.
func (f *FS) MaxFileSize() int64 { return f.maxFileSize }

// RepositoryFolder is the repository the reads are confined to (see Repository).
func (f *FS) RepositoryFolder() string {
	if f.repo == nil {
		return ""
	}
	return f.repo.abs
}

// Abs returns a path as an absolute, clean path (relative paths are relative to cwd).
func (f *FS) Abs(p string) string {
	if !filepath.IsAbs(p) {
		p = filepath.Join(f.cwd, p)
	}
	return filepath.Clean(p)
}

// Within reports whether path is dir or below it, lexically.
func Within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// Under says whether path p is folder dir or inside it, both as the command line or a walk
// gives them: relative ones are taken from the current folder. It reads nothing.
func Under(p, dir string) bool {
	ap, err1 := filepath.Abs(p)
	ad, err2 := filepath.Abs(dir)
	return err1 == nil && err2 == nil && Within(ad, ap)
}

// inRepo reports whether abs is lexically inside the repository, and its path from there.
func (f *FS) inRepo(abs string) (string, bool) {
	if f.repo == nil || !Within(f.repo.abs, abs) {
		return "", false
	}
	rel, _ := filepath.Rel(f.repo.abs, abs)
	return rel, true
}

// AddRoot makes a folder the command line names readable. One inside the repository is read
// through the repository, and must resolve inside it (a named folder that is a link out of it
// is refused: the pull request wrote that link); one outside it was named by whoever runs
// eni-lint and becomes a root of its own, taken as it is.
func (f *FS) AddRoot(dir string) error {
	abs := f.Abs(dir)
	if rel, ok := f.inRepo(abs); ok {
		info, err := f.repo.root.Stat(rel)
		if err != nil {
			return classify(dir, abs, err)
		}
		if !info.IsDir() {
			return fmt.Errorf("%s is not a folder", dir)
		}
		return nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, r := range f.roots {
		if r.abs == abs {
			return nil
		}
	}
	r, err := os.OpenRoot(abs)
	if err != nil {
		return err
	}
	f.roots = append(f.roots, &root{abs: abs, root: r})
	sort.SliceStable(f.roots, func(i, j int) bool { return len(f.roots[i].abs) > len(f.roots[j].abs) })
	return nil
}

// AddPath makes a path the command line names readable: a folder (or a link to one) becomes a
// root, a file becomes readable (that file alone, when it is outside the repository). isDir
// says which it was.
func (f *FS) AddPath(p string) (isDir bool, err error) {
	abs := f.Abs(p)
	if rel, ok := f.inRepo(abs); ok {
		info, err := f.repo.root.Stat(rel)
		if err != nil {
			return false, classify(p, abs, err)
		}
		return info.IsDir(), nil
	}
	info, err := os.Stat(abs)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			// Its folder still confines it: reading it then says the file is missing, not
			// that it is outside.
			f.addFile(abs)
		}
		return false, err
	}
	if info.IsDir() {
		return true, f.AddRoot(p)
	}
	return false, f.addFile(abs)
}

// addFile makes one file outside the repository readable, through the root of its folder.
func (f *FS) addFile(abs string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.files[abs]; ok {
		return nil
	}
	r, err := os.OpenRoot(filepath.Dir(abs))
	if err != nil {
		return err
	}
	f.files[abs] = &root{abs: filepath.Dir(abs), root: r}
	return nil
}

// AddRootFor makes a file named on the command line or in the config readable (AddPath).
func (f *FS) AddRootFor(file string) error {
	_, err := f.AddPath(file)
	return err
}

// Close releases the roots.
func (f *FS) Close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, r := range f.roots {
		r.root.Close()
	}
	f.roots = nil
	for _, r := range f.files {
		r.root.Close()
	}
	f.files = nil
	if f.repo != nil {
		f.repo.root.Close()
		f.repo = nil
	}
}

// locate finds the root a path is read through, and the path relative to it: the repository,
// a named file, or the longest named folder that holds it.
func (f *FS) locate(p string) (*root, string, error) {
	abs := f.Abs(p)
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.repo != nil && Within(f.repo.abs, abs) {
		rel, _ := filepath.Rel(f.repo.abs, abs)
		return f.repo, rel, nil
	}
	if r, ok := f.files[abs]; ok {
		return r, filepath.Base(abs), nil
	}
	for _, r := range f.roots {
		if Within(r.abs, abs) {
			rel, _ := filepath.Rel(r.abs, abs)
			return r, rel, nil
		}
	}
	return nil, "", &OutsideError{Path: p}
}

// isEscape reports whether an os.Root error says a path or link leaves the root.
func isEscape(err error) bool {
	return err != nil && strings.Contains(err.Error(), "escapes from parent")
}

func linkTarget(abs string) string {
	if t, err := filepath.EvalSymlinks(abs); err == nil {
		return t
	}
	if t, err := os.Readlink(abs); err == nil {
		return t
	}
	return ""
}

// classify turns an os.Root error into the error eni-lint reports.
func classify(p, abs string, err error) error {
	if isEscape(err) {
		return &OutsideError{Path: p, Target: linkTarget(abs)}
	}
	return err
}

// Stat returns a file's information, links followed (inside the roots only).
func (f *FS) Stat(p string) (fs.FileInfo, error) {
	_, _, info, err := f.stat(p, true)
	return info, err
}

// Lstat returns a file's information without following a final link.
func (f *FS) Lstat(p string) (fs.FileInfo, error) {
	_, _, info, err := f.stat(p, false)
	return info, err
}

// stat finds the root of p and stats p in it.
func (f *FS) stat(p string, follow bool) (*root, string, fs.FileInfo, error) {
	r, rel, err := f.locate(p)
	if err != nil {
		return nil, "", nil, err
	}
	if data, ok := f.overlaid(p); ok {
		return r, rel, overlayInfo{name: filepath.Base(p), size: int64(len(data))}, nil
	}
	var info fs.FileInfo
	if follow {
		info, err = r.root.Stat(rel)
	} else {
		info, err = r.root.Lstat(rel)
	}
	if err != nil {
		return nil, "", nil, classify(p, f.Abs(p), err)
	}
	return r, rel, info, nil
}

// IsDir reports whether p is a folder inside the roots.
func (f *FS) IsDir(p string) bool {
	info, err := f.Stat(p)
	return err == nil && info.IsDir()
}

// IsFile reports whether p is a regular file inside the roots.
func (f *FS) IsFile(p string) bool {
	info, err := f.Stat(p)
	return err == nil && info.Mode().IsRegular()
}

// ReadFile reads a regular file inside the roots, within the size budget.
func (f *FS) ReadFile(p string) ([]byte, error) {
	r, rel, info, err := f.stat(p, true)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, &NotRegularError{Path: p, Mode: info.Mode()}
	}
	if info.Size() > f.maxFileSize {
		return nil, &TooLargeError{Path: p, Size: info.Size(), Limit: f.maxFileSize}
	}
	if data, ok := f.overlaid(p); ok {
		return bytes.Clone(data), nil
	}
	// Non-blocking, so that a file replaced by a named pipe between the two looks cannot
	// block the open; the descriptor is checked again below.
	file, err := r.root.OpenFile(rel, os.O_RDONLY|openNonBlock, 0)
	if err != nil {
		return nil, classify(p, f.Abs(p), err)
	}
	defer file.Close()
	if info, err := file.Stat(); err != nil {
		return nil, err
	} else if !info.Mode().IsRegular() {
		return nil, &NotRegularError{Path: p, Mode: info.Mode()}
	}
	data, err := io.ReadAll(io.LimitReader(file, f.maxFileSize+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > f.maxFileSize {
		return nil, &TooLargeError{Path: p, Size: -1, Limit: f.maxFileSize}
	}
	return data, nil
}

// Open opens a regular file inside the roots for streaming, for inputs too large to read at
// once (cluster snapshots). The reader fails with a TooLargeError past limit bytes (0:
// the file budget); the caller closes it.
func (f *FS) Open(p string, limit int64) (io.ReadCloser, error) {
	if limit <= 0 {
		limit = f.maxFileSize
	}
	r, rel, info, err := f.stat(p, true)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, &NotRegularError{Path: p, Mode: info.Mode()}
	}
	if info.Size() > limit {
		return nil, &TooLargeError{Path: p, Size: info.Size(), Limit: limit}
	}
	if data, ok := f.overlaid(p); ok {
		return io.NopCloser(bytes.NewReader(data)), nil
	}
	file, err := r.root.OpenFile(rel, os.O_RDONLY|openNonBlock, 0)
	if err != nil {
		return nil, classify(p, f.Abs(p), err)
	}
	if info, err := file.Stat(); err != nil {
		file.Close()
		return nil, err
	} else if !info.Mode().IsRegular() {
		file.Close()
		return nil, &NotRegularError{Path: p, Mode: info.Mode()}
	}
	return &limitedFile{file: file, path: p, left: limit, limit: limit}, nil
}

// limitedFile stops a file that grows past its budget while it is read.
type limitedFile struct {
	file        *os.File
	path        string
	left, limit int64
}

func (l *limitedFile) Read(b []byte) (int, error) {
	if l.left <= 0 {
		var probe [1]byte // exactly at the budget is fine; one byte more is not
		if n, err := l.file.Read(probe[:]); n == 0 {
			return 0, err
		}
		return 0, &TooLargeError{Path: l.path, Size: -1, Limit: l.limit}
	}
	if int64(len(b)) > l.left {
		b = b[:l.left]
	}
	n, err := l.file.Read(b)
	l.left -= int64(n)
	return n, err
}

func (l *limitedFile) Close() error { return l.file.Close() }

// ReadDir lists a folder inside the roots, sorted by name.
func (f *FS) ReadDir(p string) ([]fs.DirEntry, error) {
	r, rel, info, err := f.stat(p, true)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("%s is not a folder", p)
	}
	d, err := r.root.Open(rel)
	if err != nil {
		return nil, classify(p, f.Abs(p), err)
	}
	defer d.Close()
	entries, err := d.ReadDir(-1)
	entries = append(entries, f.overlayEntries(f.Abs(p), entries)...)
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	return entries, err
}

// overlayEntries are the overlay's new files in folder dir (absolute), missing from entries.
func (f *FS) overlayEntries(dir string, entries []fs.DirEntry) []fs.DirEntry {
	f.mu.Lock()
	defer f.mu.Unlock()
	have := map[string]bool{}
	for _, e := range entries {
		have[e.Name()] = true
	}
	var out []fs.DirEntry
	for p, data := range f.overlay {
		if filepath.Dir(p) == dir && !have[filepath.Base(p)] {
			out = append(out, fs.FileInfoToDirEntry(overlayInfo{name: filepath.Base(p), size: int64(len(data))}))
		}
	}
	return out
}

// RealPath is where a path inside the roots really is, links resolved; it names a file once
// whatever links lead to it.
func (f *FS) RealPath(p string) (string, error) {
	if _, err := f.Stat(p); err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(f.Abs(p))
	if _, new := f.overlaid(p); err != nil && new {
		// A new file of the overlay: its folder is real, the file is not on disk yet.
		if dir, derr := filepath.EvalSymlinks(filepath.Dir(f.Abs(p))); derr == nil {
			return filepath.Join(dir, filepath.Base(p)), nil
		}
	}
	if err != nil {
		return "", err
	}
	return real, nil
}

// Skip is an entry a walk did not read, and why.
type Skip struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// WalkFunc is called for each folder and regular file a walk reaches, in lexical order, with
// the path as walked. Returning fs.SkipDir for a folder skips it.
type WalkFunc func(path string, isDir bool) error

// Walk visits start and everything below it. Links that stay inside the roots are followed,
// each folder and file once (a link to a folder already walked, or to one of its own parents,
// is a loop and is skipped); links that leave, named pipes, devices and sockets are skipped
// and reported to skip.
func (f *FS) Walk(start string, visit WalkFunc, skip func(Skip)) error {
	info, err := f.Stat(start)
	if err != nil {
		return err
	}
	if !info.IsDir() {
		return visit(start, false)
	}
	real, err := f.RealPath(start)
	if err != nil {
		return err
	}
	return f.walkDir(start, real, visit, skip, map[string]string{})
}

// walkDir walks dir, whose links are resolved in real. An entry that is not a link is at
// real/name, so only links cost a resolution: the walk stays one stat per link, not per file.
func (f *FS) walkDir(dir, real string, visit WalkFunc, skip func(Skip), seen map[string]string) error {
	if first, ok := seen[real]; ok {
		skip(Skip{Path: dir, Reason: "a link to " + first + ", which is walked already (or a link loop): not walked again"})
		return nil
	}
	seen[real] = dir
	if err := visit(dir, true); err != nil {
		if errors.Is(err, fs.SkipDir) {
			return nil
		}
		return err
	}
	entries, err := f.ReadDir(dir)
	if err != nil {
		skip(Skip{Path: dir, Reason: plain(err)})
		return nil
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		mode := e.Type()
		realP := filepath.Join(real, e.Name())
		if mode&fs.ModeSymlink != 0 {
			info, err := f.Stat(p)
			if err == nil {
				realP, err = f.RealPath(p)
			}
			if err != nil {
				skip(Skip{Path: p, Reason: plain(err)})
				continue
			}
			mode = info.Mode().Type()
		}
		switch {
		case mode.IsDir():
			if err := f.walkDir(p, realP, visit, skip, seen); err != nil {
				return err
			}
		case mode.IsRegular():
			if first, ok := seen[realP]; ok {
				skip(Skip{Path: p, Reason: "the same file as " + first + ": read once"})
				continue
			}
			seen[realP] = p
			if err := visit(p, false); err != nil && !errors.Is(err, fs.SkipDir) {
				return err
			}
		default:
			skip(Skip{Path: p, Reason: describeMode(mode) + ", not a regular file: not read"})
		}
	}
	return nil
}

// Reason is an error's message without the path, for a skipped entry or a located error.
func Reason(err error) string { return plain(err) }

// plain is an error's message without the path it is about, which the report names already.
func plain(err error) string {
	var oe *OutsideError
	if errors.As(err, &oe) {
		if oe.Target != "" {
			return "leads outside the repository (to " + oe.Target + "): not read"
		}
		return "outside the repository and the paths named on the command line: not read"
	}
	var nr *NotRegularError
	if errors.As(err, &nr) {
		return describeMode(nr.Mode) + ", not a regular file: not read"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// Open makes a file system confined to roots, with the default size budget.
func Open(roots ...string) (*FS, error) {
	f, err := New("", 0)
	if err != nil {
		return nil, err
	}
	for _, r := range roots {
		if err := f.AddRoot(r); err != nil {
			f.Close()
			return nil, err
		}
	}
	return f, nil
}

// ReadFileAt reads one file named on the command line or in the config, confined as
// AddRootFor says: to the working folder when the file is below it, else to its own folder.
func ReadFileAt(path string, maxFileSize int64) ([]byte, error) {
	f, err := New("", maxFileSize)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if err := f.AddRootFor(path); err != nil {
		return nil, err
	}
	return f.ReadFile(path)
}

// Folders lists the folders below start, down to depth levels, nearer first and in lexical
// order within a level, at most limit of them (complete reports whether all were listed; when
// the limit cuts, those kept are the first a depth-first walk meets); a
// folder skip names is neither listed nor entered. Each folder is opened once, through the
// os.Root of its parent, so a listing costs one open and one read per folder (looking each
// folder up from the repository again costs a walk of its path each time). Links are not
// followed.
func (f *FS) Folders(start string, depth, limit int, skip func(name string) bool) (folders []string, complete bool) {
	r, rel, err := f.locate(start)
	if err != nil {
		return nil, true
	}
	top, err := r.root.OpenRoot(rel)
	if err != nil {
		return nil, true
	}
	type found struct {
		path  string
		level int
	}
	var all []found
	complete = true
	var walk func(dir *os.Root, path string, level int)
	walk = func(dir *os.Root, path string, level int) {
		if level >= depth || !complete {
			return
		}
		d, err := dir.Open(".")
		if err != nil {
			return
		}
		entries, _ := d.ReadDir(-1)
		d.Close()
		sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
		for _, e := range entries {
			if !e.IsDir() || skip != nil && skip(e.Name()) {
				continue
			}
			if len(all) >= limit {
				complete = false
				return
			}
			p := filepath.Join(path, e.Name())
			all = append(all, found{p, level + 1})
			if level+1 < depth {
				if sub, err := dir.OpenRoot(e.Name()); err == nil {
					walk(sub, p, level+1)
					sub.Close()
				}
			}
		}
	}
	walk(top, start, 0)
	top.Close()
	sort.SliceStable(all, func(i, j int) bool { return all[i].level < all[j].level })
	folders = make([]string, len(all))
	for i, x := range all {
		folders[i] = x.path
	}
	return folders, complete
}
