package extract

import "strings"

// The word lists the tagged extractor decides with. Each is small and
// closed: function words, and the few content words that say nothing on
// their own.

func isVerb(tag string) bool   { return strings.HasPrefix(tag, "VB") }
func isNoun(tag string) bool   { return strings.HasPrefix(tag, "NN") }
func isProper(tag string) bool { return tag == "NNP" || tag == "NNPS" }
func isCommon(tag string) bool { return tag == "NN" || tag == "NNS" }

var beForms = set("am", "is", "are", "was", "were", "be", "been", "being", "'m", "'re", "'s")

func isBe(w string) bool { return beForms[w] }

// auxiliaries help the verb after them.
var auxiliaries = set("am", "is", "are", "was", "were", "be", "been", "being", "'m", "'re", "have", "has", "had", "'ve", "'d",
	"do", "does", "did", "going", "gonna", "got")

func auxiliary(w string) bool { return auxiliaries[w] }

// lightVerbs carry no fact with a plain object.
var lightVerbs = set("do", "does", "did", "get", "gets", "got", "make", "makes", "made", "let", "mean", "means", "meant",
	"think", "thought", "guess", "know", "knew", "say", "said", "see", "saw", "feel", "felt", "hope", "wish", "bet",
	"appreciate", "agree", "thank", "mind", "remember", "wonder", "suppose", "sound", "seem", "look", "keep", "can",
	"feeling", "seeing", "looking", "hear", "heard", "hearing", "tell", "told", "ask", "asked", "miss", "call", "called",
	"check", "talk", "chat", "share", "show", "give", "put", "want", "need", "believe", "realize", "understand",
	"hope", "wish", "try", "recommend", "suggest", "bet", "imagine", "expect", "sell", "create", "wait", "ponder", "count")

func light(w string) bool { return lightVerbs[w] }

// intentions take an infinitive whose verb is the fact.
var intentions = set("decide", "plan", "start", "begin", "learn", "choose", "manage")

func intends(lemma string) bool { return intentions[lemma] }

var prepositions = set("to", "at", "in", "on", "with", "for", "from", "about", "into", "through", "around", "by", "over")

func preposition(w string) bool { return prepositions[w] }

// evaluativeAdjectives judge rather than name.
var evaluativeAdjectives = set("great", "good", "best", "better", "new", "big", "huge", "awesome", "amazing", "nice", "fun",
	"cool", "beautiful", "little", "old", "favorite", "favourite", "wonderful", "fantastic", "lovely", "special", "real", "whole",
	"other", "same", "different", "first", "last", "next", "few", "many", "much", "more", "most", "own", "super", "pretty",
	"incredible", "perfect", "hard", "tough", "busy", "happy", "excited", "proud", "glad", "sure", "lot", "lots", "such",
	"exciting", "interesting", "important", "rewarding", "powerful", "inspiring", "cute", "sweet", "crazy", "wild", "quick",
	"long", "short", "small", "large", "recent", "local", "certain", "various", "several", "free", "full", "true")

func evaluative(w string) bool { return evaluativeAdjectives[w] }

// vagueWords say nothing as an object on their own.
var vagueWords = set("thing", "things", "stuff", "lot", "lots", "bit", "time", "times", "way", "ways", "day", "days", "week",
	"weeks", "moment", "moments", "kind", "sort", "one", "ones", "part", "experience", "feeling", "feelings", "idea", "ideas",
	"fun", "chance", "question", "thought", "thoughts", "everything", "something", "anything", "nothing", "tip", "tips",
	"while", "year", "years", "month", "months", "today", "yesterday", "tomorrow", "tonight", "weekend", "morning", "night",
	"goal", "goals", "plan", "plans", "point", "reason", "fam", "place", "people", "person", "guy", "guys", "everyone",
	"someone", "anyone", "others", "news", "update", "life", "world", "mind", "heart", "end", "start", "rest", "piece",
	"advice", "help", "support", "hug", "hugs", "pic", "pics", "photo", "photos", "picture", "pictures", "journey", "step",
	"online", "hour", "hours", "age", "ages", "ton", "tons", "silence", "memory", "memories", "commitment", "rush",
	"satisfaction", "opportunity", "comfort", "zen", "method", "challenge", "challenges", "talent", "talents", "sign",
	"minute", "minutes", "vibe", "vibes", "energy", "touch", "inspiration", "motivation", "spot", "genre", "genres", "style",
	"design", "deal", "event", "events", "love", "detail", "details", "result", "results", "side", "bunch", "number",
	"amount", "thanks", "blast", "break", "peace", "balance", "joy", "happiness", "progress", "attention", "care",
	"sometime", "future", "past", "dream", "dreams", "haha", "lol", "omg", "yay", "hmm", "work", "lesson", "quote", "smell",
	"portion", "chill", "resource", "resources", "impact", "change", "changes", "shape", "spots", "meeting", "together",
	"come", "intricacy", "intricacies", "link", "look", "nap", "seat", "deep breath", "breath", "second", "turn", "right",
	"summer", "winter", "spring", "fall", "autumn", "season", "distance", "bet", "bets", "mix", "muse", "option", "options")

func vagueWord(w string) bool { return vagueWords[strings.ToLower(w)] }

var pronounWords = set("it", "this", "that", "these", "those", "them", "they", "he", "she", "him", "her", "you", "me", "us",
	"i", "we", "myself", "yourself", "ourselves", "themselves", "who", "what", "which", "there", "here")

func pronounLike(w string) bool { return pronounWords[w] }

// eventNouns name things that happen.
var eventNouns = set("party", "wedding", "concert", "festival", "conference", "class", "workshop", "course", "race", "game",
	"trip", "session", "meeting", "parade", "event", "ceremony", "show", "exhibition", "competition", "tournament",
	"marathon", "camp", "retreat", "fair", "match", "performance", "play", "recital", "talk", "lecture", "seminar",
	"fundraiser", "gala", "vacation", "holiday", "tour", "hike", "picnic", "barbecue", "reunion", "celebration",
	"graduation", "interview", "audition", "rally", "march", "protest", "contest", "festival", "convention", "meetup")

func event(lemma string) bool { return eventNouns[lemma] }

// namedEvent reports whether a vague event head ("meeting", "event") is
// made specific by the noun before it ("a council meeting", "my school
// event").
func namedEvent(head, before, beforeTag string) bool {
	return event(head) && isCommon(beforeTag) && !vagueWord(before)
}

var orgWords = []string{"university", "college", "school", "inc", "company", "corp", "center", "centre", "club", "hospital",
	"church", "institute", "foundation", "association", "society", "agency", "department", "team", "group", "academy", "studio"}

func organisation(name string) bool {
	l := strings.ToLower(name)
	for _, w := range orgWords {
		if strings.HasSuffix(l, " "+w) || l == w {
			return true
		}
	}
	return false
}

var placeWords = set("in", "at", "to", "from", "near", "around", "visit", "visited", "visiting", "toward", "towards")

func placeWord(w string) bool { return placeWords[w] }

// kinship and pet nouns name people and animals.
func typeOfKind(kind string) string {
	switch kind {
	case "dog", "cat", "pet", "puppy", "kitten", "horse", "bird", "fish", "rabbit", "hamster", "pup":
		return "object"
	}
	return "person"
}

// firstPerson reports contractions of "I" and "we" that a tokenizer may
// keep whole ("I've", "we're").
func firstPerson(w string) bool {
	w = strings.ReplaceAll(w, "’", "'")
	return strings.HasPrefix(w, "i'") || strings.HasPrefix(w, "we'")
}

// alphabetic reports a word of letters (and inner hyphens or apostrophes).
func alphabetic(w string) bool {
	if w == "" || strings.HasSuffix(w, "-") || strings.HasPrefix(w, "-") {
		return false
	}
	for _, r := range w {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '-' || r == '\'') {
			return false
		}
	}
	return true
}

var conditionals = set("when", "if", "unless", "whenever", "while", "until", "once", "whether", "before", "after", "since",
	"as", "crossed", "maybe", "hopefully", "wish", "hope", "dream", "dreamed", "dreamt", "where", "because")

func conditional(w string) bool { return conditionals[w] }

// objectPrepositions are prepositions the tagger may take for nouns; a
// noun phrase does not end in one.
var objectPrepositions = set("towards", "toward", "into", "onto", "upon", "across")

// nameLike reports whether a capitalised word can be a person's name: not
// a contraction ("You've") and not a gerund opening a sentence
// ("Networking plays a role").
func nameLike(w string) bool {
	w = strings.ReplaceAll(w, "’", "'")
	if strings.Contains(w, "'") && !strings.HasSuffix(w, "'s") {
		return false
	}
	return !(len(w) > 5 && strings.HasSuffix(w, "ing"))
}

var greetings = set("hey", "hi", "hello", "thanks", "dear", "bye", "congrats", "congratulations", "yo", "oh", "wow")

func greeting(w string) bool { return greetings[w] }

// aliases writes chat shorthand in full.
var aliases = map[string]string{"gf": "girlfriend", "bf": "boyfriend", "bff": "best friend", "hubby": "husband", "bday": "birthday"}

func alias(w string) string {
	if a, ok := aliases[strings.ToLower(w)]; ok {
		return a
	}
	return w
}

// capitalised reports a word that starts with an upper-case letter.
func capitalised(w string) bool {
	for _, r := range w {
		return r >= 'A' && r <= 'Z'
	}
	return false
}

// genericActivities are gerunds that name no activity on their own.
var genericActivities = set("be", "go", "come", "work", "try", "use", "enter", "throw", "watch", "spend", "stay", "live",
	"start", "finish", "continue", "stop", "leave", "find", "help", "learn", "need", "want", "have", "hang", "catch",
	"chill", "relax", "bond", "connect", "grow", "change", "move", "turn", "run", "put", "set", "bring", "carry", "follow",
	"focus", "think", "feel", "look", "see", "talk", "say", "make", "get", "take", "give", "keep", "let")

func genericActivity(lemma string) bool { return genericActivities[lemma] }

// possessions are what "have" may take and still state a fact: people,
// animals and things one keeps.
var possessions = set("cat", "dog", "pet", "puppy", "pup", "kitten", "horse", "bird", "fish", "rabbit", "hamster", "snake",
	"turtle", "car", "bike", "truck", "motorcycle", "boat", "house", "apartment", "home", "garden", "farm", "kid", "child",
	"son", "daughter", "brother", "sister", "sibling", "husband", "wife", "partner", "girlfriend", "boyfriend", "baby", "twin",
	"job", "degree", "business", "shop", "store", "studio", "band", "guitar", "piano", "violin", "drum", "collection",
	"tattoo", "allergy", "condition", "injury", "surgery", "scholarship", "internship", "certificate", "license", "blog",
	"channel", "podcast", "website", "book", "album", "novel")

func possession(obj string) bool {
	head := obj[strings.LastIndexByte(obj, ' ')+1:]
	return possessions[strings.ToLower(head)]
}

// genericHeads are nouns that name a kind of thing and say what only with
// what follows them: "a trip to Canada", "a job as an analyst". Without
// that, the triple says too little.
var genericHeads = set("connection", "passion", "interest", "bond", "job", "class", "course", "trip", "project", "hobby",
	"game", "recipe", "book", "group", "friend", "program", "activity", "place", "thing", "workshop", "session", "lesson", "hike", "walk", "drive", "ride", "show", "tour",
	"team", "club", "app", "tool", "site", "website", "video", "song", "movie", "music", "art", "food", "dish", "meal", "gift",
	"present", "item", "toy", "stuff", "way", "skill", "habit", "routine", "schedule", "plan", "idea", "topic", "subject",
	"hobbies", "role", "position", "career", "field", "area", "issue", "problem", "situation", "relationship", "path",
	"adventure", "experience", "opportunity", "event", "party", "concert", "festival", "date", "visit", "fan", "fit",
	"instrument", "milestone", "information", "story", "invitation", "city", "country", "town", "member", "part", "coach",
	"kind", "type", "sort", "bunch", "lot", "collaboration", "skill", "insight", "knowledge", "organization",
	"organisation", "collection", "destination", "contact", "aspect", "man", "woman")

func genericHead(lemma string) bool { return genericHeads[lemma] }

// preferences are the verbs of taste: "I love hiking".
var preferences = set("love", "like", "enjoy", "adore", "prefer", "appreciate")

func preference(pred string) bool { return preferences[pred] }

// lostWithout reports a preposition whose noun phrase a gerund needs to
// say anything: "caring for my pups", "worrying about money".
func lostWithout(prep string) bool {
	return prep == "for" || prep == "about" || prep == "of" || prep == "into"
}

// vagueDeterminer reports a determiner that leaves a bare noun unsaid:
// "some parks", "these flowers", "this new RPG" (the ones in a photo or
// said before).
func vagueDeterminer(w string) bool {
	return w == "some" || w == "these" || w == "those" || demonstrative(w)
}

// demonstrative reports "this" or "that", which point at one thing: a
// phrase after the noun can say which ("this pup from a shelter").
func demonstrative(w string) bool { return w == "this" || w == "that" }

// qualities are what one remarks on in something shown ("I love the
// color"): a taste for them says nothing on its own.
var qualities = set("color", "colour", "colors", "texture", "freedom", "structure", "shape", "design", "look", "sound",
	"vibe", "atmosphere", "message", "theme", "detail", "details", "lighting", "composition", "view", "scenery", "setting",
	"feel", "mood", "pattern", "patterns", "contrast", "symbolism")

func quality(w string) bool { return qualities[w] }

// topics are works that are about something: "a blog on car mods".
var topics = set("blog", "article", "podcast", "post", "paper", "story", "documentary", "book", "course", "class", "talk",
	"lecture", "video", "essay", "presentation", "workshop", "seminar", "series", "show", "song", "poem", "film", "movie")

func topical(lemma string) bool { return topics[lemma] }

// idioms are a verb and an object that together say no fact.
var idioms = set("cross finger", "lend hand", "live self", "take note", "take plenty", "make sense", "pave way",
	"take care", "keep eye", "catch breath", "make difference", "raise bar", "break ice", "take time")

func idiom(pred, obj string) bool { return idioms[pred+" "+strings.ToLower(obj)] }

// attachers may follow a generic object and say what it is.
var attachers = set("to", "as", "at", "in", "on", "about", "for", "of", "with", "from", "called", "named", "like", "into")

// timeWords end a noun phrase: "a support group yesterday", "a
// conference next month".
var timeWords = set("yesterday", "today", "tomorrow", "tonight", "next", "last", "ago", "week", "weeks", "month", "months",
	"year", "years", "weekend", "weekends", "morning", "evening", "afternoon", "night", "monday", "tuesday", "wednesday",
	"thursday", "friday", "saturday", "sunday", "lately", "recently", "soon", "now", "day", "days", "hour", "hours",
	"mon", "tues", "wed", "thurs", "fri", "sat")

func timeWord(w string) bool { return timeWords[strings.ToLower(w)] }

// carriers take something somewhere: their destination belongs to the
// object.
func carries(pred string) bool { return pred == "take" || pred == "bring" || pred == "send" }

// calendarWords name a month or a day of the week: an object that starts
// with one is a date ("July 20"), which is the triple's time.
var calendarWords = set("january", "february", "march", "april", "june", "july", "august", "september", "october",
	"november", "december", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")

func calendarWord(obj string) bool {
	f := strings.Fields(obj)
	return len(f) > 0 && calendarWords[strings.ToLower(f[0])]
}
