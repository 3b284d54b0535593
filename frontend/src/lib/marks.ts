// Search fragments come from Go as plain text with byte ranges of the
// matched terms. segments splits a fragment into pieces to render as text
// nodes, marked or not: never as markup.
import type { Span } from './types/debugger';

export interface Segment {
  text: string;
  mark: boolean;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

// segments cuts text at the byte offsets of spans (UTF-8, half-open,
// sorted, possibly overlapping or out of range).
export function segments(text: string, spans: Span[]): Segment[] {
  const bytes = encoder.encode(text);
  const out: Segment[] = [];
  let at = 0;
  const push = (from: number, to: number, mark: boolean) => {
    if (to > from) out.push({ text: decoder.decode(bytes.subarray(from, to)), mark });
  };
  for (const s of [...spans].sort((a, b) => a.start - b.start)) {
    const start = Math.max(at, Math.min(bytes.length, s.start));
    const end = Math.max(start, Math.min(bytes.length, s.end));
    push(at, start, false);
    push(start, end, true);
    at = end;
  }
  push(at, bytes.length, false);
  return out;
}
