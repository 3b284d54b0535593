// Keyboard shortcuts of the annotation queue. The table is also what the
// view's help lists.
import { forShortcut, type KeyPress } from '../keys';

export type AnnotateAction = 'next' | 'prev' | 'first' | 'context' | 'helpful' | 'unhelpful' | 'sufficient' | 'insufficient' | 'note' | 'next-question' | 'prev-question';

export interface AnnotateShortcut {
  keys: string[];
  action: AnnotateAction;
  description: string;
}

export const annotateShortcuts: AnnotateShortcut[] = [
  { keys: ['j', 'ArrowDown'], action: 'next', description: 'next item' },
  { keys: ['k', 'ArrowUp'], action: 'prev', description: 'previous item' },
  { keys: ['g', 'Home'], action: 'first', description: 'first item' },
  { keys: ['G', 'End'], action: 'context', description: 'the whole context' },
  { keys: ['1'], action: 'helpful', description: 'mark the item helpful' },
  { keys: ['2'], action: 'unhelpful', description: 'mark the item not helpful' },
  { keys: ['s'], action: 'sufficient', description: 'the context is sufficient' },
  { keys: ['i'], action: 'insufficient', description: 'the context is insufficient' },
  { keys: ['n'], action: 'note', description: 'write a note on the item (Enter saves, Escape cancels)' },
  { keys: [']'], action: 'next-question', description: 'next question' },
  { keys: ['['], action: 'prev-question', description: 'previous question' },
];

// annotateAction returns the action of a key press, or null for presses
// with a modifier or in a text field.
export function annotateAction(e: KeyPress): AnnotateAction | null {
  if (!forShortcut(e)) return null;
  for (const s of annotateShortcuts) if (s.keys.includes(e.key)) return s.action;
  return null;
}

// step moves a cursor by d within [0, n), staying put at the ends.
export function step(cursor: number, d: number, n: number): number {
  if (n <= 0) return 0;
  return Math.max(0, Math.min(n - 1, cursor + d));
}
