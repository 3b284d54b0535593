package extract

import (
	"context"
	"regexp"
	"strings"

	"ctxscope/engine/memory"
	"ctxscope/engine/memory/extract/morph"
	"ctxscope/engine/memory/temporal"
)

// Tagged is the default offline extractor: precision first, from the
// parts of speech a trained tagger gives each word (see tagSentence) and
// WordNet's lemmas (see morph). It reads:
//   - clauses whose subject is the speaker ("I", "we", "my friends and I")
//     or a name: the verb's lemma with its particle or preposition as the
//     predicate ("went to" → "go to"), and the noun phrase, or the
//     activity ("camping"), after it as the object. Hypothetical and
//     negated clauses ("I would love to", "I didn't go") are left out;
//     future ones ("I'm going to", "I will") get the condition
//     "planned";
//   - "I am a teacher": (speaker, is, teacher);
//   - "my dog Max": (speaker, has dog named, Max).
//
// Objects are noun phrases without determiners, evaluative adjectives or
// pronouns, and never a word that says nothing on its own ("thing",
// "lot", "time"). Each entity gets a type: person, place, organisation,
// event, object or activity. Each triple gets the first time expression
// of its sentence, normalized against the passage's time.
type Tagged struct{}

// Name returns "tagged".
func (Tagged) Name() string { return "tagged" }

// Extract reads one passage.
func (Tagged) Extract(_ context.Context, p memory.Passage) (memory.Extraction, error) {
	ex := memory.Extraction{Types: map[string]string{p.Speaker: "person"}}
	seen := map[string]bool{}
	for _, s := range statements(stripCaption(p.Text)) {
		when, _ := temporal.Normalize(s, p.Time)
		r := reader{speaker: p.Speaker, toks: tagSentence(doubleQuoted(s)), types: ex.Types}
		for _, t := range r.read() {
			t.Time = when
			key := strings.ToLower(t.Subject + "|" + t.Predicate + "|" + t.Object)
			if seen[key] || strings.EqualFold(t.Subject, t.Object) {
				continue
			}
			seen[key] = true
			ex.Triples = append(ex.Triples, t)
		}
	}
	ents := map[string]bool{}
	for _, t := range ex.Triples {
		for _, e := range []string{t.Subject, t.Object} {
			if !ents[e] {
				ents[e] = true
				ex.Entities = append(ex.Entities, e)
			}
		}
	}
	for name := range ex.Types {
		if !ents[name] {
			delete(ex.Types, name)
		}
	}
	return ex, nil
}

// reader reads the triples of one tagged sentence.
type reader struct {
	speaker string
	toks    []tagged
	types   map[string]string
}

func (r *reader) word(i int) string { return strings.ToLower(r.toks[i].text) }
func (r *reader) tag(i int) string  { return r.toks[i].tag }

func (r *reader) read() []memory.Triple {
	var out []memory.Triple
	for i := 0; i < len(r.toks); i++ {
		if subj, next, ok := r.subject(i); ok {
			out = append(out, r.clause(subj, next)...)
		}
		if t, ok := r.named(i); ok {
			out = append(out, t)
		}
	}
	return out
}

// subject recognises a clause subject at i: "I" or "we" (the speaker), or
// a name right before a verb. It returns the subject and where the verb
// group starts.
func (r *reader) subject(i int) (string, int, bool) {
	w, t := r.word(i), r.tag(i)
	if r.subordinate(i) {
		return "", 0, false // "when I was a kid", "if we go", "what I learned", "the pic I took"
	}
	switch {
	case firstPerson(w) && strings.HasSuffix(strings.ReplaceAll(w, "’", "'"), "'d") && i+1 < len(r.toks) && (r.tag(i+1) == "VB" || r.tag(i+1) == "VBP"):
		return "", 0, false // "we'd go": would, not a fact
	case (t == "PRP" && (w == "i" || w == "we")) || firstPerson(w):
		return r.speaker, i + 1, true
	case isProper(t) && capitalised(r.toks[i].text) && !evaluative(w) && !greeting(w) && (i == 0 || !isProper(r.tag(i-1))) && nameLike(w):
		j := i
		for j < len(r.toks) && isProper(r.tag(j)) {
			j++
		}
		if j < len(r.toks) && (r.tag(j) == "VBD" || r.tag(j) == "VBZ") && j-i <= 3 && !greeting(r.word(max(i-1, 0))) && (i == 0 || r.tag(i-1) != ",") {
			name := r.span(i, j)
			if _, known := r.types[name]; !known {
				r.types[name] = "person"
			}
			return name, j, true
		}
	}
	return "", 0, false
}

// subordinate reports a subject at i that starts a subordinate or
// relative clause: after a conditional or time word ("when I was a kid",
// "unless someday I decide"), a wh-word ("what I learned"), or a noun
// ("the pic I took").
func (r *reader) subordinate(i int) bool {
	k := i - 1
	for k >= 0 && (r.tag(k) == "RB" || r.tag(k) == "JJ") && k >= i-2 {
		if conditional(r.word(k)) {
			return true // "Wish I had", tagged as an adjective
		}
		k--
	}
	if k < 0 {
		return false
	}
	if k == i-1 && k > 0 && timeWord(r.word(k)) && r.word(k-1) == "the" {
		return true // "can't wait for the day I go": which day, not what happened
	}
	return conditional(r.word(k)) || r.tag(k) == "WP" || r.tag(k) == "WDT" || r.tag(k) == "WRB" ||
		(isNoun(r.tag(k)) && !timeWord(r.word(k)) && (r.tag(i) == "PRP" || firstPerson(r.word(i))))
}

// clause reads the verb group from j and the object after it.
func (r *reader) clause(subject string, j int) []memory.Triple {
	planned, be, got := false, false, false
	for ; j < len(r.toks); j++ {
		w, t := r.word(j), r.tag(j)
		switch {
		case t == "RB" && (w == "not" || w == "n't" || w == "never"):
			return nil
		case t == "MD" && (w == "will" || w == "'ll"):
			planned = true
		case t == "MD":
			return nil // would, could, might, should: not a fact
		case t == "RB":
		case t == "VBN" && be:
			return nil // "I was stoked", "I'm always drawn to": not the subject's act
		case isVerb(t) && auxiliary(w) && j+1 < len(r.toks) && (isVerb(r.tag(j+1)) || r.tag(j+1) == "RB") && !copulaBeforeObject(r, j):
			if w == "going" || w == "gonna" {
				planned = true
			}
			be = be || isBe(w)
			got = got || w == "got" || w == "get" || w == "gotten"
		default:
			ts := r.predicate(subject, j, planned)
			if got && t == "VBN" {
				// "I got accepted for an internship": the passive, as it was said.
				lemma := morph.Lemma(w, morph.Verb)
				for i := range ts {
					ts[i].Predicate = "get " + w + strings.TrimPrefix(ts[i].Predicate, lemma)
				}
			}
			return ts
		}
	}
	return nil
}

// copulaBeforeObject reports whether the be-form at j links the subject to
// a noun phrase ("I am a teacher") rather than helping a verb.
func copulaBeforeObject(r *reader, j int) bool {
	return isBe(r.word(j)) && j+1 < len(r.toks) && (r.tag(j+1) == "DT" || isNoun(r.tag(j+1)))
}

// predicate reads the main verb at j and its object.
func (r *reader) predicate(subject string, j int, planned bool) []memory.Triple {
	if j >= len(r.toks) {
		return nil
	}
	cond := ""
	if planned {
		cond = "planned"
	}
	if isBe(r.word(j)) {
		if planned {
			return nil
		}
		return r.copula(subject, j)
	}
	pred, k, ok := r.verbPhrase(j)
	if !ok || planned && preference(pred) {
		return nil // "I'll enjoy writing them": a promise, not a taste
	}
	if k < len(r.toks) && r.tag(k) == "VBG" { // "went camping", "started playing guitar"
		return r.activity(subject, pred, k, cond)
	}
	return r.object(subject, pred, k, cond)
}

// copula reads "I am a counselor" at the be-form j: a determiner first,
// not "I'm game".
func (r *reader) copula(subject string, j int) []memory.Triple {
	if j+1 >= len(r.toks) || r.tag(j+1) != "DT" || r.word(j+1) == "no" {
		return nil // "I'm no writer": a denial
	}
	obj, typ, end := r.nounPhrase(j + 1)
	if obj == "" || !strings.Contains(obj, " ") && evaluative(obj) {
		return nil
	}
	if !strings.Contains(obj, " ") && genericHead(strings.ToLower(obj)) {
		more, ok := r.attachment(end) // "a fan of savasana"
		if !ok {
			return nil
		}
		obj += " " + more
	}
	r.setType(obj, typ)
	return []memory.Triple{{Subject: subject, Predicate: "is", Object: obj}}
}

// verbPhrase reads the verb at j as a predicate, with the inner verb of an
// intention ("decided to adopt") and a particle or preposition ("moved
// to"), and returns where its object starts. It is not ok for a word that
// is no verb, a light verb, or an infinitive that names no place.
func (r *reader) verbPhrase(j int) (pred string, k int, ok bool) {
	w := r.word(j)
	if !isVerb(r.tag(j)) || !alphabetic(w) {
		return "", 0, false
	}
	pred = morph.Lemma(w, morph.Verb)
	if light(w) || light(pred) || !morph.Known(pred, morph.Verb) {
		return "", 0, false
	}
	k = j + 1
	for k < len(r.toks) && r.tag(k) == "RB" {
		k++
	}
	// "decided to adopt a dog", "plan to visit Paris": the inner verb.
	if k+1 < len(r.toks) && r.tag(k) == "TO" && r.tag(k+1) == "VB" {
		if inner := r.word(k + 1); !intends(pred) || light(inner) || light(morph.Lemma(inner, morph.Verb)) {
			return "", 0, false // "started to realize": a thought, not an act
		}
		pred += " to " + morph.Lemma(r.word(k+1), morph.Verb)
		k += 2
	}
	if k < len(r.toks) && (r.tag(k) == "RP" || (r.tag(k) == "IN" && preposition(r.word(k))) || r.tag(k) == "TO") {
		if r.tag(k) == "TO" && (k+1 >= len(r.toks) || !(r.tag(k+1) == "DT" || isNoun(r.tag(k+1)) || r.tag(k+1) == "PRP$")) {
			return "", 0, false // "want to share": an infinitive, not a place
		}
		if pred == "take" && r.word(k) != "up" && r.word(k) != "on" {
			return "", 0, false // "a pic I took at the park": where a photo was taken
		}
		pred += " " + r.word(k)
		k++
		if r.tag(k-1) == "RP" && k+1 < len(r.toks) && r.tag(k) == "IN" && preposition(r.word(k)) && (r.tag(k+1) == "DT" || isNoun(r.tag(k+1)) || r.tag(k+1) == "PRP$") {
			pred += " " + r.word(k) // "signed up for a class"
			k++
		}
	}
	return pred, k, true
}

// activity reads an activity named by the gerund at k ("went camping",
// "started playing guitar") as the object of pred.
func (r *reader) activity(subject, pred string, k int, cond string) []memory.Triple {
	lemma := morph.Lemma(r.word(k), morph.Verb)
	if light(lemma) || vagueWord(r.word(k)) || genericActivity(lemma) {
		return nil
	}
	act := r.word(k)
	if !alphabetic(act) || k+1 < len(r.toks) && r.tag(k+1) == "RP" {
		return nil // "like breaking up my studying": the particle's verb, cut
	}
	obj, _, end := r.nounPhrase(k + 1)
	m := k + 1 // the preposition after the gerund, past an adverb: "caring more about"
	for m < len(r.toks) && strings.HasPrefix(r.tag(m), "RB") {
		m++
	}
	if obj != "" && k+1 < len(r.toks) && r.tag(k+1) != "IN" {
		act += " " + obj
		if more, ok := r.attachment(end); ok && r.completes(end, obj) {
			act += " " + more // "shooting a video for my new album"
		}
	} else if more, ok := r.attachment(m); ok && (r.names(m+1) || lostWithout(r.word(m))) {
		act += " " + more // "listening to Nils Frahm", "caring for my pups"
	} else if m < len(r.toks) && lostWithout(r.word(m)) {
		return nil // "love caring for": what is cared for could not be read
	} else if k+1 < len(r.toks) && (r.tag(k+1) == "DT" || r.tag(k+1) == "JJ" || r.tag(k+1) == "FW" || isNoun(r.tag(k+1))) {
		return nil // "love playing pro ball": an object there that could not be read
	} else if !morph.Known(act, morph.Noun) {
		return nil // a bare "throwing": not an activity by name
	}
	r.setType(act, "activity")
	return []memory.Triple{{Subject: subject, Predicate: pred, Object: act, Condition: cond}}
}

// object reads the noun phrase at k as the object of pred, with what says
// which one a generic object is ("a trip to Canada").
func (r *reader) object(subject, pred string, k int, cond string) []memory.Triple {
	if k < len(r.toks) && r.tag(k) == "PRP$" && r.word(k) != "my" && r.word(k) != "our" {
		return nil // "I love your commitment": about the listener
	}
	if k < len(r.toks) && r.word(k) == "no" {
		return nil // "I had no idea": a denial
	}
	obj, typ, end := r.nounPhrase(k)
	if obj == "" || !strings.Contains(obj, " ") && evaluative(strings.ToLower(obj)) || calendarWord(obj) {
		return nil // "return on July 20": a date is the triple's time, not its object
	}
	// "found these lovely flowers", "this new RPG": which one is not said,
	// unless what follows says it ("adopted this cute pup from a shelter").
	vague := k < len(r.toks) && vagueDeterminer(r.word(k)) && !strings.Contains(obj, " ") && !r.completes(end, obj)
	if _, ok := r.attachment(end); vague && (!ok || !demonstrative(r.word(k))) {
		return nil
	}
	if preference(pred) && !strings.Contains(obj, " ") && quality(strings.ToLower(obj)) {
		if more, ok := r.attachment(end); !ok || !strings.HasPrefix(more, "of ") {
			return nil // "I love the color": a remark on what was shown
		}
	}
	if idiom(pred, obj) {
		return nil // "crossing my fingers", "lend a hand": said, not done
	}
	if strings.HasPrefix(pred, "have") && (pred != "have" || !possession(obj) && typ != "event") {
		return nil // "have" states a fact only of what one keeps, or of an event one held
	}
	obj, ok := r.completed(pred, obj, end, vague)
	if !ok {
		return nil
	}
	r.setType(obj, typ)
	return []memory.Triple{{Subject: subject, Predicate: pred, Object: obj, Condition: cond}}
}

// completed returns the object obj of pred, which ends at end, with the
// attachment after it that says which one it is, where one is needed or
// says more: always for a vague object and a generic head ("a trip to
// Canada"), where to or what for after a carrier ("took the kids to the
// park"), and whatever completes it otherwise ("headphones from
// Sennheiser"). It is not ok for a generic head with nothing after it.
func (r *reader) completed(pred, obj string, end int, vague bool) (string, bool) {
	more, ok := r.attachment(end)
	switch {
	case vague:
		return obj + " " + more, ok
	case !strings.Contains(obj, " ") && genericHead(strings.ToLower(obj)):
		return obj + " " + more, ok // "a trip" says little; "a trip to Canada" says what
	case carries(pred):
		if ok && (strings.HasPrefix(more, "to ") || strings.HasPrefix(more, "for ")) {
			return obj + " " + more, true
		}
	case ok && r.completes(end, obj):
		return obj + " " + more, true
	}
	return obj, true
}

// completes reports whether the attachment at i says what the object
// obj before it is, where the object would be weak without it: a name
// ("called Sleep", "from Sennheiser", "a flight ticket to Boston"), a
// work's topic ("a blog on car mods") or what the object is of ("a
// collection of books").
func (r *reader) completes(i int, obj string) bool {
	if i >= len(r.toks) {
		return false
	}
	switch w := r.word(i); {
	case w == "called" || w == "named" || w == "of":
		return true // "the structure of the language"
	case (w == "on" || w == "about") && topical(morph.Lemma(lastWord(obj), morph.Noun)):
		return true
	case w == "for":
		head := morph.Lemma(lastWord(obj), morph.Noun)
		return event(head) || topical(head) || genericHead(head) // "an interview for a design internship"
	case w == "to" || w == "from" || w == "in" || w == "at" || w == "by":
		return r.names(i + 1)
	}
	return false
}

// names reports a name or a quoted title at i, after any determiner.
func (r *reader) names(i int) bool {
	for i < len(r.toks) && r.tag(i) == "DT" {
		i++
	}
	return i < len(r.toks) && (quote(r.toks[i].text) || isProper(r.tag(i)) && capitalised(r.toks[i].text))
}

// attachment reads what says which one a generic object is: a
// preposition and its noun phrase ("to Canada", "as a Financial
// Analyst").
func (r *reader) attachment(i int) (string, bool) {
	if i >= len(r.toks) || !attachers[r.word(i)] {
		return "", false
	}
	np, _, _ := r.nounPhrase(i + 1)
	if np == "" && r.loneGerund(i+1) {
		np = r.word(i + 1) // "a blog about coding"
	}
	if np == "" {
		return "", false
	}
	return r.word(i) + " " + np, true
}

// loneGerund reports a gerund at i that ends the sentence and names an
// activity on its own: "coding", "painting".
func (r *reader) loneGerund(i int) bool {
	return i < len(r.toks) && r.tag(i) == "VBG" && (i+1 == len(r.toks) || r.tag(i+1) == "." || r.tag(i+1) == ",") &&
		morph.Known(r.word(i), morph.Noun)
}

// named reads "my dog Max" as (speaker, has dog named, Max).
func (r *reader) named(i int) (memory.Triple, bool) {
	if r.tag(i) != "PRP$" || (r.word(i) != "my" && r.word(i) != "our") || i+2 >= len(r.toks) {
		return memory.Triple{}, false
	}
	if !isCommon(r.tag(i+1)) || !isProper(r.tag(i+2)) {
		return memory.Triple{}, false
	}
	j := i + 2
	for j < len(r.toks) && isProper(r.tag(j)) && j-i <= 4 {
		j++
	}
	kind := morph.Lemma(r.word(i+1), morph.Noun)
	name := r.span(i+2, j)
	r.setType(name, typeOfKind(kind))
	return memory.Triple{Subject: r.speaker, Predicate: "has " + kind + " named", Object: name}, true
}

// nounPhrase reads the noun phrase starting at i: determiners and
// evaluative adjectives dropped, at most five words, ending in a noun.
// It returns the phrase, its type and where it ends.
func (r *reader) nounPhrase(i int) (string, string, int) {
	for i < len(r.toks) && (r.tag(i) == "DT" || r.tag(i) == "PRP$" || r.tag(i) == "PDT") {
		i++
	}
	if title, end, ok := r.title(i); ok {
		r.setType(title, "object")
		return title, "object", end
	}
	start := i
	for start < len(r.toks) && r.tag(start) == "JJ" && evaluative(r.word(start)) {
		start++
	}
	j, ok := r.phraseEnd(start)
	if !ok || j == start || !r.plainPhrase(start, j) {
		return "", "", j
	}
	if r.allProper(start, j) {
		j = r.ofName(j) // "Lord of the Rings"
		name := r.span(start, j)
		return name, r.properType(start, name), j
	}
	phrase := r.phraseWords(start, j)
	if event(morph.Lemma(r.word(j-1), morph.Noun)) {
		return phrase, "event", j
	}
	return phrase, "object", j
}

// phraseEnd returns where the noun phrase that starts at start ends: at
// most five words, before a time word or a count of time, ending on a
// noun, or on a gerund that is one ("wine tasting"), and not on a
// preposition the tagger took for a noun ("the first step towards"). It
// is not ok for a name called out after a vague noun ("the thought
// Nate").
func (r *reader) phraseEnd(start int) (int, bool) {
	j := start
	for j < len(r.toks) && j-start < 5 && !(j > start && timeWord(r.word(j))) && !r.duration(j) && !firstPerson(r.word(j)) && r.word(j) != "i" &&
		(isNoun(r.tag(j)) || r.tag(j) == "JJ" || r.tag(j) == "CD" || (r.tag(j) == "VBG" && (j > start || j+1 < len(r.toks) && isNoun(r.tag(j+1)))) || r.possessive(j, start)) {
		if j > start && isProper(r.tag(j)) && isCommon(r.tag(j-1)) && vagueWord(r.word(j-1)) {
			return j, false
		}
		j++
	}
	for j > start && (!isNoun(r.tag(j-1)) && !(r.tag(j-1) == "VBG" && j-1 > start && r.tag(j-2) != "NNS" && morph.Known(r.word(j-1), morph.Noun)) || objectPrepositions[r.word(j-1)]) {
		j-- // a gerund after a plural starts a clause: "organizations fighting for"
	}
	return j, true
}

// plainPhrase reports whether the words from start to j make an entity:
// no adjective inside that is evaluative or no noun (too loose), and a
// head that says something ("a council meeting" does; "a meeting" not).
func (r *reader) plainPhrase(start, j int) bool {
	for k := start; k < j; k++ {
		if r.tag(k) == "JJ" && (evaluative(r.word(k)) || !morph.Known(r.word(k), morph.Noun)) {
			return false
		}
	}
	head := r.word(j - 1)
	vague := vagueWord(head) || vagueWord(morph.Lemma(head, morph.Noun))
	if vague && j-1 > start && namedEvent(morph.Lemma(head, morph.Noun), r.word(j-2), r.tag(j-2)) {
		vague = false
	}
	return !vague && !pronounLike(head) && alphabetic(head)
}

func (r *reader) allProper(start, j int) bool {
	for k := start; k < j; k++ {
		if !isProper(r.tag(k)) {
			return false
		}
	}
	return true
}

// phraseWords writes a common noun phrase: names as written, the head
// as its lemma, a possessive kept on its word ("veteran's hospital"),
// chat shorthand in full.
func (r *reader) phraseWords(start, j int) string {
	words := make([]string, 0, j-start)
	for k := start; k < j; k++ {
		if r.tag(k) == "POS" && len(words) > 0 {
			words[len(words)-1] += r.toks[k].text
			continue
		}
		w := r.word(k)
		name := isProper(r.tag(k)) || capitalised(r.toks[k].text) && k > 0
		if name {
			w = r.toks[k].text
		}
		if k == j-1 && !name {
			w = morph.Lemma(w, morph.Noun)
		}
		words = append(words, alias(w))
	}
	return strings.Join(words, " ")
}

// possessive reports a possessive ending at j inside a noun phrase that
// goes on with a noun: "a veteran's hospital".
func (r *reader) possessive(j, start int) bool {
	return r.tag(j) == "POS" && j > start && j+1 < len(r.toks) && isNoun(r.tag(j+1)) && isCommon(r.tag(j-1))
}

// title reads a quoted title at i ("\"Charlotte's Web\"", "\"The Lord of
// the Rings\""): the words between the quotes, at most eight, joined as
// they were written. It returns the title and where it ends.
func (r *reader) title(i int) (string, int, bool) {
	if i >= len(r.toks) || !quote(r.toks[i].text) {
		return "", i, false
	}
	var b strings.Builder
	for j := i + 1; j < len(r.toks) && j <= i+9; j++ {
		t := r.toks[j].text
		if quote(t) {
			if b.Len() == 0 {
				return "", j + 1, false
			}
			return b.String(), j + 1, true
		}
		if b.Len() > 0 && !strings.HasPrefix(t, "'") && !strings.HasPrefix(t, "’") && t != "," && t != ":" {
			b.WriteByte(' ')
		}
		b.WriteString(t)
	}
	return "", i, false
}

func quote(t string) bool { return t == "\"" || t == "“" || t == "”" || t == "``" || t == "''" }

// singleQuoted finds a title in single quotes that starts with a capital:
// "an album called 'Sleep,'". The tagger drops such a word, quotes and
// all, so doubleQuoted writes it in double quotes first. An apostrophe
// inside a word, or before a lower-case word ('cause), is no quote.
var singleQuoted = regexp.MustCompile(`(^|[\s(])['‘]([A-Z][^'’‘\n]{0,60}?)([,.!?]?)['’]($|[\s,.!?;:)])`)

func doubleQuoted(s string) string { return singleQuoted.ReplaceAllString(s, `$1"$2"$3$4`) }

// ofName extends a name that ends at j across "of" ("Lord of the Rings",
// "Bank of America") when a capitalised name follows it.
func (r *reader) ofName(j int) int {
	if j+1 >= len(r.toks) || r.word(j) != "of" {
		return j
	}
	k := j + 1
	if r.word(k) == "the" && k+1 < len(r.toks) {
		k++
	}
	if !isNoun(r.tag(k)) || !capitalised(r.toks[k].text) {
		return j
	}
	for k < len(r.toks) && isNoun(r.tag(k)) && capitalised(r.toks[k].text) {
		k++
	}
	return k
}

// duration reports a number at i that counts time ("two days ago", "4
// years"): it ends a noun phrase as the time word after it would.
func (r *reader) duration(i int) bool {
	return r.tag(i) == "CD" && i+1 < len(r.toks) && timeWord(r.word(i+1))
}

// properType types a name by the word before it and its own words.
func (r *reader) properType(i int, name string) string {
	if organisation(name) {
		return "organisation"
	}
	if i > 0 && placeWord(r.word(i-1)) {
		return "place"
	}
	return ""
}

func (r *reader) setType(name, typ string) {
	if typ == "" {
		return
	}
	if _, ok := r.types[name]; !ok {
		r.types[name] = typ
	}
}

// lastWord returns a phrase's last word, its head.
func lastWord(phrase string) string { return phrase[strings.LastIndexByte(phrase, ' ')+1:] }

func (r *reader) span(i, j int) string {
	parts := make([]string, 0, j-i)
	for k := i; k < j; k++ {
		parts = append(parts, strings.TrimSuffix(r.toks[k].text, "'s"))
	}
	return strings.Join(parts, " ")
}

// statements splits text into its sentences that are not questions.
func statements(text string) []string {
	var out []string
	for len(text) > 0 {
		loc := sentenceSplit.FindStringIndex(text)
		s, end := text, ""
		if loc != nil {
			s, end, text = text[:loc[0]], text[loc[0]:loc[1]], text[loc[1]:]
		} else {
			text = ""
		}
		if s = strings.TrimSpace(s); s != "" && !strings.Contains(end, "?") {
			out = append(out, s)
		}
	}
	return out
}
