import { describe, expect, test } from 'vitest';
import { actionFor, neighbour, shortcuts, viewFor } from './keys';

describe('actionFor', () => {
  test.each([
    ['j', 'next-request'], ['k', 'prev-request'], [']', 'next-eviction'], ['[', 'prev-eviction'],
    ['g', 'first-request'], ['G', 'last-request'], ['/', 'search'], ['l', 'toggle-live'], ['?', 'help'], ['Escape', 'close'],
  ])('%s → %s', (key, action) => expect(actionFor({ key })).toBe(action));
  test('unknown keys and modifiers are ignored', () => {
    expect(actionFor({ key: 'x' })).toBeNull();
    expect(actionFor({ key: 'j', ctrlKey: true })).toBeNull();
    expect(actionFor({ key: 'k', metaKey: true })).toBeNull();
  });
  test('typing in a field is not a shortcut, except Escape', () => {
    expect(actionFor({ key: 'j', target: { tagName: 'INPUT' } })).toBeNull();
    expect(actionFor({ key: '/', target: { tagName: 'TEXTAREA' } })).toBeNull();
    expect(actionFor({ key: 'g', target: { isContentEditable: true } })).toBeNull();
    expect(actionFor({ key: 'Escape', target: { tagName: 'INPUT' } })).toBe('close');
    expect(actionFor({ key: 'j', target: { tagName: 'DIV' } })).toBe('next-request');
  });
  test('every key is bound once', () => {
    const keys = shortcuts.flatMap((s) => s.keys);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('neighbour', () => {
  const evictions = [3, 8, 15];
  test.each([
    [0, 1, 3], [3, 1, 8], [15, 1, null], [9, -1, 8], [3, -1, null], [100, -1, 15],
  ])('from %d dir %d → %s', (cur, dir, want) => expect(neighbour(evictions, cur, dir as 1 | -1)).toBe(want));
});

describe('viewFor', () => {
  test.each([
    [{ key: '1', altKey: true }, 3, 0], [{ key: '3', altKey: true }, 3, 2], [{ key: '4', altKey: true }, 3, null],
    [{ key: '1' }, 3, null], [{ key: '1', altKey: true, ctrlKey: true }, 3, null], [{ key: 'x', altKey: true }, 3, null],
  ])('%o of %d views → %s', (e, n, want) => expect(viewFor(e, n as number)).toBe(want));
});
