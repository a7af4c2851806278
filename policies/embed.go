// Package policies holds eni-lint's rules, written in Rego and embedded in the binary.
//
// lib/ is the model every rule shares (docs/model.md); rules/ has one package per rule, whose
// METADATA annotation is the single source of its ID, title, severity and documentation;
// main.rego gathers the findings into the one report query. Each rule has a _test.rego next to
// it, run by `go test ./...` through OPA's tester.
package policies

import "embed"

// FS holds every .rego file, tests included; callers pick what they need.
//
//go:embed main.rego lib/*.rego rules/*.rego
var FS embed.FS
