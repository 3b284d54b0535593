// The terms of the trade, explained once: the tooltips (see
// components/shared/Term.svelte) and the help panel's glossary read them
// from here, so that a term means the same everywhere in the app.

export interface Entry {
  term: string;
  text: string;
}

export const glossary = {
  tau: { term: 'τ (token budget)', text: 'The most input tokens a request may carry under the replayed policy. When a request would pass τ, the policy evicts older content until it fits, or says why it cannot.' },
  policy: { term: 'policy', text: 'How a replay keeps the input under τ. ctxscope replays the recorded session as if the agent had used that policy, without calling any model.' },
  paper: { term: 'paper', text: 'CWL as the paper describes it: when τ is passed, evict in graduated levels (L1 reasoning, L2 bulk tool output, L3 intermediate tool I/O, L4 whole episode), oldest and most recoverable first; never user turns, never an exploration a live action depends on.' },
  'pi-cwl': { term: 'pi-cwl', text: 'CWL as the released reference code (the pi-cwl fork) does it, where it differs from the paper: a compatibility mode, so that both can be compared on the same session.' },
  'paper+memory': { term: 'paper+memory', text: 'The paper policy at τ − B, with the session memory\'s recall (at most B tokens, 500 by default) injected at each look-back, so that what recall adds counts against τ.' },
  none: { term: 'none', text: 'No eviction: the input as recorded, for reference (it may pass τ).' },
  truncate: { term: 'truncate', text: 'Baseline: drop the oldest messages (user turns and system prompt kept) until the input fits τ.' },
  compact: { term: 'compact', text: 'Baseline: when the input passes τ, a summarization call replaces all but the most recent messages with a summary, as agents\' own compaction does.' },
  L1: { term: 'L1 reasoning', text: 'Eviction level 1: the reasoning (thinking) blocks of a closed exploration episode are removed. Action episodes have no level 1: their reasoning goes only with the whole episode.' },
  L2: { term: 'L2 bulk', text: 'Eviction level 2: the bulk search calls of a closed episode (grep, glob, find, ls) and their results are removed.' },
  L3: { term: 'L3 intermediate', text: 'Eviction level 3: the intermediate calls of a closed episode (file reads and shell commands) and their results are removed.' },
  L4: { term: 'L4 full', text: 'Eviction level 4: a whole closed episode leaves the input, except its user turns. An exploration is only evicted once no live action depends on it.' },
  expl: { term: 'expl', text: 'An exploration episode: the agent gathers information (reads, searches, runs inspecting commands).' },
  act: { term: 'act', text: 'An action episode: the agent changes things (edits, writes files). It depends on the explorations it used, which are kept while it is live.' },
  declared: { term: 'declared episodes', text: 'Episodes the agent marked itself with the delimiter tool, as CWL asks.' },
  inferred: { term: 'inferred episodes', text: 'Episodes ctxscope infers from tool use for sessions without delimiter calls: edits make act episodes, reads and searches expl episodes, a user turn starts a new task. They are named by what they did ("edit pager.go +1").' },
  reported: { term: 'reported', text: 'Tokens the provider itself reported for a request (its usage record in the session file): the ground truth where it exists.' },
  estimated: { term: 'estimated', text: 'Tokens counted by ctxscope from the text, without the provider\'s tokenizer: an estimate, and said to be one.' },
  calibrated: { term: 'calibrated', text: 'The estimate fitted online on the usage the thread reports: each request\'s input as the unlogged part (system prompt, tool schemas) plus a ratio times the estimate, both fitted on the requests before it.' },
  unlogged: { term: 'unlogged', text: 'Input the provider counted that the session file does not hold (system prompt, tool schemas), estimated by calibration.' },
  lookBack: { term: 'look-back', text: 'A call the agent makes again after eviction removed the earlier one or its result: a read of the same file, the same search, the same inspecting command. The moments memory should help.' },
  recovered: { term: 'recovered', text: 'At a look-back, the memory\'s recall (at most B tokens) brought back a passage of the evicted output.' },
  evicted: { term: 'evicted', text: 'Removed from the input by the policy, at a level (L1–L4). The debugger still shows it, struck through, with the eviction that removed it.' },
} as const satisfies Record<string, Entry>;

export type TermId = keyof typeof glossary;

// explain returns the explanation of a term, or of a policy or level
// named as the replay names them ("paper", "L2"); "" for an unknown name.
export function explain(id: string): string {
  return (glossary as Record<string, Entry>)[id]?.text ?? '';
}

// levelTerm is the glossary id of eviction level 1–4.
export function levelTerm(level: number): TermId | null {
  return level >= 1 && level <= 4 ? (`L${level}` as TermId) : null;
}
