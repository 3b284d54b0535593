package pricing

import (
	"regexp"
	"strings"
	"sync"
)

// match is one of the catalog's rules for accepting a name: exactly one
// of its fields is set. Comparisons other than regex ignore case.
type match struct {
	Or         []match `json:"or"`
	And        []match `json:"and"`
	Equals     *string `json:"equals"`
	StartsWith *string `json:"starts_with"`
	EndsWith   *string `json:"ends_with"`
	Contains   *string `json:"contains"`
	Regex      *string `json:"regex"`
}

// regexps caches compiled regex rules by their source.
var regexps sync.Map // string -> *rule (nil when it does not compile)

// accepts reports whether the rule accepts name.
func (m *match) accepts(name string) bool {
	lower := strings.ToLower(name)
	switch {
	case m.Or != nil:
		for i := range m.Or {
			if m.Or[i].accepts(name) {
				return true
			}
		}
		return false
	case m.And != nil:
		for i := range m.And {
			if !m.And[i].accepts(name) {
				return false
			}
		}
		return true
	case m.Equals != nil:
		return lower == strings.ToLower(*m.Equals)
	case m.StartsWith != nil:
		return strings.HasPrefix(lower, strings.ToLower(*m.StartsWith))
	case m.EndsWith != nil:
		return strings.HasSuffix(lower, strings.ToLower(*m.EndsWith))
	case m.Contains != nil:
		return strings.Contains(lower, strings.ToLower(*m.Contains))
	case m.Regex != nil:
		re := compiled(*m.Regex)
		return re != nil && re.match(name)
	}
	return false
}

// rule is a compiled regex rule. Go's regexp has no lookahead, so a rule
// that starts with a negative lookahead, ^(?!X)Y, is kept as two
// expressions: the name must not match ^X and must match ^Y.
type rule struct {
	not, re *regexp.Regexp
}

func (r *rule) match(name string) bool {
	return (r.not == nil || !r.not.MatchString(name)) && r.re.MatchString(name)
}

// compiled returns the compiled regex rule, or nil when Go's regexp cannot
// compile it (a rule the test of the catalog would report).
func compiled(src string) *rule {
	if v, ok := regexps.Load(src); ok {
		r, _ := v.(*rule)
		return r
	}
	r := compile(src)
	regexps.Store(src, r)
	return r
}

func compile(src string) *rule {
	if re, err := regexp.Compile(src); err == nil {
		return &rule{re: re}
	}
	if !strings.HasPrefix(src, "^(?!") {
		return nil
	}
	depth := 0
	for i := 1; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				not, err1 := regexp.Compile("^(?:" + src[len("^(?!"):i] + ")")
				re, err2 := regexp.Compile("^(?:" + src[i+1:] + ")")
				if err1 != nil || err2 != nil {
					return nil
				}
				return &rule{not: not, re: re}
			}
		}
	}
	return nil
}
