import { expect, test } from 'vitest';
import { formatState, parseState } from './urlstate';

test('round trip', () => {
  const s = { session: 'ab12', step: 41, tab: 'context', policy: 'paper', budget: 20000, counter: 'o200k', thread: 5, episodes: 'inferred', panel: 'graph', cpolicy: 'pi-cwl', cbudget: 8000 };
  expect(parseState(formatState(s))).toEqual(s);
});

test('fixed key order and empty state', () => {
  expect(formatState({ budget: 5, session: 'x' })).toBe('#session=x&budget=5');
  expect(formatState({})).toBe('');
});

test('malformed numbers and unknown keys are dropped', () => {
  expect(parseState('#step=-1&budget=1.5&evil=<script>&session=s')).toEqual({ session: 's' });
  expect(parseState('step=7')).toEqual({ step: 7 });
});

test('values are encoded', () => {
  expect(formatState({ session: 'a&b=c' })).toBe('#session=a%26b%3Dc');
  expect(parseState('#session=a%26b%3Dc').session).toBe('a&b=c');
});

test('the memory explorer keeps its memory, sub-view and entity', () => {
  const s = { tab: 'memory', mem: 'conv-26', msub: 'graph', entity: 'e12' };
  expect(parseState(formatState(s))).toEqual(s);
  expect(formatState(s)).toBe('#tab=memory&mem=conv-26&msub=graph&entity=e12');
});
