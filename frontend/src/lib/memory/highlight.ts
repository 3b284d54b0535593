// Highlighting for untrusted text: texts are split into segments that the
// view renders as text nodes, some inside <mark>. Nothing here makes
// HTML.
import type { Fragment } from '../types/memory';

export interface Segment {
  text: string;
  mark: boolean;
}

// segments splits text at every case-insensitive occurrence of a term,
// longer terms first where occurrences overlap.
export function segments(text: string, terms: string[]): Segment[] {
  const lower = text.toLowerCase();
  const marked = new Array<boolean>(text.length).fill(false);
  const sorted = [...new Set(terms.map((t) => t.trim().toLowerCase()).filter((t) => t.length > 0))].sort((a, b) => b.length - a.length);
  for (const t of sorted) {
    for (let i = lower.indexOf(t); i >= 0; i = lower.indexOf(t, i + t.length)) {
      if (marked.slice(i, i + t.length).some(Boolean)) continue;
      for (let k = i; k < i + t.length; k++) marked[k] = true;
    }
  }
  return runs(text, marked);
}

function runs(text: string, marked: boolean[]): Segment[] {
  const out: Segment[] = [];
  let start = 0;
  for (let i = 1; i <= text.length; i++) {
    if (i === text.length || marked[i] !== marked[start]) {
      if (i > start) out.push({ text: text.slice(start, i), mark: marked[start] });
      start = i;
    }
  }
  return out;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

// fragmentSegments turns a search fragment, whose marks are UTF-8 byte
// offsets, into segments.
export function fragmentSegments(f: Fragment): Segment[] {
  const bytes = encoder.encode(f.text);
  const out: Segment[] = [];
  let at = 0;
  for (const m of f.marks) {
    const s = Math.max(at, Math.min(m.start, bytes.length));
    const e = Math.max(s, Math.min(m.end, bytes.length));
    if (s > at) out.push({ text: decoder.decode(bytes.subarray(at, s)), mark: false });
    if (e > s) out.push({ text: decoder.decode(bytes.subarray(s, e)), mark: true });
    at = e;
  }
  if (at < bytes.length) out.push({ text: decoder.decode(bytes.subarray(at)), mark: false });
  return out;
}
