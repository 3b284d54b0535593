// How the knowledge graph is drawn: node sizes by degree, colours by the
// origin of entities and relations, and edge labels.
import type { KnowledgeEdge } from '../types/memory';

export const originColors: Record<string, string> = {
  extracted: '#7c8aa5',
  reviewed: '#e0a458',
  imported: '#4fb6a6',
};

export function edgeColor(origin: string): string {
  return originColors[origin] ?? '#7c8aa5';
}

export const nodeColors: Record<string, string> = {
  extracted: '#8b7cf6',
  reviewed: '#e0a458',
  imported: '#4fb6a6',
};

export function nodeColor(origin: string): string {
  return nodeColors[origin] ?? '#8b7cf6';
}

// nodeSize grows with the log of the degree, from 2 to 14.
export function nodeSize(degree: number): number {
  return Math.min(14, 2 + 2.2 * Math.log2(1 + Math.max(0, degree)));
}

// edgeLabel is the predicate with the time and the condition when there
// are any: "went to · 7 May, 2023 · if it rains".
export function edgeLabel(e: KnowledgeEdge): string {
  const parts = [e.label];
  if (e.time) parts.push(e.time);
  if (e.condition) parts.push('if ' + e.condition);
  return parts.join(' · ');
}
