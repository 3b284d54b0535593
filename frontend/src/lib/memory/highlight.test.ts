import { describe, expect, test } from 'vitest';
import { fragmentSegments, segments } from './highlight';

describe('segments', () => {
  test.each([
    ['Caroline went to the LGBTQ support group', ['caroline', 'support group'],
      [{ text: 'Caroline', mark: true }, { text: ' went to the LGBTQ ', mark: false }, { text: 'support group', mark: true }]],
    ['no match here', ['pottery'], [{ text: 'no match here', mark: false }]],
    ['Mel and Melanie', ['Melanie', 'Mel'], [{ text: 'Mel', mark: true }, { text: ' and ', mark: false }, { text: 'Melanie', mark: true }]],
    ['<script>alert(1)</script>', ['script'], [{ text: '<', mark: false }, { text: 'script', mark: true }, { text: '>alert(1)</', mark: false }, { text: 'script', mark: true }, { text: '>', mark: false }]],
    ['', ['x'], []],
  ])('%s', (text, terms, want) => {
    expect(segments(text, terms)).toEqual(want);
  });
});

describe('fragmentSegments', () => {
  test('byte offsets over multi-byte text', () => {
    // "Café 😀 pottery": é is 2 bytes, 😀 is 4 bytes; "pottery" starts at byte 11.
    expect(fragmentSegments({ text: 'Café 😀 pottery', marks: [{ start: 0, end: 5 }, { start: 11, end: 18 }], start: 0 })).toEqual([
      { text: 'Café', mark: true }, { text: ' 😀 ', mark: false }, { text: 'pottery', mark: true },
    ]);
  });
  test('marks out of range are clipped', () => {
    expect(fragmentSegments({ text: 'abc', marks: [{ start: 2, end: 99 }], start: 0 })).toEqual([{ text: 'ab', mark: false }, { text: 'c', mark: true }]);
  });
});
