// The view state that survives a reload lives in the URL fragment, as a
// query string: #session=...&step=12&tab=context&policy=paper&budget=20000.
// The debugger also keeps its thread, episode mode, side panel and the
// policy and budget it compares against; the memory explorer its memory
// set, sub-view and entity (&mem=conv-26&msub=graph&entity=e1).
// Only ids, names and numbers go there; never session content.

export interface ViewState {
  session?: string;
  step?: number;
  tab?: string;
  policy?: string;
  budget?: number;
  counter?: string;
  thread?: number;
  episodes?: string;
  panel?: string;
  cpolicy?: string;
  cbudget?: number;
  // The memory explorer: the memory set, the sub-view and the entity.
  mem?: string;
  msub?: string;
  entity?: string;
  // A block to mark in the debugger's context once it shows (a passage
  // opened from the memory explorer): its message and block indices.
  msg?: number;
  block?: number;
}

const numeric = new Set(['step', 'budget', 'thread', 'cbudget', 'msg', 'block']);
const keys = ['session', 'step', 'tab', 'policy', 'budget', 'counter', 'thread', 'episodes', 'panel', 'cpolicy', 'cbudget', 'mem', 'msub', 'entity', 'msg', 'block'] as const;

// parseState reads a fragment ("#a=1&b=2" or "a=1&b=2"). Unknown keys and
// malformed numbers are dropped.
export function parseState(hash: string): ViewState {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const out: Record<string, string | number> = {};
  for (const k of keys) {
    const v = params.get(k);
    if (v === null || v === '') continue;
    if (numeric.has(k)) {
      const n = Number(v);
      if (Number.isInteger(n) && n >= 0) out[k] = n;
    } else {
      out[k] = v;
    }
  }
  return out as ViewState;
}

// formatState writes a fragment in a fixed key order, so equal states give
// equal URLs.
export function formatState(s: ViewState): string {
  const params = new URLSearchParams();
  for (const k of keys) {
    const v = s[k];
    if (v !== undefined && v !== '') params.set(k, String(v));
  }
  const q = params.toString();
  return q ? '#' + q : '';
}
