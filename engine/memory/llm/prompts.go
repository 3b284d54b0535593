package llm

// The prompts below are ctxscope's own, written after the tasks of
// MemWeaver's prompts (see memweaver-reference.md §2.1): same inputs, same
// output fields, our wording. Each ends with the exact JSON shape wanted.

const entityPrompt = `Read one turn of a conversation and list the entities it talks about.

An entity is a person, place, organisation, object, activity, event or idea that the turn states something about. Keep a multi-word name whole ("LGBTQ support group", "charity race"). Use the speaker's name for "I" and "me".
Leave out: pronouns and vague words ("he", "that", "there", "stuff"); dates and times; greetings.

%s

Answer with JSON only: {"entities": ["entity 1", "entity 2"]}`

const relationPrompt = `Read one turn of a conversation and write down the facts it states as relations between the listed entities.

Entities (use these names exactly, nothing else): %s

Rules:
- source and target must both be names from the list above, written exactly as listed.
- relation_type is a short predicate in lower case ("attended", "is training for", "adopted").
- If the fact holds only under some condition, put it in "condition"; otherwise leave it out.
- Leave out vague or meaningless relations, and do not encode times or places as the predicate.

%s

Answer with JSON only: {"relations": [{"source": "entity", "relation_type": "predicate", "target": "entity", "condition": ""}]}`

const timePrompt = `When did the event of this relation happen, or when is it planned? Answer with an absolute time.

Use the turn's Date/Time as the reference point and resolve relative expressions ("yesterday", "last week", "next month") into absolute values. Never answer with a relative expression. If the turn gives no usable time, answer with an empty string.
Formats: a day "20 May, 2023"; a month "May, 2023"; a year "2023".

Relation: %s

%s

Answer with JSON only: {"absolute_time": ""}`

const reviewPrompt = `You are checking the facts extracted from one conversation session, turn by turn, against the whole session.

The session took place on: %s

Dialogue:
%s

Entities found:
%s

Relations found:
%s

Do three things:
1. add: important facts the dialogue states clearly that no relation above captures.
2. update: relations whose predicate, time or condition should be corrected; refer to them by relation_id.
3. deny: relations the dialogue does not support or contradicts; refer to them by relation_id.
Times must be absolute ("20 May, 2023", "May, 2023", "2023") or empty.

Answer with JSON only: {"add": [{"source": "A", "relation_type": "predicate", "target": "B", "time": "", "condition": ""}], "update": [{"relation_id": "id", "relation_type": "", "time": "", "condition": ""}], "deny": [{"relation_id": "id"}]}`

const consistencyPrompt = `Here is a group of conversation turns. Are they about one and the same topic?

%s

If they are, give a short label naming the topic.

Answer with JSON only: {"is_consistent": true, "confidence": 0.0, "reason": "", "label": ""}`

const centerPrompt = `Here are conversation turns that belong together. Say in one or two sentences what they are about.

%s

Answer with JSON only: {"center_text": ""}`

const experiencePrompt = `From these conversation turns, extract a small set of reusable experiences: lasting facts about the people, their preferences, and strategies that worked for them.

Rules:
- Prefer "fact" and "preference"; use "strategy" only for an approach that generalises beyond the moment.
- Each content is one sentence of at most 120 characters and names the person it is about.
- source_qa_indices lists the numbers of the turns that support it.
- Skip greetings and small talk.

Turns:
%s

Answer with JSON only: {"experiences": [{"type": "fact", "content": "", "source_qa_indices": [0]}]}`

const routePrompt = `A new conversation turn must join one of these topic clusters, or none.

Turn:
%s

Clusters:
%s

Answer with JSON only: {"cluster_id": "the id, or none"}`

// Answer prompts, after the reference driver's: the context wrapper and
// the per-category tails.
const answerHead = `Answer using only the supported information from the context.
If the answer is unclear, respond briefly without adding unsupported details.

--- context start ---
%s
--- context end ---
`

const answerTemporal = `Use DATE of CONVERSATION to answer with an approximate date.
Please generate the shortest possible answer, using words from the conversation where possible, and avoid using any subjects.

Question:
%s
Short Answer:`

const answerOpen = `Answer using only a short phrase.

If the question is about likelihood or hypotheticals, start with one of:
"Likely yes", "Likely no", "Yes", or "No".

Then add at most a few words based on the context.Do NOT explain uncertainty or say things like "not explicitly stated" or "cannot be sure".

Question:
%s
Short Answer:`

const answerDefault = `Answer the question with the SHORTEST possible phrase from the context.
If the answer is present, COPY the words from the context.
Do NOT add new information or explanations.


Question:
%s
Short Answer:`

const answerAdversarial = `Question:
%s

Choose the more appropriate of the following two answers, based only on the information above:

1) %s
2) %s

Return only the chosen answer.`

const answerJSON = "\n\nAnswer with JSON only: {\"answer\": \"\"}"
