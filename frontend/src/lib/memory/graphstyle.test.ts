import { expect, test } from 'vitest';
import { edgeColor, edgeLabel, nodeSize } from './graphstyle';

test('edge labels carry time and condition', () => {
  expect(edgeLabel({ id: 'r', from: 'a', to: 'b', label: 'went to', origin: 'extracted', time: '7 May, 2023', condition: 'it rains' })).toBe('went to · 7 May, 2023 · if it rains');
  expect(edgeLabel({ id: 'r', from: 'a', to: 'b', label: 'likes', origin: 'reviewed' })).toBe('likes');
});

test('origins have distinct colours', () => {
  expect(new Set(['extracted', 'reviewed', 'imported'].map(edgeColor)).size).toBe(3);
});

test('node sizes grow with degree within bounds', () => {
  expect(nodeSize(0)).toBe(2);
  expect(nodeSize(1)).toBeLessThan(nodeSize(10));
  expect(nodeSize(1e9)).toBe(14);
});
