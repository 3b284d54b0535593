// Summaries of a wire comparison (app.WireView): the blocks one side holds
// and the other does not, grouped by what they are. DOM-free so that
// vitest covers it.
import type { WirePart } from './types/debugger';

// partKind names a differing block: its section where it has one (a tool
// schema, injected context), else its role and type.
export function partKind(p: Pick<WirePart, 'role' | 'type' | 'section'>): string {
  if (p.section === 'toolSchema') return 'tool schema';
  if (p.section === 'injected') return 'injected';
  if (p.role === 'system') return 'system prompt';
  if (p.type === 'tool_result') return 'tool output';
  if (p.type === 'tool_call') return 'tool call';
  return `${p.role} ${p.type}`;
}

// summarize groups parts by kind: "12 tool schemas (5,760 tokens), 1
// system prompt (20)", largest first; "" for none.
export function summarize(parts: Pick<WirePart, 'role' | 'type' | 'section' | 'tokens'>[]): string {
  const by = new Map<string, { n: number; tokens: number }>();
  for (const p of parts) {
    const k = partKind(p);
    const g = by.get(k) ?? { n: 0, tokens: 0 };
    g.n++;
    g.tokens += p.tokens;
    by.set(k, g);
  }
  return [...by.entries()]
    .sort((a, b) => b[1].tokens - a[1].tokens)
    .map(([k, g]) => `${g.n} ${k}${g.n > 1 && !k.endsWith('output') ? 's' : ''} (${g.tokens.toLocaleString('en-US')} tokens)`)
    .join(', ');
}
