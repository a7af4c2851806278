package terraform

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// Budgets of one root module's evaluation. A few lines of HCL can ask for a billion resource
// instances, a million-key object from nested `for`, modules that call each other without end,
// or a 100 MB string from `join` and `replace`; each is refused with a located error instead.
const (
	// MaxInstances bounds count and for_each of one resource or module call (the same bound
	// Terraform's range() has).
	MaxInstances = 1024
	// MaxIterations bounds the elements all `for` expressions of one root module visit.
	MaxIterations = 1000000
	// MaxModuleCalls bounds the local module calls one root module evaluates, nested ones
	// included.
	MaxModuleCalls = 1000
	// MaxDynamicBlocks bounds the blocks all `dynamic` blocks of one root module generate,
	// nested ones multiplied (three nested levels over 1,000 items would be a billion): it is
	// charged with a for_each's length before its blocks are made.
	MaxDynamicBlocks = 10000
	// MaxValueSize bounds the characters (and elements) a function may take or make.
	MaxValueSize = 4 << 20
)

// budgetMark is in every budget error, so that the evaluator reports it where it happens.
const budgetMark = "(a budget)"

// budgetFunc is the hidden function every `for` expression's collection is passed through
// (see meterForExpressions): it counts the elements against MaxIterations.
const budgetFunc = "__eni_lint_for_budget"

// meterForExpressions rewrites every `for` expression of a parsed body so that its collection
// goes through budgetFunc: nested loops charge the budget once per inner evaluation, so the
// total work of all loops is bounded whatever their nesting.
func meterForExpressions(body hcl.Body) {
	if syn, ok := body.(*hclsyntax.Body); ok {
		meterNode(syn)
	}
}

// meterExpression does the same for an expression parsed on its own (a template file).
func meterExpression(expr hclsyntax.Expression) { meterNode(expr) }

func meterNode(node hclsyntax.Node) {
	hclsyntax.VisitAll(node, func(n hclsyntax.Node) hcl.Diagnostics {
		if b, ok := n.(*hclsyntax.BinaryOpExpr); ok {
			if op := boundedOps[b.Op]; op != nil {
				b.Op = op
			}
		}
		if f, ok := n.(*hclsyntax.ForExpr); ok {
			if call, ok := f.CollExpr.(*hclsyntax.FunctionCallExpr); ok && call.Name == budgetFunc {
				return nil
			}
			r := f.CollExpr.Range()
			f.CollExpr = &hclsyntax.FunctionCallExpr{Name: budgetFunc, Args: []hclsyntax.Expression{f.CollExpr}, NameRange: r, OpenParenRange: r, CloseParenRange: r}
		}
		return nil
	})
}

// boundedOps replace hcl's arithmetic operators in every parsed body (meterForExpressions): a
// result whose exponent passes MaxExponent is an error, so squaring a local through a chain
// of locals cannot make a number whose digits take minutes to print.
var boundedOps = map[*hclsyntax.Operation]*hclsyntax.Operation{}

func init() {
	for _, op := range []*hclsyntax.Operation{hclsyntax.OpAdd, hclsyntax.OpSubtract, hclsyntax.OpMultiply, hclsyntax.OpDivide, hclsyntax.OpModulo} {
		boundedOps[op] = &hclsyntax.Operation{Impl: boundedArithmetic(op.Impl), Type: op.Type}
	}
}

// maxBinaryExponent is MaxExponent in powers of two (log2(10) < 3.33).
const maxBinaryExponent = MaxExponent * 333 / 100

func boundedArithmetic(f function.Function) function.Function {
	return function.New(&function.Spec{
		Params: f.Params(),
		Type:   func(args []cty.Value) (cty.Type, error) { return f.ReturnTypeForValues(args) },
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			v, err := f.Call(args)
			if err != nil || !v.IsKnown() || v.IsNull() || v.Type() != cty.Number {
				return v, err
			}
			if bf := v.AsBigFloat(); !bf.IsInf() && bf.Sign() != 0 {
				if e := bf.MantExp(nil); e > maxBinaryExponent || e < -maxBinaryExponent {
					return cty.DynamicVal, fmt.Errorf("the result's exponent passes ±%d (a budget)", MaxExponent)
				}
			}
			return v, nil
		},
	})
}

// meter counts what one root module's evaluation spends.
type meter struct {
	iterations    int
	moduleCalls   int
	dynamicBlocks int
}

// spendDynamic charges n generated blocks; false when they pass MaxDynamicBlocks, and then
// none of them is made.
func (m *meter) spendDynamic(n int) bool {
	if m == nil {
		return true
	}
	if m.dynamicBlocks+n > MaxDynamicBlocks {
		m.dynamicBlocks = MaxDynamicBlocks + 1 // every later dynamic block is refused too
		return false
	}
	m.dynamicBlocks += n
	return true
}

// functions returns the function table of one evaluation: the Terraform functions, each
// bounded in the size of what it takes and makes, and the `for` budget.
func (m *meter) functions() map[string]function.Function {
	out := make(map[string]function.Function, len(functions)+1)
	for name, f := range functions {
		if name == "try" || name == "can" { // they take expressions, not values
			out[name] = f
			continue
		}
		out[name] = bounded(name, f)
	}
	out[budgetFunc] = function.New(&function.Spec{
		Params: []function.Parameter{{Name: "collection", Type: cty.DynamicPseudoType, AllowNull: true, AllowUnknown: true, AllowDynamicType: true, AllowMarked: true}},
		Type:   func(args []cty.Value) (cty.Type, error) { return args[0].Type(), nil },
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			v := args[0]
			if v.IsKnown() && !v.IsNull() && v.CanIterateElements() {
				m.iterations += v.LengthInt()
				if m.iterations > MaxIterations {
					return cty.DynamicVal, fmt.Errorf("for expressions in this module iterate more than %d times (a budget): the value is not evaluated", MaxIterations)
				}
			}
			return v, nil
		},
	})
	return out
}

// size counts the characters and elements of a value, stopping once it passes limit.
func size(v cty.Value, limit int) int {
	if !v.IsKnown() || v.IsNull() {
		return 0
	}
	v, _ = v.Unmark()
	ty := v.Type()
	switch {
	case ty == cty.String:
		return len(v.AsString())
	case ty.IsPrimitiveType():
		return 1
	case v.CanIterateElements():
		n := 0
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			n += 1 + size(e, limit-n)
			if ty.IsMapType() || ty.IsObjectType() {
				n += size(k, limit-n)
			}
			if n > limit {
				return n
			}
		}
		return n
	}
	return 1
}

// bounded wraps a function: its arguments together, and its result, may hold at most
// MaxValueSize characters and elements, and replace and formatlist may not multiply them past it.
func bounded(name string, f function.Function) function.Function {
	spec := &function.Spec{
		Params:   f.Params(),
		VarParam: f.VarParam(),
		Type: func(args []cty.Value) (cty.Type, error) {
			return f.ReturnTypeForValues(args)
		},
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			total := 0
			for _, a := range args {
				total += size(a, MaxValueSize-total)
				if total > MaxValueSize {
					return cty.DynamicVal, fmt.Errorf("%s: arguments larger than %d characters and elements (a budget)", name, MaxValueSize)
				}
			}
			if est := estimate(name, args); est > MaxValueSize {
				return cty.DynamicVal, fmt.Errorf("%s: the result would hold about %d characters, more than %d (a budget)", name, est, MaxValueSize)
			}
			v, err := f.Call(args)
			if err != nil {
				return cty.DynamicVal, err
			}
			if size(v, MaxValueSize) > MaxValueSize {
				return cty.DynamicVal, fmt.Errorf("%s: the result is larger than %d characters and elements (a budget)", name, MaxValueSize)
			}
			return v, nil
		},
	}
	return function.New(spec)
}

// estimate is the size of a result that may be much larger than the arguments.
func estimate(name string, args []cty.Value) int {
	known := func(v cty.Value) bool { return v.IsKnown() && !v.IsNull() }
	switch name {
	case "replace":
		if len(args) == 3 && known(args[0]) && known(args[1]) && known(args[2]) &&
			args[0].Type() == cty.String && args[1].Type() == cty.String && args[2].Type() == cty.String {
			s, old, repl := args[0].AsString(), args[1].AsString(), args[2].AsString()
			n := len(s) + 1
			if old != "" {
				n = strings.Count(s, old)
			}
			return len(s) + n*len(repl)
		}
	case "formatlist":
		longest := 1
		total := 0
		for _, a := range args {
			if known(a) && a.CanIterateElements() && a.LengthInt() > longest {
				longest = a.LengthInt()
			}
			total += size(a, MaxValueSize)
		}
		return total * longest
	}
	return 0
}
