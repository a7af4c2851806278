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

// EnvironmentNames names each var file's environment, uniquely: the file's name without the
// extension when no other file has it; otherwise its path without the extension, and without a
// final "terraform" (env/dev/terraform.tfvars is "env/dev"); the whole path as a last resort.
// Real repositories keep env/dev/terraform.tfvars and env/prod/terraform.tfvars, which base
// names alone would both call "terraform".
func EnvironmentNames(varFiles []string) []string {
	names := make([]string, len(varFiles))
	count := map[string]int{}
	for i, f := range varFiles {
		names[i] = EnvironmentName(f)
		count[names[i]]++
	}
	for i, f := range varFiles {
		if count[names[i]] < 2 {
			continue
		}
		p := filepath.ToSlash(filepath.Clean(f))
		name := EnvironmentName(p)
		dir := filepath.ToSlash(filepath.Dir(p))
		switch {
		case name == "terraform" && dir != ".":
			names[i] = dir
		case dir != ".":
			names[i] = dir + "/" + name
		}
	}
	seen := map[string]int{}
	for _, n := range names {
		seen[n]++
	}
	for i, f := range varFiles {
		if seen[names[i]] > 1 {
			names[i] = filepath.ToSlash(filepath.Clean(f))
		}
	}
	return names
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
	workloads := map[string]bool{}
	names := EnvironmentNames(varFiles)
	for k, file := range varFiles {
		env := names[k]
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
			for _, w := range rep.Workloads {
				workloads[w.ID] = true
			}
		} else {
			merged.NodeGroups = append(merged.NodeGroups, rep.NodeGroups...)
			merged.InstanceTypes = append(merged.InstanceTypes, rep.InstanceTypes...)
			merged.Errors = appendNewErrors(merged.Errors, rep.Errors)
			// A workload only one environment declares (a count that is 0 elsewhere) is
			// listed too, once.
			for _, w := range rep.Workloads {
				if !workloads[w.ID] {
					workloads[w.ID] = true
					merged.Workloads = append(merged.Workloads, w)
				}
			}
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
