package cli

import (
	"os"
	"strconv"

	"github.com/mattn/go-isatty"
	"golang.org/x/term"
)

func isTerminal(f *os.File) bool {
	return isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())
}

// terminalWidth is the width text wraps to: COLUMNS when the user set it, else the terminal's;
// 0 when f is not a terminal (a pipe or a file keeps one line per message).
func terminalWidth(f *os.File, getenv func(string) string) int {
	if !isTerminal(f) {
		return 0
	}
	if n, err := strconv.Atoi(getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 0 {
		return w
	}
	return 0
}

// useColor decides colours from --color (always, never, auto) and the environment: auto
// colours a terminal unless NO_COLOR is set or TERM is dumb; an explicit always or never wins
// over both, as the NO_COLOR convention asks.
func useColor(mode string, terminal bool, getenv func(string) string) bool {
	switch mode {
	case "always":
		return true
	case "never":
		return false
	}
	return terminal && getenv("NO_COLOR") == "" && getenv("TERM") != "dumb"
}
