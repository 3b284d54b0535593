import { describe, expect, it } from 'vitest';
import { explain, glossary, levelTerm } from './glossary';

describe('glossary', () => {
  it('explains every policy the replay offers and every level', () => {
    for (const p of ['paper', 'pi-cwl', 'paper+memory', 'none', 'truncate', 'compact']) expect(explain(p), p).not.toBe('');
    for (const l of [1, 2, 3, 4]) expect(explain(levelTerm(l)!)).toMatch(new RegExp(`level ${l}`));
    expect(levelTerm(0)).toBeNull();
    expect(explain('no such term')).toBe('');
  });
  it('explains each term in a sentence or more', () => {
    for (const [id, e] of Object.entries(glossary)) {
      expect(e.text.length, id).toBeGreaterThan(40);
      expect(e.text.endsWith('.') || e.text.endsWith(').'), id).toBe(true);
    }
  });
});
