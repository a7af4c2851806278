package terraform

import (
	"errors"
	"fmt"

	"github.com/hashicorp/hcl/v2/ext/tryfunc"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// functions are the Terraform functions eni-lint evaluates: the common collection, string and
// type-conversion ones. A call to any other function makes its value unknown, and the
// diagnostic names it.
var functions = map[string]function.Function{
	"concat": stdlib.ConcatFunc, "merge": stdlib.MergeFunc, "lookup": stdlib.LookupFunc,
	"coalesce": coalesceFunc, "coalescelist": stdlib.CoalesceListFunc,
	"length": stdlib.LengthFunc, "format": stdlib.FormatFunc, "formatlist": stdlib.FormatListFunc,
	"join": stdlib.JoinFunc, "split": stdlib.SplitFunc, "keys": stdlib.KeysFunc,
	"values": stdlib.ValuesFunc, "contains": stdlib.ContainsFunc, "distinct": stdlib.DistinctFunc,
	"flatten": stdlib.FlattenFunc, "element": stdlib.ElementFunc, "compact": stdlib.CompactFunc,
	"upper": stdlib.UpperFunc, "lower": stdlib.LowerFunc, "replace": stdlib.ReplaceFunc,
	"trimspace": stdlib.TrimSpaceFunc, "zipmap": stdlib.ZipmapFunc, "range": stdlib.RangeFunc,
	"min": stdlib.MinFunc, "max": stdlib.MaxFunc, "slice": stdlib.SliceFunc,
	"try": tryfunc.TryFunc, "can": tryfunc.CanFunc,
	"jsonencode": stdlib.JSONEncodeFunc, "jsondecode": jsonDecodeFunc,
	"tolist":   convertFunc(func(ty cty.Type) cty.Type { return cty.List(cty.DynamicPseudoType) }),
	"toset":    convertFunc(func(ty cty.Type) cty.Type { return cty.Set(cty.DynamicPseudoType) }),
	"tomap":    convertFunc(func(ty cty.Type) cty.Type { return cty.Map(cty.DynamicPseudoType) }),
	"tostring": convertFunc(func(cty.Type) cty.Type { return cty.String }),
	"tonumber": convertFunc(func(cty.Type) cty.Type { return cty.Number }),
	"tobool":   convertFunc(func(cty.Type) cty.Type { return cty.Bool }),
}

// convertFunc makes a Terraform to* function: convert the argument to a type, unifying
// element types the way Terraform does.
func convertFunc(target func(cty.Type) cty.Type) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "v", Type: cty.DynamicPseudoType, AllowNull: true, AllowUnknown: true, AllowDynamicType: true}},
		Type: func(args []cty.Value) (cty.Type, error) {
			want := target(args[0].Type())
			if !args[0].IsWhollyKnown() {
				return want, nil
			}
			v, err := convert.Convert(args[0], want)
			if err != nil {
				return cty.NilType, err
			}
			return v.Type(), nil
		},
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			return convert.Convert(args[0], retType)
		},
	})
}

// coalesceFunc is Terraform's coalesce: the first argument that is neither null nor an empty
// string.
var coalesceFunc = function.New(&function.Spec{
	VarParam: &function.Parameter{Name: "vals", Type: cty.DynamicPseudoType, AllowNull: true, AllowUnknown: true, AllowDynamicType: true},
	Type: func(args []cty.Value) (cty.Type, error) {
		for _, a := range args {
			if !a.IsKnown() {
				return cty.DynamicPseudoType, nil
			}
			if !a.IsNull() && !(a.Type() == cty.String && a.AsString() == "") {
				return a.Type(), nil
			}
		}
		return cty.DynamicPseudoType, nil
	},
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		for _, a := range args {
			if !a.IsKnown() {
				return cty.DynamicVal, nil
			}
			if !a.IsNull() && !(a.Type() == cty.String && a.AsString() == "") {
				return a, nil
			}
		}
		return cty.NilVal, errNoCoalesce
	},
})

var errNoCoalesce = errors.New("no non-null, non-empty-string arguments")

// jsonDecodeFunc is Terraform's jsondecode for documents nested at most MaxNesting deep:
// go-cty decodes recursively, and a string built by `join` can nest millions of levels.
var jsonDecodeFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "str", Type: cty.String}},
	Type:   function.StaticReturnType(cty.DynamicPseudoType),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		if jsonNestsDeeper(args[0].AsString(), MaxNesting) {
			return cty.DynamicVal, fmt.Errorf("the JSON document nests more than %d levels deep (a budget): not decoded", MaxNesting)
		}
		return stdlib.JSONDecodeFunc.Call(args)
	},
})

// jsonNestsDeeper reports whether a JSON text opens more than limit arrays and objects at once.
func jsonNestsDeeper(s string, limit int) bool {
	depth, inString := 0, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '[' || c == '{':
			if depth++; depth > limit {
				return true
			}
		case c == ']' || c == '}':
			depth--
		}
	}
	return false
}
