import { describe, expect, test } from 'vitest';
import { formatTokens, peak, stack, step } from './timeline';
import type { Point } from './types/sessions';

const pt = (tokens: number, breakdown: number[]): Point => ({
  request: 0, line: 1, entryId: '', time: '', tokens, breakdown, messages: 1, reported: 0,
});

describe('stack', () => {
  test('accumulates categories and drops empty ones', () => {
    const points = [pt(6, [1, 0, 2, 3]), pt(10, [4, 0, 1, 5])];
    const { kept, series } = stack(points, ['a', 'b', 'c', 'd']);
    expect(kept).toEqual([0, 2, 3]);
    expect(Array.from(series[0])).toEqual([1, 4]);
    expect(Array.from(series[1])).toEqual([3, 5]);
    expect(Array.from(series[2])).toEqual([6, 10]);
  });
  test('the last series equals each point total', () => {
    const points = [pt(7.5, [2.5, 5]), pt(1, [0.25, 0.75])];
    const { series } = stack(points, ['x', 'y']);
    expect(Array.from(series[series.length - 1])).toEqual([7.5, 1]);
  });
  test('no points', () => {
    expect(stack([], ['a']).series).toEqual([]);
  });
});

describe('formatTokens', () => {
  test.each([
    [0, '0'], [950, '950'], [1000, '1k'], [1234, '1.23k'], [12_345, '12.3k'], [124_661, '124.7k'], [1_250_000, '1.25M'], [2_000_000, '2M'],
  ])('%d → %s', (n, want) => expect(formatTokens(n)).toBe(want));
});

describe('step', () => {
  test.each([
    ['j', 3, 10, 4], ['ArrowRight', 9, 10, 9], ['k', 0, 10, 0], ['ArrowLeft', 5, 10, 4],
    ['g', 7, 10, 0], ['G', 2, 10, 9], ['Home', 7, 10, 0], ['End', 0, 10, 9], ['PageDown', 5, 10, 9], ['PageUp', 5, 10, 0],
  ])('%s from %d of %d → %d', (key, cur, n, want) => expect(step(key as string, cur as number, n as number)).toBe(want));
  test('ignores other keys and empty timelines', () => {
    expect(step('x', 1, 10)).toBeNull();
    expect(step('j', 0, 0)).toBeNull();
  });
});

test('peak', () => {
  expect(peak([pt(3, []), pt(9, []), pt(4, [])])).toBe(1);
  expect(peak([])).toBe(-1);
});
