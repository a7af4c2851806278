package cloudformation

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/eni-lint/eni-lint/pkg/inventory"
	"github.com/eni-lint/eni-lint/pkg/yamlpos"
	"go.yaml.in/yaml/v3"
)

var subVar = regexp.MustCompile(`\$\{[A-Za-z0-9_:.]+\}`)

func (t *template) prop(r *resource, path ...string) *yaml.Node {
	n := r.props
	for _, p := range path {
		_, n = yamlpos.Lookup(n, p)
		if n == nil {
			return nil
		}
	}
	return n
}

func (t *template) str(n *yaml.Node) (string, string) {
	if n == nil {
		return "", ""
	}
	v, why := t.value(n)
	if why != "" {
		return "", why
	}
	s, _ := v.(string)
	return s, ""
}

func toInt(v any) *int {
	s, ok := v.(string)
	if !ok {
		return nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return nil
	}
	return &n
}

// managed reads an AWS::EKS::Nodegroup.
func (t *template) managed(r *resource) inventory.NodeGroupSpec {
	g := inventory.NodeGroupSpec{Name: r.id, Source: "cloudformation:AWS::EKS::Nodegroup", Location: t.pos(r.key), Labels: map[string]string{}}
	if s, _ := t.str(t.prop(r, "NodegroupName")); s != "" {
		g.Name = s
	}
	if v, why := t.value(t.prop(r, "Labels")); why == "" {
		if m, ok := v.(map[string]any); ok {
			for k, val := range m {
				g.Labels[k] = fmt.Sprint(val)
			}
		}
	}
	if s, _ := t.str(t.prop(r, "CapacityType")); s != "" {
		g.CapacityType = s
	}
	if s, _ := t.str(t.prop(r, "AmiType")); s != "" {
		u := strings.ToUpper(s)
		g.Windows = strings.HasPrefix(u, "WINDOWS")
		if strings.Contains(u, "ARM") {
			g.Arch = "arm64"
		}
	}
	if v, why := t.value(t.prop(r, "ScalingConfig")); why == "" {
		if m, ok := v.(map[string]any); ok {
			g.MinSize, g.MaxSize = toInt(m["MinSize"]), toInt(m["MaxSize"])
		}
	}
	if taints := t.prop(r, "Taints"); taints != nil && taints.Kind == yaml.SequenceNode {
		for _, tn := range taints.Content {
			key, _ := t.str(field(tn, "Key"))
			value, _ := t.str(field(tn, "Value"))
			effect, _ := t.str(field(tn, "Effect"))
			g.Taints = append(g.Taints, inventory.Taint{Key: key, Value: value, Effect: taintEffect(effect)})
		}
	}
	t.managedTypes(r, &g)
	return g
}

// managedTypes gives a managed node group its instance types and where they are written:
// InstanceTypes, else its launch template's, else EKS's default.
func (t *template) managedTypes(r *resource, g *inventory.NodeGroupSpec) {
	if types := t.prop(r, "InstanceTypes"); types != nil {
		v, why := t.value(types)
		list, _ := v.([]any)
		switch {
		case why != "":
			g.UnknownTypes = "InstanceTypes: " + why
			g.TypeLocations = []inventory.Position{t.pos(types)}
		default:
			for i, item := range list {
				g.InstanceTypes = append(g.InstanceTypes, fmt.Sprint(item))
				if types.Kind == yaml.SequenceNode && i < len(types.Content) {
					g.TypeLocations = append(g.TypeLocations, t.pos(types.Content[i]))
				} else {
					g.TypeLocations = append(g.TypeLocations, t.pos(types))
				}
			}
		}
	}
	if len(g.InstanceTypes) == 0 && g.UnknownTypes == "" {
		if lt := t.prop(r, "LaunchTemplate"); lt != nil {
			typ, why, at := t.launchTemplateType(lt)
			switch {
			case why != "":
				g.UnknownTypes = why
				g.TypeLocations = []inventory.Position{at}
			case typ != "":
				g.InstanceTypes, g.TypeLocations = []string{typ}, []inventory.Position{at}
			}
		}
	}
	if len(g.InstanceTypes) == 0 && g.UnknownTypes == "" {
		g.InstanceTypes, g.TypeLocations = []string{eksDefaultInstanceType}, []inventory.Position{t.pos(r.key)}
	}
}

func field(n *yaml.Node, key string) *yaml.Node {
	_, v := yamlpos.Lookup(n, key)
	return v
}

func taintEffect(s string) string {
	switch strings.ToUpper(s) {
	case "NO_SCHEDULE":
		return "NoSchedule"
	case "NO_EXECUTE":
		return "NoExecute"
	case "PREFER_NO_SCHEDULE":
		return "PreferNoSchedule"
	}
	return s
}

// launchTemplateType follows a launch template specification (Id/LaunchTemplateId or
// Name/LaunchTemplateName) to an AWS::EC2::LaunchTemplate of the template.
func (t *template) launchTemplateType(spec *yaml.Node) (string, string, inventory.Position) {
	for _, key := range []string{"Id", "LaunchTemplateId", "Name", "LaunchTemplateName"} {
		n := field(spec, key)
		if n == nil {
			continue
		}
		ref, why := t.value(n)
		s, _ := ref.(string)
		if why != "" && !strings.Contains(why, "GetAtt") {
			// A name only the deployed stack knows (!Sub "${AWS::StackName}-nodes"): the launch
			// template of this stack whose name is written the same way is the one it names.
			if lt := t.launchTemplateNamed(n); lt != nil {
				return t.instanceTypeOf(lt)
			}
			return "", "the launch template " + why, t.pos(n)
		}
		id := strings.TrimPrefix(s, t.refPrefix)
		if fn, arg := intrinsic(n); fn == "Fn::GetAtt" { // !GetAtt LT.LaunchTemplateId
			id, _, _ = strings.Cut(arg.Value, ".")
			if arg.Kind == yaml.SequenceNode && len(arg.Content) > 0 {
				id = arg.Content[0].Value
			}
		}
		if lt, ok := t.resources[id]; ok && lt.typ == "AWS::EC2::LaunchTemplate" {
			return t.instanceTypeOf(lt)
		}
		if lt := t.resourceNamed("AWS::EC2::LaunchTemplate", "LaunchTemplateName", s); lt != nil { // a literal name
			if typ := t.prop(lt, "LaunchTemplateData", "InstanceType"); typ != nil {
				v, why := t.str(typ)
				return v, why, t.pos(typ)
			}
		}
		return "", fmt.Sprintf("the launch template %q is not in this template, so its instance type is unknown", s), t.pos(n)
	}
	return "", "", inventory.Position{}
}

// resourceNamed finds the resource of a type whose name property is the literal name, or nil.
func (t *template) resourceNamed(typ, nameProp, name string) *resource {
	for _, id := range t.order {
		r := t.resources[id]
		if r.typ != typ {
			continue
		}
		if n, _ := t.str(t.prop(r, nameProp)); n != "" && n == name {
			return r
		}
	}
	return nil
}

// useLaunchConfiguration reads a group's type from the AWS::AutoScaling::LaunchConfiguration
// its LaunchConfigurationName names (!Ref, or a literal name of one in this template): the
// older way to define self-managed nodes.
func (t *template) useLaunchConfiguration(g *inventory.NodeGroupSpec, name *yaml.Node) {
	g.TypeLocations = []inventory.Position{t.pos(name)}
	var lc *resource
	if fn, arg := intrinsic(yamlpos.Resolve(name)); fn == "Ref" && arg.Kind == yaml.ScalarNode {
		lc = t.resources[arg.Value]
	} else if s, why := t.str(name); why == "" {
		lc = t.resourceNamed("AWS::AutoScaling::LaunchConfiguration", "LaunchConfigurationName", s)
	}
	if lc == nil || lc.typ != "AWS::AutoScaling::LaunchConfiguration" {
		g.UnknownTypes = "the launch configuration is not in this template, so its instance type is unknown"
		return
	}
	typ := t.prop(lc, "InstanceType")
	if typ == nil {
		g.UnknownTypes = "the launch configuration " + lc.id + " sets no InstanceType"
		return
	}
	g.TypeLocations = []inventory.Position{t.pos(typ)}
	v, why := t.str(typ)
	if why != "" {
		g.UnknownTypes = "the launch configuration's InstanceType: " + why
		return
	}
	g.InstanceTypes = []string{v}
}

// instanceTypeOf reads an AWS::EC2::LaunchTemplate's InstanceType.
func (t *template) instanceTypeOf(lt *resource) (string, string, inventory.Position) {
	typ := t.prop(lt, "LaunchTemplateData", "InstanceType")
	if typ == nil {
		return "", "the launch template " + lt.id + " sets no InstanceType", t.pos(lt.key)
	}
	v, why := t.str(typ)
	if why != "" {
		return "", "the launch template's InstanceType: " + why, t.pos(typ)
	}
	return v, "", t.pos(typ)
}

// launchTemplateNamed finds the launch template of this stack whose LaunchTemplateName is
// written as name is: the same !Sub text or !Ref. Within one stack a pseudo parameter
// (AWS::StackName) or a parameter has one value, so the same text is the same name, whatever
// the value. nil when none, or more than one, matches.
func (t *template) launchTemplateNamed(name *yaml.Node) *resource {
	want := t.symbolic(name)
	if want == "" {
		return nil
	}
	var found *resource
	for _, id := range t.order {
		lt := t.resources[id]
		if lt.typ != "AWS::EC2::LaunchTemplate" || t.symbolic(t.prop(lt, "LaunchTemplateName")) != want {
			continue
		}
		if found != nil {
			return nil
		}
		found = lt
	}
	return found
}

// symbolic writes a name-valued node as text that is equal for equal values within one stack:
// a literal, !Ref NAME, or !Sub TEXT with the parameters that have a default filled in. ""
// when the node is none of those (a !Sub with its own variable map, !Join …).
func (t *template) symbolic(n *yaml.Node) string {
	n = yamlpos.Resolve(n)
	if n == nil {
		return ""
	}
	switch fn, arg := intrinsic(n); fn {
	case "":
		if n.Kind == yaml.ScalarNode {
			return "literal:" + n.Value
		}
	case "Ref":
		if arg.Kind == yaml.ScalarNode {
			return "ref:" + arg.Value
		}
	case "Fn::Sub":
		if arg.Kind != yaml.ScalarNode {
			return ""
		}
		size, over := len(arg.Value), false
		key := subVar.ReplaceAllStringFunc(arg.Value, func(m string) string {
			if def, ok := t.params[m[2:len(m)-1]]; ok && def != nil && !over {
				if v, w := t.parameter(m[2:len(m)-1], def); w == "" {
					s := fmt.Sprint(v)
					if size += len(s); size > maxValueBytes {
						over = true // within the budget of the values Fn::Sub builds, or no key
						return ""
					}
					return s
				}
			}
			return m
		})
		if over {
			return ""
		}
		return "sub:" + key
	}
	return ""
}

// autoScaling reads an AWS::AutoScaling::AutoScalingGroup with a launch template or a mixed
// instances policy (self-managed nodes).
func (t *template) autoScaling(r *resource) (inventory.NodeGroupSpec, bool) {
	g := inventory.NodeGroupSpec{Name: r.id, Source: "cloudformation:AWS::AutoScaling::AutoScalingGroup", Location: t.pos(r.key), SelfManaged: true}
	if s, _ := t.str(t.prop(r, "AutoScalingGroupName")); s != "" {
		g.Name = s
	}
	g.MinSize, g.MaxSize = toIntNode(t, t.prop(r, "MinSize")), toIntNode(t, t.prop(r, "MaxSize"))
	spec := t.prop(r, "LaunchTemplate")
	if mip := t.prop(r, "MixedInstancesPolicy", "LaunchTemplate"); mip != nil {
		spec = field(mip, "LaunchTemplateSpecification")
		if overrides := field(mip, "Overrides"); overrides != nil && overrides.Kind == yaml.SequenceNode {
			for _, o := range overrides.Content {
				n := field(o, "InstanceType")
				if n == nil {
					continue
				}
				v, why := t.str(n)
				if why != "" {
					g.UnknownTypes = "an override's InstanceType: " + why
					continue
				}
				g.InstanceTypes = append(g.InstanceTypes, v)
				g.TypeLocations = append(g.TypeLocations, t.pos(n))
			}
		}
	}
	if len(g.InstanceTypes) == 0 && g.UnknownTypes == "" {
		if spec == nil {
			if lc := t.prop(r, "LaunchConfigurationName"); lc != nil {
				t.useLaunchConfiguration(&g, lc)
				return g, true
			}
			return g, false // neither: CloudFormation rejects such a group
		}
		typ, why, at := t.launchTemplateType(spec)
		switch {
		case why != "":
			g.UnknownTypes, g.TypeLocations = why, []inventory.Position{at}
		case typ != "":
			g.InstanceTypes, g.TypeLocations = []string{typ}, []inventory.Position{at}
		default:
			g.UnknownTypes = "the launch template sets no InstanceType"
		}
	}
	return g, true
}

func toIntNode(t *template, n *yaml.Node) *int {
	if n == nil {
		return nil
	}
	v, why := t.value(n)
	if why != "" {
		return nil
	}
	return toInt(v)
}
