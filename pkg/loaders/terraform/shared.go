package terraform

import (
	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/loaders/kubernetes"
)

// What the Terraform plan reader (pkg/loaders/tfplan) reads the same way as the code: the
// resources' defaults and encodings are the provider's, whichever form declares them.

// EKSDefaultInstanceType is the type of an aws_eks_node_group that names none, neither in
// instance_types nor in its launch template.
const EKSDefaultInstanceType = eksDefaultInstanceType

// UnknownText stands in for a value only Terraform knows in manifest text ReadPartial reads.
const UnknownText = unknownText

// AMIPlatform reads an EKS ami_type: ARM types run arm64 nodes, Windows types Windows nodes.
func AMIPlatform(amiType string) (arch string, windows bool) { return amiPlatform(amiType) }

// TaintEffect turns the EKS API's taint effect (NO_SCHEDULE) into Kubernetes' (NoSchedule).
func TaintEffect(s string) string { return taintEffect(s) }

// ReadKind says whether eni-lint reads objects of this kind (a Job, an SGP, a NodePool…):
// an unknown field of another kind loses nothing.
func ReadKind(kind string) bool { return readKinds[kind] }

// ReadPartial reads manifest text in which UnknownText marks the values only Terraform knows:
// the fields that hold one are left out, as in the code's manifests. When an identity field
// (apiVersion, kind, metadata.name or metadata.namespace) holds one, the object cannot be read:
// unknownField names it and the fragment is empty; when it is of a kind eni-lint does not
// read, nothing is lost and both are empty.
func ReadPartial(file, text string, opts kubernetes.Options) (frag inventory.Fragment, unknownField string) {
	frag, unknownField, _, _ = readPartial(file, text, opts)
	return frag, unknownField
}
