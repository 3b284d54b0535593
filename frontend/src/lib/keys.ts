// Keyboard shortcuts of the debugger. actionFor maps a key press to an
// action, ignoring presses meant for text fields; the table is also what
// the "?" help overlay lists.

export type Action =
  | 'next-request'
  | 'prev-request'
  | 'next-eviction'
  | 'prev-eviction'
  | 'first-request'
  | 'last-request'
  | 'search'
  | 'toggle-live'
  | 'memory'
  | 'help'
  | 'close';

export interface Shortcut {
  keys: string[];
  action: Action;
  description: string;
}

export const shortcuts: Shortcut[] = [
  { keys: ['j', 'ArrowRight'], action: 'next-request', description: 'next request' },
  { keys: ['k', 'ArrowLeft'], action: 'prev-request', description: 'previous request' },
  { keys: [']'], action: 'next-eviction', description: 'next eviction' },
  { keys: ['['], action: 'prev-eviction', description: 'previous eviction' },
  { keys: ['g', 'Home'], action: 'first-request', description: 'first request' },
  { keys: ['G', 'End'], action: 'last-request', description: 'last request' },
  { keys: ['/'], action: 'search', description: 'search' },
  { keys: ['l'], action: 'toggle-live', description: 'follow the session live, or stop' },
  { keys: ['m'], action: 'memory', description: "the memory's facts of the selected block or episode" },
  { keys: ['?'], action: 'help', description: 'show these shortcuts' },
  { keys: ['Escape'], action: 'close', description: 'close a dialog or search' },
];

export interface KeyPress {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
  target?: { tagName?: string; isContentEditable?: boolean } | null;
}

const typing = new Set(['INPUT', 'TEXTAREA', 'SELECT']);

// forShortcut reports whether a key press may be a single-key shortcut: no
// modifier, and not typed into a text field.
export function forShortcut(e: KeyPress): boolean {
  if (e.ctrlKey || e.metaKey || e.altKey) return false;
  const t = e.target;
  return !(t && (typing.has(t.tagName ?? '') || t.isContentEditable));
}

// actionFor returns the action for a key press, or null. Presses with a
// modifier, and presses in text fields (other than Escape), are not ours.
export function actionFor(e: KeyPress): Action | null {
  const escape = e.key === 'Escape' && !e.ctrlKey && !e.metaKey && !e.altKey; // works in text fields too
  if (!escape && !forShortcut(e)) return null;
  for (const s of shortcuts) if (s.keys.includes(e.key)) return s.action;
  return null;
}

// neighbour returns the nearest value in sorted after (dir 1) or before
// (dir -1) current, or null when there is none: used to jump between
// evictions.
export function neighbour(sorted: number[], current: number, dir: 1 | -1): number | null {
  if (dir > 0) {
    for (const v of sorted) if (v > current) return v;
    return null;
  }
  for (let i = sorted.length - 1; i >= 0; i--) if (sorted[i] < current) return sorted[i];
  return null;
}

// viewFor returns the index of the view that Alt+digit selects (Alt+1 the
// first view), or null. It works in text fields too: it types nothing.
export function viewFor(e: { key: string; altKey?: boolean; ctrlKey?: boolean; metaKey?: boolean }, views: number): number | null {
  if (!e.altKey || e.ctrlKey || e.metaKey) return null;
  const n = Number(e.key);
  return Number.isInteger(n) && n >= 1 && n <= views ? n - 1 : null;
}
