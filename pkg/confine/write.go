package confine

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// This file is the one writer: every file eni-lint writes (fix's edits and new kustomize
// patches, --output reports, --write-baseline, audit outputs, the job summary, the rule pages)
// goes through Write. A pull request can commit links, pipes and folders where eni-lint is
// about to write, so inside the repository no component of the path may be a link or a
// special file: each folder is opened through the os.Root of its parent and compared with
// what Lstat saw (a link swapped in between opens something else, and is refused), the file
// itself is never followed. Outside the repository only the last component is checked: the
// folders there were named by whoever runs eni-lint.

// WriteOptions says what the target is expected to be.
type WriteOptions struct {
	// Original, when not nil, is what the file held when it was read (fix): the write is
	// refused, and nothing is written, when the file holds anything else just before it is
	// replaced (an edit made while eni-lint ran), or when it is gone.
	Original []byte
	// New says the file must not exist yet (a kustomize patch fix adds): it is created
	// exclusively, and a file, link or anything else of that name is refused.
	New bool
	// Append adds to the end of an existing regular file (or creates it): the job summary.
	Append bool
	// Mode is a new file's permission bits (0: 0o644). A replaced file keeps its own.
	Mode fs.FileMode
	// Name is how messages name the file (default: the path as given).
	Name string
}

// RefusedWriteError is a target eni-lint will not write: a link, a special file, a file that
// changed since it was read, or a new file that exists.
type RefusedWriteError struct {
	Path   string
	Reason string
}

func (e *RefusedWriteError) Error() string {
	return fmt.Sprintf("%s: %s: not written", e.Path, e.Reason)
}

// ChangedError is a file that changed on disk after eni-lint read it.
type ChangedError struct{ Path string }

func (e *ChangedError) Error() string {
	return fmt.Sprintf("%s changed on disk since eni-lint read it (an edit made while it ran): not written", e.Path)
}

// PendingWrite is a file prepared in a temporary file beside its target; Commit puts it in
// place, Abort removes it. `eni-lint fix` prepares every file first and commits only when all
// were prepared, so one refused file leaves the others untouched too.
type PendingWrite struct {
	path   string // as given, for messages
	dir    *os.Root
	name   string // the target's name in dir
	tmp    string // the temporary file's name in dir ("" once committed or aborted)
	opts   WriteOptions
	before fs.FileInfo // the target as Lstat saw it (nil when new)
}

// WriteFile writes data to path through the one writer.
func WriteFile(path string, data []byte, o WriteOptions) error {
	return Write(path, o, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// Write writes what fill writes to path through the one writer.
func Write(path string, o WriteOptions, fill func(io.Writer) error) error {
	if o.Append {
		return appendTo(path, o, fill)
	}
	p, err := Prepare(path, o, fill)
	if err != nil {
		return err
	}
	return p.Commit()
}

// Prepare checks path, and writes what fill writes into a temporary file beside it.
func Prepare(path string, o WriteOptions, fill func(io.Writer) error) (*PendingWrite, error) {
	if o.Append {
		return nil, fmt.Errorf("%s: an append is not prepared", path)
	}
	dir, name, err := openParent(path)
	if o.Name != "" {
		path = o.Name
	}
	if err != nil {
		var refused *RefusedWriteError
		if errors.As(err, &refused) {
			refused.Path = path
		}
		return nil, err
	}
	p := &PendingWrite{path: path, dir: dir, name: name, opts: o}
	ok := false
	defer func() {
		if !ok {
			p.Abort()
		}
	}()
	mode, err := p.checkTarget()
	if err != nil {
		return nil, err
	}
	p.tmp, err = tempName(name)
	if err != nil {
		return nil, err
	}
	f, err := dir.OpenFile(p.tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		p.tmp = ""
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	werr := fill(f)
	if werr == nil {
		werr = f.Chmod(mode) // the umask does not decide a replaced file's mode
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return nil, fmt.Errorf("%s: %w", path, werr)
	}
	ok = true
	return p, nil
}

// checkTarget checks what the path names now: a regular file (kept in p.before, its mode the
// new file's), unchanged since it was read when the options say what was read, or nothing
// when the write makes a new file. It returns the mode to write with (o.Mode, else 0644, for
// a new file).
func (p *PendingWrite) checkTarget() (fs.FileMode, error) {
	o, path := p.opts, p.path
	mode := o.Mode
	if mode == 0 {
		mode = 0o644
	}
	before, err := p.dir.Lstat(p.name)
	switch {
	case err == nil:
		if reason := notRegular(before); reason != "" {
			return 0, &RefusedWriteError{Path: path, Reason: reason + linkTo(p.dir, p.name, before)}
		}
		if o.New {
			return 0, &RefusedWriteError{Path: path, Reason: "a file of that name exists already"}
		}
		p.before, mode = before, before.Mode().Perm()
		if o.Original != nil {
			if err := p.unchanged(); err != nil {
				return 0, err
			}
		}
	case errors.Is(err, fs.ErrNotExist):
		if o.Original != nil {
			return 0, &RefusedWriteError{Path: path, Reason: "it was removed since eni-lint read it"}
		}
	default:
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	return mode, nil
}

// Commit puts the prepared file in place: a rename over the old file, checked once more just
// before it (still the same regular file, with the content it was read with); a new file is
// linked in place, which fails when something of that name appeared meanwhile.
func (p *PendingWrite) Commit() error {
	if p.tmp == "" {
		return fmt.Errorf("%s: nothing prepared", p.path)
	}
	defer p.Abort()
	if p.before == nil {
		if err := p.dir.Link(p.tmp, p.name); err != nil {
			if errors.Is(err, fs.ErrExist) {
				return &RefusedWriteError{Path: p.path, Reason: "a file of that name appeared while eni-lint ran"}
			}
			return p.createExclusive()
		}
		return nil
	}
	now, err := p.dir.Lstat(p.name)
	if err != nil || !os.SameFile(now, p.before) || notRegular(now) != "" {
		return &RefusedWriteError{Path: p.path, Reason: "it was replaced while eni-lint ran"}
	}
	if p.opts.Original != nil {
		if err := p.unchanged(); err != nil {
			return err
		}
	}
	if err := p.dir.Rename(p.tmp, p.name); err != nil {
		return fmt.Errorf("%s: %w", p.path, err)
	}
	p.tmp = ""
	return nil
}

// createExclusive is Commit's way for a new file where the file system has no hard links:
// the content is copied into a file created with O_EXCL, which a link of that name fails too.
func (p *PendingWrite) createExclusive() error {
	data, err := p.dir.ReadFile(p.tmp)
	if err != nil {
		return fmt.Errorf("%s: %w", p.path, err)
	}
	mode := p.opts.Mode
	if mode == 0 {
		mode = 0o644
	}
	f, err := p.dir.OpenFile(p.name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			return &RefusedWriteError{Path: p.path, Reason: "a file of that name appeared while eni-lint ran"}
		}
		return fmt.Errorf("%s: %w", p.path, err)
	}
	_, werr := f.Write(data)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	return werr
}

// Abort removes the temporary file, if any, and releases the folder. It may be called twice.
func (p *PendingWrite) Abort() {
	if p.dir == nil {
		return
	}
	if p.tmp != "" {
		p.dir.Remove(p.tmp)
		p.tmp = ""
	}
	p.dir.Close()
	p.dir = nil
}

// unchanged compares the file with the content it was read with, reading it without
// following a link.
func (p *PendingWrite) unchanged() error {
	f, err := p.dir.Open(p.name)
	if err != nil {
		return &ChangedError{Path: p.path}
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || p.before == nil || !os.SameFile(info, p.before) {
		return &ChangedError{Path: p.path}
	}
	if info.Size() != int64(len(p.opts.Original)) {
		return &ChangedError{Path: p.path}
	}
	now, err := io.ReadAll(io.LimitReader(f, int64(len(p.opts.Original))+1))
	if err != nil || !bytes.Equal(now, p.opts.Original) {
		return &ChangedError{Path: p.path}
	}
	return nil
}

// appendTo appends to a regular file (the job summary), never through a link.
func appendTo(path string, o WriteOptions, fill func(io.Writer) error) error {
	dir, name, err := openParent(path)
	if err != nil {
		return err
	}
	defer dir.Close()
	mode := o.Mode
	if mode == 0 {
		mode = 0o644
	}
	before, err := dir.Lstat(name)
	if err == nil {
		if reason := notRegular(before); reason != "" {
			return &RefusedWriteError{Path: path, Reason: reason + linkTo(dir, name, before)}
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s: %w", path, err)
	}
	flags := os.O_WRONLY | os.O_APPEND
	if before == nil {
		flags |= os.O_CREATE | os.O_EXCL
	}
	f, err := dir.OpenFile(name, flags, mode)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if info, err := f.Stat(); err != nil || (before != nil && !os.SameFile(info, before)) || !info.Mode().IsRegular() {
		f.Close()
		return &RefusedWriteError{Path: path, Reason: "it was replaced while eni-lint ran"}
	}
	werr := fill(f)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return fmt.Errorf("%s: %w", path, werr)
	}
	return nil
}

// notRegular says why an entry Lstat describes is not written to, or "" for a regular file.
func notRegular(info fs.FileInfo) string {
	switch m := info.Mode(); {
	case m&fs.ModeSymlink != 0:
		return "it is a symbolic link"
	case m.IsRegular():
		return ""
	default:
		return describeMode(m) + ", not a regular file"
	}
}

// linkTo says where a link leads, for the message that refuses it ("" for anything else).
func linkTo(dir *os.Root, name string, info fs.FileInfo) string {
	if info.Mode()&fs.ModeSymlink == 0 {
		return ""
	}
	if target, err := dir.Readlink(name); err == nil {
		return " (to " + target + ")"
	}
	return ""
}

func tempName(name string) (string, error) {
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return "." + name + ".eni-lint-" + hex.EncodeToString(b[:]) + ".tmp", nil
}

// openParent opens the folder that holds path, and returns it with the file's name. Inside
// the repository that holds the working folder every folder from the repository down is
// opened one at a time, none may be a link or anything but a folder, and each is checked to be
// the folder Lstat saw. Outside it, the folder is opened as named.
func openParent(path string) (*os.Root, string, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return nil, "", err
	}
	abs := path
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(cwd, abs)
	}
	abs = filepath.Clean(abs)
	name := filepath.Base(abs)
	if name == "." || name == string(filepath.Separator) || abs == filepath.Dir(abs) {
		return nil, "", fmt.Errorf("%s: not a file name", path)
	}
	anchor, rel := "", ""
	for _, repo := range repositoryForms(Repository(filepath.Clean(cwd))) {
		if Within(repo, abs) && repo != abs {
			anchor = repo
			rel, _ = filepath.Rel(repo, filepath.Dir(abs))
			break
		}
	}
	if anchor == "" {
		dir, err := os.OpenRoot(filepath.Dir(abs))
		if err != nil {
			return nil, "", fmt.Errorf("%s: %w", path, err)
		}
		return dir, name, nil
	}
	dir, err := os.OpenRoot(anchor)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", path, err)
	}
	if rel == "." {
		return dir, name, nil
	}
	walked := anchor
	for _, c := range strings.Split(rel, string(filepath.Separator)) {
		walked = filepath.Join(walked, c)
		next, err := openSubfolder(dir, c, walked, path)
		dir.Close()
		if err != nil {
			var refused *RefusedWriteError
			if errors.As(err, &refused) {
				return nil, "", err
			}
			return nil, "", fmt.Errorf("%s: %w", path, err)
		}
		dir = next
	}
	return dir, name, nil
}

// openSubfolder opens folder c of dir (walked names it, for path's refusal): it must be a
// folder, not a link or anything else, and the folder opened must be the one Lstat saw.
func openSubfolder(dir *os.Root, c, walked, path string) (*os.Root, error) {
	seen, err := dir.Lstat(c)
	if err != nil {
		return nil, err
	}
	if seen.Mode()&fs.ModeSymlink != 0 {
		return nil, &RefusedWriteError{Path: path, Reason: "its folder " + walked + " is a symbolic link" + linkTo(dir, c, seen)}
	}
	if !seen.IsDir() {
		return nil, &RefusedWriteError{Path: path, Reason: walked + " is " + describeMode(seen.Mode()) + ", not a folder"}
	}
	next, err := dir.OpenRoot(c)
	if err != nil {
		return nil, err
	}
	if opened, serr := next.Stat("."); serr != nil || !os.SameFile(opened, seen) {
		next.Close()
		return nil, &RefusedWriteError{Path: path, Reason: "its folder " + walked + " was replaced while eni-lint opened it"}
	}
	return next, nil
}

// repositoryForms are the repository's path as found and with its links resolved (a
// temporary folder reached through /tmp -> /private/tmp, say), so that a path given in either
// form is checked from the repository down.
func repositoryForms(repo string) []string {
	forms := []string{repo}
	if real, err := filepath.EvalSymlinks(repo); err == nil && real != repo {
		forms = append(forms, real)
	}
	return forms
}

// ResolveLinkWithin is where path leads when it, or a folder on its way, is a symbolic link
// whose target resolves inside the repository that holds the working folder (the boundary
// reads keep; monorepos share manifests that way), and ok; the one writer then writes that
// path, checked from the repository down like any other (no link on its way, the content
// still what was read). A path that is no link, that leads outside the repository or into
// its .git folder, or that cannot be resolved gives ok false: Prepare then refuses it as a
// link, naming where it leads.
func ResolveLinkWithin(path string) (resolved string, ok bool) {
	cwd, err := os.Getwd()
	if err != nil {
		return "", false
	}
	abs := path
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(cwd, abs)
	}
	abs = filepath.Clean(abs)
	real, err := filepath.EvalSymlinks(abs)
	if err != nil || real == abs {
		return "", false
	}
	for _, repo := range repositoryForms(Repository(filepath.Clean(cwd))) {
		rel, err := filepath.Rel(repo, real)
		if err != nil || !Within(repo, real) || rel == "." {
			continue
		}
		if rel == ".git" || strings.HasPrefix(rel, ".git"+string(filepath.Separator)) {
			return "", false
		}
		if repo != Repository(filepath.Clean(cwd)) {
			// Written from the repository as found, so that the writer's walk starts there.
			real = filepath.Join(Repository(filepath.Clean(cwd)), rel)
		}
		return real, true
	}
	return "", false
}
