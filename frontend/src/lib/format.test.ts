import { expect, test } from 'vitest';
import { formatTokens } from './format';

test.each([
  [0, '0'], [950, '950'], [1000, '1k'], [1234, '1.23k'], [12_345, '12.3k'], [124_661, '124.7k'], [1_250_000, '1.25M'], [2_000_000, '2M'],
])('formatTokens(%d) = %s', (n, want) => expect(formatTokens(n)).toBe(want));
