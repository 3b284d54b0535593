import { describe, expect, it } from 'vitest';
import { aggregate } from './aggregate';

describe('aggregate', () => {
  const nodes = [
    { id: 'a', x: 0, y: 0, degree: 3, label: 'hub' },
    { id: 'b', x: 1, y: 1, degree: 1, label: 'b' },
    { id: 'c', x: 100, y: 100, degree: 2, label: 'c' },
    { id: 'd', x: 99, y: 98, degree: 5, label: 'big' },
  ];
  const edges = [{ from: 'a', to: 'b' }, { from: 'a', to: 'c' }, { from: 'b', to: 'd' }, { from: 'd', to: 'a' }];

  it('gathers nearby entities into one cell named by its best-connected one', () => {
    const g = aggregate(nodes, edges, 4);
    expect(g.cells).toHaveLength(2);
    const [low, high] = [...g.cells].sort((p, q) => p.x - q.x);
    expect(low).toMatchObject({ count: 2, label: 'hub +1', x: 0.5, y: 0.5 });
    expect(high).toMatchObject({ count: 2, label: 'big +1' });
    expect(g.cellOf.get('a')).toBe(g.cellOf.get('b'));
  });

  it('draws one link per pair of cells, weighted, none inside a cell', () => {
    const g = aggregate(nodes, edges, 4);
    expect(g.links).toHaveLength(1);
    expect(g.links[0].weight).toBe(3);
  });

  it('keeps the heaviest links only', () => {
    const many = Array.from({ length: 100 }, (_, i) => ({ id: `n${i}`, x: i, y: i % 10, degree: 0, label: `n${i}` }));
    const links = Array.from({ length: 99 }, (_, i) => ({ from: `n${i}`, to: `n${i + 1}` }));
    const g = aggregate(many, links, 10, 5);
    expect(g.links).toHaveLength(5);
    expect(g.cells.reduce((s, c) => s + c.count, 0)).toBe(100);
  });
});
