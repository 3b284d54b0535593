// Pure logic behind the token timeline: stacking, labels, formatting and
// keyboard stepping. Kept free of the DOM so vitest covers it.
import type { Point } from './types/sessions';

export interface CategoryStyle {
  label: string;
  color: string;
}

// Styles by category name (engine/tokens.CategoryNames).
export const categoryStyles: Record<string, CategoryStyle> = {
  system: { label: 'system', color: '#8a8f98' },
  user: { label: 'user', color: '#4f9cf9' },
  summary: { label: 'summaries', color: '#b58cff' },
  assistant: { label: 'assistant text', color: '#39c5a3' },
  thinking: { label: 'thinking', color: '#f2c14e' },
  toolCall: { label: 'tool calls', color: '#f08a5d' },
  toolResult: { label: 'tool results', color: '#e05a6b' },
};

export function styleOf(category: string): CategoryStyle {
  return categoryStyles[category] ?? { label: category, color: '#999' };
}

// stack turns per-point breakdowns into cumulative series: result[k][i] is
// the sum of categories 0..k at point i, so the last series is the total.
// Categories that are zero everywhere are dropped; the kept category
// indices come back in `kept`.
export function stack(points: Point[], categories: string[]): { kept: number[]; series: Float64Array[] } {
  const kept = categories.map((_, k) => k).filter((k) => points.some((p) => (p.breakdown[k] ?? 0) > 0));
  const series: Float64Array[] = [];
  const running = new Float64Array(points.length);
  for (const k of kept) {
    for (let i = 0; i < points.length; i++) running[i] += points[i].breakdown[k] ?? 0;
    series.push(running.slice());
  }
  return { kept, series };
}

// formatTokens writes a token count compactly: 950, 12.3k, 1.25M.
export function formatTokens(n: number): string {
  const a = Math.abs(n);
  if (a < 1000) return String(Math.round(n));
  if (a < 10_000) return (n / 1000).toFixed(2).replace(/\.?0+$/, '') + 'k';
  if (a < 1_000_000) return (n / 1000).toFixed(1).replace(/\.0$/, '') + 'k';
  return (n / 1_000_000).toFixed(2).replace(/\.?0+$/, '') + 'M';
}

// step moves a selection through n items for a key press, or returns null
// for keys it does not handle.
export function step(key: string, current: number, n: number, page = 10): number | null {
  if (n === 0) return null;
  const clamp = (i: number) => Math.max(0, Math.min(n - 1, i));
  switch (key) {
    case 'ArrowRight':
    case 'j':
      return clamp(current + 1);
    case 'ArrowLeft':
    case 'k':
      return clamp(current - 1);
    case 'PageDown':
      return clamp(current + page);
    case 'PageUp':
      return clamp(current - page);
    case 'Home':
    case 'g':
      return 0;
    case 'End':
    case 'G':
      return n - 1;
  }
  return null;
}

// peak returns the index of the largest request, or -1 for none.
export function peak(points: Point[]): number {
  let best = -1;
  for (let i = 0; i < points.length; i++) if (best < 0 || points[i].tokens > points[best].tokens) best = i;
  return best;
}
