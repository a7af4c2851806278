package limits

import "strings"

// EKS Auto Mode launches only some instance families, and only sizes above a minimum. The
// list is the "EKS Auto Mode supported instance reference" of the EKS user guide
// (awsdocs/amazon-eks-user-guide, latest/ug/automode/automode-learn-instances.adoc at commit
// 06faff1411463d22284cc02e7602daf4c19f9204): "EKS Auto Mode only creates instances of
// supported types, and that meet a minimum size requirement … More than 1 CPU; Instance size is
// not nano, micro or small".
var autoModeFamilies = setOf(
	// Compute optimized
	"c8id", "c8i", "c8i-flex", "c8gd", "c8gn", "c8g", "c8a", "c8gb", "c7a", "c7g", "c7gn", "c7gd", "c7i", "c7i-flex",
	"c6a", "c6g", "c6i", "c6gn", "c6id", "c6in", "c6gd", "c5", "c5a", "c5d", "c5ad", "c5n", "c4",
	// General purpose
	"m8id", "m8i", "m8i-flex", "m8a", "m8azn", "m8gn", "m8gb", "m8gd", "m8g", "m7i", "m7a", "m7g", "m7gd", "m7i-flex",
	"m6a", "m6i", "m6in", "m6g", "m6idn", "m6id", "m6gd", "m5", "m5a", "m5ad", "m5n", "m5dn", "m5d", "m5zn", "m4",
	// Memory optimized
	"r8id", "r8i", "r8i-flex", "r8gn", "r8gb", "r8gd", "r8g", "r8a", "r7a", "r7iz", "r7gd", "r7i", "r7g", "r6a", "r6i",
	"r6id", "r6in", "r6idn", "r6g", "r6gd", "r5", "r5n", "r5a", "r5dn", "r5b", "r5ad", "r5d", "r4",
	// Burstable
	"t4g", "t3", "t3a", "t2",
	// High memory
	"z1d", "x8aedz", "x8g", "x8i", "x2gd",
	// Storage optimized
	"i8ge", "i7i", "i8g", "i7ie", "i4g", "i4i", "i3", "i3en", "is4gen", "d3", "d3en", "im4gn",
	// Accelerated computing
	"p6-b200", "p6-b300", "p5", "p5e", "p5en", "p4d", "p4de", "p3dn", "g7e", "g6", "gr6", "g6e", "g5g", "g5", "g4dn",
	"g4ad", "inf2", "inf1", "trn1", "trn1n", "trn2",
	// High performance computing
	"hpc8a", "x2iezn", "x2iedn", "x2idn",
)

func setOf(names ...string) map[string]bool {
	out := map[string]bool{}
	for _, n := range names {
		out[n] = true
	}
	return out
}

// AutoModeLaunches says whether EKS Auto Mode can launch a type: its family is supported, it
// has more than one vCPU, and its size is not nano, micro or small.
func AutoModeLaunches(t KarpenterType) bool {
	family, size, _ := strings.Cut(t.Name, ".")
	if !autoModeFamilies[family] {
		return false
	}
	switch size {
	case "nano", "micro", "small":
		return false
	}
	return t.Labels["karpenter.k8s.aws/instance-cpu"] != "1"
}
