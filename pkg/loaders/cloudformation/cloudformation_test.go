package cloudformation

import (
	"strings"
	"testing"

	"github.com/eni-lint/eni-lint/pkg/yamlpos"
)

func load(t *testing.T, src string) map[string][]string {
	t.Helper()
	docs, err := yamlpos.Documents([]byte(src))
	if err != nil || len(docs) != 1 || !IsTemplate(docs[0]) {
		t.Fatalf("not a template: %v", err)
	}
	out := map[string][]string{}
	for _, g := range Load("t.yaml", docs[0]).NodeGroups {
		types := append([]string{}, g.InstanceTypes...)
		if g.UnknownTypes != "" {
			types = append(types, "?"+g.UnknownTypes)
		}
		out[g.Name] = types
	}
	return out
}

func TestIntrinsics(t *testing.T) {
	src := `Parameters:
  Env: {Type: String, Default: prod}
  Size: {Type: String, Default: large}
  Free: {Type: String}
Conditions:
  IsProd: !Equals [!Ref Env, prod]
Mappings:
  Types: {prod: {family: m6i}}
Resources:
  Joined:
    Type: AWS::EKS::Nodegroup
    Properties:
      InstanceTypes: [!Join [".", [!FindInMap [Types, !Ref Env, family], !Ref Size]]]
  Subbed:
    Type: AWS::EKS::Nodegroup
    Properties:
      InstanceTypes: [!Sub "c5.${Size}"]
  Selected:
    Type: AWS::EKS::Nodegroup
    Properties:
      InstanceTypes: [!Select [1, [m5.large, r5.large]]]
  SameBothWays:
    Type: AWS::EKS::Nodegroup
    Properties:
      InstanceTypes: [!If [IsProd, m5.xlarge, m5.xlarge]]
  Conditional:
    Type: AWS::EKS::Nodegroup
    Properties:
      InstanceTypes: [!If [IsProd, m5.xlarge, m5.large]]
  FromFree:
    Type: AWS::EKS::Nodegroup
    Properties:
      InstanceTypes: [!Ref Free]
  LongForm:
    Type: AWS::EKS::Nodegroup
    Properties:
      InstanceTypes: [{"Fn::Sub": "r6i.${Size}"}]
`
	got := load(t, src)
	want := map[string]string{
		"Joined": "m6i.large", "Subbed": "c5.large", "Selected": "r5.large", "SameBothWays": "m5.xlarge", "LongForm": "r6i.large",
	}
	for name, typ := range want {
		if strings.Join(got[name], ",") != typ {
			t.Errorf("%s: %v, want %s", name, got[name], typ)
		}
	}
	if g := strings.Join(got["Conditional"], ","); !strings.Contains(g, "?") || !strings.Contains(g, "IsProd") {
		t.Errorf("Conditional: %s", g)
	}
	if g := strings.Join(got["FromFree"], ","); !strings.Contains(g, "parameter Free has no Default") {
		t.Errorf("FromFree: %s", g)
	}
}

func TestIsTemplate(t *testing.T) {
	for src, want := range map[string]bool{
		"AWSTemplateFormatVersion: '2010-09-09'\nResources: {}\n": true,
		"X: {Type: AWS::EKS::Nodegroup}\n":                        true,
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n":  false,
		"Resources: {X: {Type: Custom::Thing}}\n":                 false,
		"title: hello\n": false,
	} {
		docs, _ := yamlpos.Documents([]byte(src))
		if got := len(docs) == 1 && IsTemplate(docs[0]); got != want {
			t.Errorf("IsTemplate(%q) = %v", src, got)
		}
	}
}

func TestSelfReferencesAreUnknownNotACrash(t *testing.T) {
	for _, src := range []string{
		"Parameters: {P: {Default: !Ref P}}\nResources:\n  A: {Type: AWS::EKS::Nodegroup, Properties: {InstanceTypes: [!Ref P]}}\n",
		"Parameters: {P: {Default: !Sub '${P}'}}\nResources:\n  A: {Type: AWS::EKS::Nodegroup, Properties: {InstanceTypes: [!Sub '${P}']}}\n",
	} {
		docs, err := yamlpos.Documents([]byte(src))
		if err != nil || len(docs) != 1 {
			t.Fatal(err)
		}
		frag := Load("t.yaml", docs[0])
		if len(frag.NodeGroups) != 1 || frag.NodeGroups[0].UnknownTypes == "" || strings.Contains(frag.NodeGroups[0].UnknownTypes, "m5") {
			t.Errorf("%q: node groups %+v", src, frag.NodeGroups)
		}
	}
}

func FuzzLoad(f *testing.F) {
	f.Add("Resources:\n  A:\n    Type: AWS::EKS::Nodegroup\n    Properties:\n      InstanceTypes: [!Ref X]\n")
	f.Add("A:\n  Type: AWS::AutoScaling::AutoScalingGroup\n  Properties:\n    MixedInstancesPolicy: {LaunchTemplate: {Overrides: [{InstanceType: !Sub '${A}'}]}}\n")
	f.Add("Resources:\n  A: {Type: AWS::EKS::Nodegroup, Properties: {LaunchTemplate: {Id: !GetAtt [B, Id]}}}\n  B: {Type: AWS::EC2::LaunchTemplate}\n")
	// The hostile corpus: a parameter whose Default refers to itself, used by Ref and by Sub,
	// and labels that alias themselves.
	f.Add("Parameters: {P: {Default: !Ref P}}\nResources:\n  A: {Type: AWS::EKS::Nodegroup, Properties: {InstanceTypes: [!Ref P]}}\n")
	f.Add("Parameters: {P: {Default: !Sub '${P}'}}\nResources:\n  A: {Type: AWS::EKS::Nodegroup, Properties: {InstanceTypes: [!Sub '${P}']}}\n")
	f.Add("Resources:\n  A: {Type: AWS::EKS::Nodegroup, Properties: {InstanceTypes: [m5.large], Labels: &l {a: *l}}}\n")
	// Names written the same way in the group and the template; a launch configuration.
	f.Add("Resources:\n  L: {Type: AWS::EC2::LaunchTemplate, Properties: {LaunchTemplateName: !Sub '${AWS::StackName}-n', LaunchTemplateData: {InstanceType: m5.large}}}\n  G: {Type: AWS::AutoScaling::AutoScalingGroup, Properties: {LaunchTemplate: {LaunchTemplateName: !Sub '${AWS::StackName}-n'}}}\n")
	f.Add("Resources:\n  C: {Type: AWS::AutoScaling::LaunchConfiguration, Properties: {InstanceType: !Ref C}}\n  G: {Type: AWS::AutoScaling::AutoScalingGroup, Properties: {LaunchConfigurationName: !Ref C}}\n")
	f.Fuzz(func(t *testing.T, src string) {
		docs, _ := yamlpos.Documents([]byte(src))
		for _, d := range docs {
			if IsTemplate(d) {
				Load("fuzz.yaml", d)
			}
		}
	})
}

// A Sub or Join that would build more than a template can hold is refused with a reason, not
// built: a Sub repeating a long parameter hundreds of times asked for 738 MB.
func TestIntrinsicsWithinTheValueBudget(t *testing.T) {
	long := strings.Repeat("x", 100000)
	src := "Parameters:\n  P: {Type: String, Default: " + long + "}\nResources:\n" +
		"  Subbed:\n    Type: AWS::EKS::Nodegroup\n    Properties:\n      InstanceTypes: [!Sub \"" + strings.Repeat("${P}", 700) + "\"]\n" +
		"  Joined:\n    Type: AWS::EKS::Nodegroup\n    Properties:\n      InstanceTypes: [!Join [\"\", [" + strings.TrimSuffix(strings.Repeat("!Ref P, ", 700), ", ") + "]]]\n"
	got := load(t, src)
	for _, name := range []string{"Subbed", "Joined"} {
		if g := strings.Join(got[name], ","); !strings.Contains(g, "expands to more than 1048576 bytes") {
			t.Errorf("%s: %.200s", name, g)
		}
	}
}
