package terraform

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/hashicorp/hcl/v2/ext/tryfunc"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"

	"github.com/eni-lint/eni-lint/pkg/yamlpos"
)

// functions are the Terraform functions eni-lint evaluates: the common collection, string and
// type-conversion ones. A call to any other function makes its value unknown, and the
// diagnostic names it.
var functions = map[string]function.Function{
	"concat": stdlib.ConcatFunc, "merge": stdlib.MergeFunc, "lookup": lookupFunc,
	"coalesce": coalesceFunc, "coalescelist": stdlib.CoalesceListFunc,
	"length": lengthFunc, "format": stdlib.FormatFunc, "formatlist": stdlib.FormatListFunc,
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
	"abs":      stdlib.AbsoluteFunc, "ceil": stdlib.CeilFunc, "floor": stdlib.FloorFunc, "signum": stdlib.SignumFunc,
	"parseint": stdlib.ParseIntFunc, "chunklist": stdlib.ChunklistFunc, "reverse": stdlib.ReverseListFunc,
	"setunion": stdlib.SetUnionFunc, "setintersection": stdlib.SetIntersectionFunc, "setsubtract": stdlib.SetSubtractFunc,
	"sort": stdlib.SortFunc, "strrev": stdlib.ReverseFunc, "substr": stdlib.SubstrFunc, "chomp": stdlib.ChompFunc,
	"indent": stdlib.IndentFunc, "title": stdlib.TitleFunc, "trim": stdlib.TrimFunc, "trimprefix": stdlib.TrimPrefixFunc,
	"trimsuffix": stdlib.TrimSuffixFunc, "regex": stdlib.RegexFunc, "regexall": stdlib.RegexAllFunc,
	// Marks are not modelled: the value is the value.
	"sensitive": identityFunc, "nonsensitive": identityFunc,
	// Path text only, no file system: name = "ex-${basename(path.cwd)}" is common.
	"basename": pathFunc(filepath.Base), "dirname": pathFunc(filepath.Dir),
}

func pathFunc(f func(string) string) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "path", Type: cty.String}},
		Type:   function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			return cty.StringVal(f(args[0].AsString())), nil
		},
	})
}

var identityFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "value", Type: cty.DynamicPseudoType, AllowNull: true, AllowUnknown: true, AllowDynamicType: true, AllowMarked: true}},
	Type:   func(args []cty.Value) (cty.Type, error) { return args[0].Type(), nil },
	Impl:   func(args []cty.Value, _ cty.Type) (cty.Value, error) { return args[0], nil },
})

// notEvaluated are Terraform's other functions. eni-lint does not evaluate them: some read
// files or the clock (templatefile outside kubectl_manifest, timestamp; file() and fileset()
// are evaluated, confined, per root module: see fileFunc and filesetFunc), some only matter to values the
// verdict does not use (cidrsubnet, base64encode). Each returns an unknown value, so that
// only what depends on the call is unknown, and the reason names the function; a call to a
// name that is no Terraform function at all stays an error.
var notEvaluated = []string{
	"fileexists", "filebase64", "filebase64sha256", "filebase64sha512", "filemd5",
	"filesha1", "filesha256", "filesha512", "templatefile", "templatestring", "abspath",
	"pathexpand", "base64encode", "base64decode", "base64gzip", "base64sha256",
	"base64sha512", "md5", "sha1", "sha256", "sha512", "bcrypt", "uuid", "uuidv5", "timestamp",
	"plantimestamp", "formatdate", "timeadd", "timecmp", "cidrhost", "cidrnetmask", "cidrsubnet",
	"cidrsubnets", "yamlencode", "urlencode", "textencodebase64", "textdecodebase64",
	"csvdecode", "one", "sum", "alltrue", "anytrue", "index", "transpose", "setproduct",
	"startswith", "endswith", "strcontains", "pow", "log", "type", "issensitive", "ephemeralasnull",
}

var unknownResult = function.New(&function.Spec{
	VarParam: &function.Parameter{Name: "args", Type: cty.DynamicPseudoType, AllowNull: true, AllowUnknown: true, AllowDynamicType: true, AllowMarked: true},
	Type:     function.StaticReturnType(cty.DynamicPseudoType),
	Impl:     func([]cty.Value, cty.Type) (cty.Value, error) { return cty.DynamicVal, nil },
})

func init() {
	for _, name := range notEvaluated {
		functions[name] = unknownResult
	}
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

func isNotEvaluated(name string) bool {
	for _, n := range notEvaluated {
		if n == name {
			return true
		}
	}
	return false
}

// lengthFunc is Terraform's length: of a string (its characters, as strlen counts them), of
// an object or tuple (its attributes or elements), or of a collection. go-cty's refuses
// strings and objects, and `count = length(var.config) > 0 ? 1 : 0` is common.
var lengthFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "value", Type: cty.DynamicPseudoType, AllowUnknown: true, AllowDynamicType: true, AllowMarked: true}},
	Type:   function.StaticReturnType(cty.Number),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		v := args[0]
		ty := v.Type()
		switch {
		case ty == cty.String:
			if !v.IsKnown() {
				return cty.UnknownVal(cty.Number), nil
			}
			return stdlib.StrlenFunc.Call([]cty.Value{v})
		case ty.IsObjectType():
			return cty.NumberIntVal(int64(len(ty.AttributeTypes()))), nil
		case ty.IsTupleType():
			return cty.NumberIntVal(int64(len(ty.TupleElementTypes()))), nil
		}
		return stdlib.LengthFunc.Call([]cty.Value{v})
	},
})

// yamlDecodeFunc is Terraform's yamldecode, and the kubernetes provider's
// provider::kubernetes::manifest_decode (one document) and manifest_decode_multi (a list of
// them): YAML read within the run's budgets (documents, alias expansion), then typed as
// jsondecode types JSON (and within its nesting budget). `manifest = yamldecode(file("sgp.yaml"))`
// is how many kubernetes_manifest resources are written; without it their objects were unknown.
// YAML that cannot be read makes only this value unknown, and failed says why (the reason the
// report gives names it).
// yamlDecoders are the YAML decoding functions, and whether each returns a list of documents.
var yamlDecoders = map[string]bool{
	"yamldecode": false, "provider::kubernetes::manifest_decode": false, "provider::kubernetes::manifest_decode_multi": true,
}

// decodeBudget is what every yamldecode of one root module may decode together, in bytes of
// YAML read and of the value built: each call has the stream's budgets (documents, aliases),
// and a `for` expression over thousands of calls spent one each. Past it a call's value is
// unknown with the reason.
type decodeBudget struct{ left int64 }

// MaxDecodedBytes is a root module's decodeBudget.
const MaxDecodedBytes = 64 << 20

func (b *decodeBudget) spend(n int) bool {
	if b == nil {
		return true
	}
	b.left -= int64(n)
	return b.left >= 0
}

func yamlDecodeFunc(lim yamlpos.Limits, multi bool, failed func(why string), shared *decodeBudget) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "src", Type: cty.String}},
		Type:   function.StaticReturnType(cty.DynamicPseudoType),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			src := args[0].AsString()
			if !shared.spend(len(src)) {
				failed(fmt.Sprintf("the module's yamldecode calls read more than %d MiB together (a budget)", MaxDecodedBytes>>20))
				return cty.DynamicVal, nil
			}
			v, why := decodeYAML(src, lim, multi, shared)
			if why != "" {
				failed(why)
				return cty.DynamicVal, nil
			}
			return v, nil
		},
	})
}

func decodeYAML(src string, lim yamlpos.Limits, multi bool, budget *decodeBudget) (cty.Value, string) {
	docs, err := yamlpos.DocumentsWithin([]byte(src), lim)
	if err != nil {
		return cty.DynamicVal, "the YAML cannot be read: " + err.Error()
	}
	var values []any
	for _, d := range docs {
		var v any
		if err := d.Decode(&v); err != nil {
			return cty.DynamicVal, "the YAML cannot be read: " + err.Error()
		}
		if v != nil || !multi {
			values = append(values, v)
		}
	}
	var out any = values
	if !multi {
		if len(values) != 1 {
			return cty.DynamicVal, fmt.Sprintf("the YAML holds %d documents, where one is expected", len(values))
		}
		out = values[0]
	}
	text, err := json.Marshal(out)
	if err != nil {
		return cty.DynamicVal, "the YAML has a value JSON cannot hold: " + err.Error()
	}
	if !budget.spend(len(text)) {
		return cty.DynamicVal, fmt.Sprintf("the module's yamldecode calls built more than %d MiB together (a budget)", MaxDecodedBytes>>20)
	}
	v, err := jsonDecodeFunc.Call([]cty.Value{cty.StringVal(string(text))})
	if err != nil {
		return cty.DynamicVal, err.Error()
	}
	return v, ""
}

func isYAMLDecoder(name string) bool {
	_, ok := yamlDecoders[name]
	return ok
}

// lookupFunc is Terraform's lookup(map, key, default): cty's, except that the default may be
// null, as Terraform allows (lang/funcs: `labels = lookup(each.value, "labels", null)` is
// common in Fargate and node group modules). cty's refuses a null argument, which made the
// value unknown and dropped the resource.
var lookupFunc = function.New(&function.Spec{
	Description: "Returns the element with the given key, or the default (which may be null).",
	Params: []function.Parameter{
		{Name: "inputMap", Type: cty.DynamicPseudoType, AllowMarked: true},
		{Name: "key", Type: cty.String, AllowMarked: true},
	},
	VarParam: &function.Parameter{Name: "default", Type: cty.DynamicPseudoType, AllowNull: true, AllowUnknown: true, AllowDynamicType: true, AllowMarked: true},
	Type: func(args []cty.Value) (cty.Type, error) {
		if len(args) != 3 {
			return cty.NilType, function.NewArgErrorf(1, "lookup() takes a map, a key and a default")
		}
		if !args[2].IsNull() {
			return stdlib.LookupFunc.ReturnTypeForValues(args)
		}
		ty := args[0].Type()
		switch {
		case !args[1].IsKnown():
			return cty.DynamicPseudoType, nil
		case ty.IsObjectType():
			if key := args[1].AsString(); ty.HasAttribute(key) {
				return ty.AttributeType(key), nil
			}
			return cty.DynamicPseudoType, nil
		case ty.IsMapType():
			return ty.ElementType(), nil
		}
		return cty.NilType, function.NewArgErrorf(0, "lookup() requires a map as the first argument")
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		if !args[2].IsNull() {
			return stdlib.LookupFunc.Call(args)
		}
		m, key := args[0], args[1]
		if !m.IsKnown() || !key.IsKnown() {
			return cty.UnknownVal(retType), nil
		}
		if m.IsNull() {
			return cty.NilVal, errors.New("lookup() on a null map")
		}
		k := key.AsString()
		ty := m.Type()
		switch {
		case ty.IsObjectType() && ty.HasAttribute(k):
			return m.GetAttr(k), nil
		case ty.IsMapType() && m.HasIndex(key).True():
			return m.Index(key), nil
		}
		return cty.NullVal(retType), nil
	},
})
