package inventory

import (
	"cmp"
	"slices"
)

// LoadError is input eni-lint could not read: a file it could not open, YAML that does not
// parse, a field of the wrong type. It is reported with its position and makes the run fail
// (exit code 2) while everything else is still analysed.
type LoadError struct {
	Position Position `json:"position"`
	Message  string   `json:"message"`
}

// Fragment is what one loader read from one file (or stream).
type Fragment struct {
	File                  string
	Documents             int
	Workloads             []Workload
	SecurityGroupPolicies []SecurityGroupPolicy
	ServiceAccounts       []ServiceAccount
	Namespaces            []Namespace
	// NodeGroups are declared by infrastructure code (Terraform); the run resolves their
	// instance types against the limits table.
	NodeGroups []NodeGroupSpec
	// CNISettings configure the VPC CNI.
	CNISettings []CNISetting
	Errors      []LoadError
}

// Merge appends fragments in file order, so that an inventory does not depend on which worker
// finished first.
func Merge(inv *Inventory, fragments []Fragment) (errs []LoadError, documents int, nodeGroups []NodeGroupSpec) {
	slices.SortStableFunc(fragments, func(a, b Fragment) int { return cmp.Compare(a.File, b.File) })
	for _, f := range fragments {
		inv.Workloads = append(inv.Workloads, f.Workloads...)
		inv.SecurityGroupPolicies = append(inv.SecurityGroupPolicies, f.SecurityGroupPolicies...)
		inv.ServiceAccounts = append(inv.ServiceAccounts, f.ServiceAccounts...)
		inv.Namespaces = append(inv.Namespaces, f.Namespaces...)
		nodeGroups = append(nodeGroups, f.NodeGroups...)
		inv.CNISettings = append(inv.CNISettings, f.CNISettings...)
		errs = append(errs, f.Errors...)
		documents += f.Documents
	}
	return errs, documents, nodeGroups
}
