package cli

import (
	"runtime/debug"
	"strings"
)

// Version is set at build time with -ldflags "-X github.com/eni-lint/eni-lint/pkg/cli.Version=…"
// (the release builds do). When it is not, the version comes from the build information Go
// records: `go install github.com/eni-lint/eni-lint/cmd/eni-lint@v1.2.3` reports v1.2.3, and a
// build from a checkout reports its commit.
var Version = ""

// Commit and Date are the release's commit and commit date, set by the same ldflags; empty in
// other builds, where the build information holds the commit when Go recorded one.
var (
	Commit = ""
	Date   = ""
)

// buildLine is what `version` prints after the version: the commit and its date when the
// release set them.
func buildLine() string {
	var parts []string
	if Commit != "" {
		c := Commit
		if len(c) > 12 {
			c = c[:12]
		}
		parts = append(parts, "commit "+c)
	}
	if Date != "" {
		parts = append(parts, Date)
	}
	return strings.Join(parts, ", ")
}

// currentVersion is the version every report and the version command print.
func currentVersion() string {
	if Version != "" {
		return Version
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "0.0.0-dev"
	}
	return versionFrom(info)
}

// versionFrom reads a version from build information: the module's, when it was installed at
// a version, else the VCS commit (marked -dirty for a modified tree), else a development mark.
func versionFrom(info *debug.BuildInfo) string {
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var revision string
	dirty := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if revision == "" {
		return "0.0.0-dev"
	}
	if len(revision) > 12 {
		revision = revision[:12]
	}
	v := "0.0.0-dev+" + revision
	if dirty {
		v += "-dirty"
	}
	return strings.TrimSpace(v)
}
