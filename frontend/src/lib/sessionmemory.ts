// The session memory panel's model: where each memory item stands at a
// request of a replay (the same rule as Go's recall.Item.At), the counts
// by state, the state of each entity, and where a click on an item leads.
import type { BlockPlace, MemoryItem, SessionMemory } from './types/debugger';
import { levelColor } from './replay';

// MemoryFilter narrows the memory panel to the facts of one block, or of
// one episode's messages.
export interface MemoryFilter {
  message?: number;
  block?: number;
  episode?: { name: string; start: number; end: number; description?: string; level: number };
}

// PAPER_MEMORY names the paper policy with the memory's recall injected
// at look-backs (Go's recall.PolicyPaperMemory).
export const PAPER_MEMORY = 'paper+memory';

export type ItemState = 'pending' | 'context' | 'evicted' | 'recovered';

export interface StateAt {
  state: ItemState;
  level: number; // the level of the eviction that removed the last of it
  evictedAt: number; // that eviction's request; -1 unless evicted or recovered
}

// itemAt is where item stands at request k: in the input while one of its
// source blocks is; evicted once all that entered have left; recovered
// when recall brought it back at a look-back since its last eviction.
export function itemAt(it: MemoryItem, k: number): StateAt {
  let entered = false;
  let level = 0;
  let lastOut = -1;
  for (const s of it.spans) {
    if (s.entered > k) continue;
    entered = true;
    if (s.evicted < 0 || s.evicted > k) return { state: 'context', level: 0, evictedAt: -1 };
    if (s.evicted > lastOut) {
      lastOut = s.evicted;
      level = s.level;
    }
  }
  if (!entered) return { state: 'pending', level: 0, evictedAt: -1 };
  const back = it.recalled.some((r) => r >= lastOut && r <= k);
  return { state: back ? 'recovered' : 'evicted', level, evictedAt: lastOut };
}

export interface StateCounts {
  pending: number;
  context: number;
  evicted: number;
  recovered: number;
  byLevel: number[]; // evicted and recovered items by level, 0..4
}

// countAt counts the items by state at request k.
export function countAt(items: MemoryItem[], k: number): StateCounts {
  const c: StateCounts = { pending: 0, context: 0, evicted: 0, recovered: 0, byLevel: [0, 0, 0, 0, 0] };
  for (const it of items) {
    const s = itemAt(it, k);
    c[s.state]++;
    if (s.state === 'evicted' || s.state === 'recovered') c.byLevel[s.level]++;
  }
  return c;
}

const rank: Record<ItemState, number> = { pending: 0, evicted: 1, recovered: 2, context: 3 };

// entityStates gives each entity the liveliest state of its relations
// at request k: in the input if any is, then recovered, then evicted.
export function entityStates(m: SessionMemory, k: number): Map<string, StateAt> {
  const byRelation = new Map(m.items.map((it) => [it.relation, it]));
  const out = new Map<string, StateAt>();
  for (const e of m.graph.edges) {
    const it = byRelation.get(e.id);
    if (!it) continue;
    const s = itemAt(it, k);
    for (const id of [e.from, e.to]) {
      const cur = out.get(id);
      if (!cur || rank[s.state] > rank[cur.state]) out.set(id, s);
    }
  }
  return out;
}

export const stateColors: Record<ItemState, string> = {
  pending: '#3a3f4c',
  context: '#39c5a3',
  evicted: '#e05a6b',
  recovered: '#4f9cf9',
};

// stateColor is the colour an item is drawn in: evicted items take the
// colour of the level that removed them, as on the timeline.
export function stateColor(s: StateAt): string {
  if (s.state === 'evicted') return levelColor(s.level);
  return stateColors[s.state];
}

// stateLabel says where an item stands in a few words; requests are
// numbered from 1, as the debugger shows them.
export function stateLabel(s: StateAt): string {
  switch (s.state) {
    case 'pending': return 'not read yet';
    case 'context': return 'in context';
    case 'evicted': return `evicted L${s.level} at request ${s.evictedAt + 1}`;
    case 'recovered': return `recovered (evicted L${s.level} at request ${s.evictedAt + 1})`;
  }
}

// jumpFor is where clicking an item at request k leads: an evicted or
// recovered item to the request at which the last of it was evicted,
// one not read yet to the request that first shows it, one in context
// to the current request; always at its first source block.
export function jumpFor(it: MemoryItem, k: number): BlockPlace {
  const s = itemAt(it, k);
  const at = s.state === 'pending' ? it.where.request : s.evictedAt >= 0 ? s.evictedAt : k;
  const place = placeFor(it, s.evictedAt);
  return { request: at, message: place.message, block: place.block };
}

// placeFor is the block of the span evicted at request r, or the first
// source block.
function placeFor(it: MemoryItem, r: number): BlockPlace {
  if (r >= 0) {
    for (let i = it.spans.length - 1; i >= 0; i--) if (it.spans[i].evicted === r && it.places[i]) return it.places[i];
  }
  return it.where;
}

// fromBlock reports whether item was read from block b of message i.
export function fromBlock(it: MemoryItem, i: number, b: number): boolean {
  return it.places.some((p) => p.message === i && p.block === b) || (it.where.message === i && it.where.block === b);
}

// factText is an item as one line: "subject predicate object".
export function factText(it: MemoryItem): string {
  return `${it.subject} ${it.predicate} ${it.object}`;
}

// variantBudgets picks up to count budgets, evenly spaced, among a sweep's
// budgets that leave room for a recall of recallBudget tokens, always with
// the current budget when it is one of them.
export function variantBudgets(xs: number[], current: number, recallBudget = 500, count = 8): number[] {
  const ok = xs.filter((x) => x > recallBudget);
  if (ok.length <= count) return ok;
  const out = new Set<number>();
  for (let i = 0; i < count; i++) out.add(ok[Math.round((i * (ok.length - 1)) / (count - 1))]);
  if (ok.includes(current)) out.add(current);
  return [...out].sort((a, b) => a - b);
}
