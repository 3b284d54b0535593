import { describe, expect, test } from 'vitest';
import { annotateAction, step } from './annotkeys';

describe('annotateAction', () => {
  test.each([
    [{ key: 'j' }, 'next'],
    [{ key: 'k' }, 'prev'],
    [{ key: '1' }, 'helpful'],
    [{ key: '2' }, 'unhelpful'],
    [{ key: 's' }, 'sufficient'],
    [{ key: 'i' }, 'insufficient'],
    [{ key: 'n' }, 'note'],
    [{ key: 'Home' }, 'first'],
    [{ key: 'G' }, 'context'],
    [{ key: ']' }, 'next-question'],
    [{ key: 'x' }, null],
    [{ key: '1', ctrlKey: true }, null],
    [{ key: 'j', target: { tagName: 'TEXTAREA' } }, null],
    [{ key: 's', target: { tagName: 'DIV', isContentEditable: true } }, null],
  ] as const)('%o', (press, want) => {
    expect(annotateAction(press)).toBe(want);
  });
});

test('step stays in range', () => {
  expect(step(0, -1, 5)).toBe(0);
  expect(step(4, 1, 5)).toBe(4);
  expect(step(2, 1, 5)).toBe(3);
  expect(step(3, 1, 0)).toBe(0);
});
