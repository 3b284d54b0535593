import { expect, test } from 'vitest';
import { guarded } from './guard';

test('guard passes a value through and reports a rejection', async () => {
  const errors: string[] = [];
  const guard = guarded((m) => errors.push(m));
  expect(await guard(Promise.resolve(7))).toBe(7);
  expect(await guard(Promise.reject(new Error('no such session')))).toBeUndefined();
  expect(errors).toEqual(['no such session']);
});
