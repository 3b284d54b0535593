package protocol

import (
	"strconv"
	"strings"
)

// schemaErrors validates delimiter arguments against the tool's TypeBox
// schema the way pi's AJV instance does ({allErrors, strict:false,
// coerceTypes:true}): it coerces scalars to strings in place and returns
// the error lines in AJV's order, each as "<path>: <message>". The schema:
//
//	{type:object, required:[action], properties:{
//	  action: anyOf[{const:start,type:string},{const:end,type:string}],
//	  name: {type:string},
//	  type: anyOf[{const:expl,type:string},{const:act,type:string}],
//	  dependencies: {type:array, items:{type:string}},
//	  description: {type:string}}}
func schemaErrors(args *jsValue) []string {
	if args.kind != jsObject {
		return []string{"root: must be object"}
	}
	var errs []string
	if args.get("action") == nil {
		errs = append(errs, "action: must have required property 'action'")
	}
	errs = append(errs, literalUnion("action", args.get("action"), "start", "end")...)
	errs = append(errs, stringProp("name", args.get("name"))...)
	errs = append(errs, literalUnion("type", args.get("type"), "expl", "act")...)
	if deps := args.get("dependencies"); deps != nil {
		if deps.kind != jsArray {
			errs = append(errs, "dependencies: must be array")
		} else {
			for i, d := range deps.arr {
				errs = append(errs, stringProp("dependencies/"+strconv.Itoa(i), d)...)
			}
		}
	}
	errs = append(errs, stringProp("description", args.get("description"))...)
	return errs
}

// stringProp checks an optional {type:string} property, coercing it.
func stringProp(path string, v *jsValue) []string {
	if v == nil || v.coerceString() {
		return nil
	}
	return []string{path + ": must be string"}
}

// literalUnion checks an optional anyOf of two string literals. Each
// branch reports its own failures ("must be string" when the value cannot
// be coerced, then "must be equal to constant"), then anyOf reports that no
// branch matched.
func literalUnion(path string, v *jsValue, a, b string) []string {
	if v == nil {
		return nil
	}
	isString := v.coerceString()
	if isString && (v.str == a || v.str == b) {
		return nil
	}
	var errs []string
	for range 2 {
		if !isString {
			errs = append(errs, path+": must be string")
		}
		errs = append(errs, path+": must be equal to constant")
	}
	return append(errs, path+": must match a schema in anyOf")
}

// validationText is the text of a schema failure, as pi's
// validateToolArguments formats it.
func validationText(tool string, errs []string, args *jsValue) string {
	var b strings.Builder
	b.WriteString(`Validation failed for tool "` + tool + `":` + "\n")
	for i, e := range errs {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString("  - " + e)
	}
	b.WriteString("\n\nReceived arguments:\n")
	args.pretty(&b, "")
	return b.String()
}
