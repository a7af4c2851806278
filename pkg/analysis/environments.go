package analysis

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/eni-lint/eni-lint/pkg/findings"
	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/rules"
)

// EnvironmentName is an environment's name: its var file's name without the extension
// (envs/prod.tfvars is "prod").
func EnvironmentName(varFile string) string {
	base := filepath.Base(varFile)
	for _, ext := range []string{".tfvars.json", ".tfvars", ".json"} {
		if strings.HasSuffix(base, ext) {
			return strings.TrimSuffix(base, ext)
		}
	}
	return base
}

// CheckEach runs the check once per Terraform environment: each var file is loaded after the
// others (--var-file, terraform.tfvars, *.auto.tfvars), the node groups and rows are labelled
// with the environment, and findings that occur in several environments are reported once
// with all of them. The exit code is the worst environment's.
func CheckEach(ctx context.Context, engine *rules.Engine, opts Options, varFiles []string) (*findings.Report, error) {
	if len(varFiles) == 0 {
		return Check(ctx, engine, opts)
	}
	var merged *findings.Report
	byKey := map[string]int{}
	for _, file := range varFiles {
		env := EnvironmentName(file)
		o := opts
		o.Terraform.VarFiles = append(append([]string{}, opts.Terraform.VarFiles...), file)
		rep, err := Check(ctx, engine, o)
		if err != nil {
			return nil, fmt.Errorf("environment %s: %w", env, err)
		}
		verdict := findings.EnvironmentVerdict{Name: env, VarFile: file, ExitCode: rep.ExitCode(), Summary: rep.Summary}
		for i := range rep.NodeGroups {
			rep.NodeGroups[i].Environment = env
		}
		for i := range rep.InstanceTypes {
			rep.InstanceTypes[i].Environment = env
		}
		envFindings := rep.Findings
		if merged == nil {
			merged = rep
			merged.Findings = nil
		} else {
			merged.NodeGroups = append(merged.NodeGroups, rep.NodeGroups...)
			merged.InstanceTypes = append(merged.InstanceTypes, rep.InstanceTypes...)
			merged.Errors = appendNewErrors(merged.Errors, rep.Errors)
		}
		merged.Environments = append(merged.Environments, verdict)
		for _, f := range envFindings {
			key := fmt.Sprintf("%s|%v|%s|%v", f.Rule, f.Location, f.Message, f.Suppressed != nil)
			if i, ok := byKey[key]; ok {
				merged.Findings[i].Environments = append(merged.Findings[i].Environments, env)
				continue
			}
			f.Environments = []string{env}
			byKey[key] = len(merged.Findings)
			merged.Findings = append(merged.Findings, f)
		}
	}
	if merged.Findings == nil {
		merged.Findings = []findings.Finding{}
	}
	merged.Sort()
	merged.Count()
	return merged, nil
}

func appendNewErrors(have, more []inventory.LoadError) []inventory.LoadError {
	seen := map[string]bool{}
	for _, e := range have {
		seen[fmt.Sprint(e)] = true
	}
	for _, e := range more {
		if !seen[fmt.Sprint(e)] {
			have = append(have, e)
		}
	}
	return have
}
