package terraform

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

func tokenNesting(src []byte) bool {
	tokens, _ := hclsyntax.LexConfig(src, "x.tf", hcl.InitialPos)
	_, deep := nativeNesting(tokens, 0)
	return deep
}

// TestPreScanNesting: the byte pre-scan refuses the deep shapes before lexing, with the line,
// and lets through what real files and the token check's edge cases hold.
func TestPreScanNesting(t *testing.T) {
	chain := "locals {\n  x = " + strings.Repeat(`var.a ? "v" : `, 600) + "\"end\"\n}\n"
	deep := []string{
		chain,
		"x = " + strings.Repeat("[", 600) + strings.Repeat("]", 600) + "\n",
		"x = " + strings.Repeat("1 + ", 600) + "1\n",
		"x = \"" + strings.Repeat("${\"", 300) + strings.Repeat("\"}", 300) + "\"\n",
	}
	for _, src := range deep {
		d := preScanNesting([]byte(src), "x.tf")
		if d == nil || d.Subject.Start.Line < 1 {
			t.Errorf("not refused: %.60q", src)
		}
		if !tokenNesting([]byte(src)) {
			t.Errorf("the token check lets through what the pre-scan refuses: %.60q", src)
		}
	}
	shallow := []string{
		"x = \"" + strings.Repeat("a?b+c*d%e==f", 200) + "\"\n", // operators in a string count nothing
		"# " + strings.Repeat("? ", 1000) + "\n",
		"/* " + strings.Repeat("((", 1000) + " */\n",
		"x = <<EOT\n" + strings.Repeat("? + ( [", 300) + "\nEOT\n",
		"x = \"" + strings.Repeat("$${", 600) + "\"\n",
		strings.Repeat("x = a ? b : c\n", 2000),
		strings.Repeat("y = [a, b ? c : d, e + f]\n", 2000),
	}
	for _, src := range shallow {
		if d := preScanNesting([]byte(src), "x.tf"); d != nil {
			t.Errorf("refused %.60q: %v", src, d)
		}
	}
	// Every .tf file of the scenario folders passes.
	files, _ := filepath.Glob(filepath.Join("..", "..", "..", "testdata", "scenarios", "*", "*.tf"))
	more, _ := filepath.Glob(filepath.Join("..", "..", "..", "testdata", "scenarios", "*", "*", "*.tf"))
	for _, f := range append(files, more...) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if d := preScanNesting(data, f); d != nil {
			t.Errorf("%s: %v", f, d)
		}
	}
}

// FuzzPreScanNesting: whatever the bytes, the pre-scan refuses nothing the token check lets
// through, and ends without panic.
func FuzzPreScanNesting(f *testing.F) {
	for _, seed := range []string{"x = a ? b : c\n", `x = "${a ? "b" : "c"}"`, "x = <<-EOT\n  ${a}\n  EOT\n", "x = [[[[1]]]]",
		`x = "$${a}" // c`, "/* a */ x = {a = 1, b = [2]}", "x = a && b || c == d != e"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 1<<16 {
			return
		}
		// Scaled: the same bytes repeated to pass the budget when they nest at all.
		deep := append([]byte("x = "), bytesRepeat(src, 600/max(1, len(src))+1)...)
		if preScanNesting(deep, "x.tf") != nil && !tokenNesting(deep) {
			t.Fatalf("the pre-scan refuses what the token check reads: %q", src)
		}
		if preScanNesting(src, "x.tf") != nil && !tokenNesting(src) {
			t.Fatalf("the pre-scan refuses what the token check reads: %q", src)
		}
	})
}

func bytesRepeat(b []byte, n int) []byte {
	return []byte(strings.Repeat(string(b), n))
}
