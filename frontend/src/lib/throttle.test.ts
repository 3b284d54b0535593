import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Throttle } from './throttle';

describe('Throttle', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs at once, then once at the end of a burst with the latest state', () => {
    let state = 0;
    const seen: number[] = [];
    const t = new Throttle(() => seen.push(state), 250);
    state = 1;
    t.ask();
    expect(seen).toEqual([1]);
    for (state = 2; state <= 40; state++) {
      t.ask();
      vi.advanceTimersByTime(16);
    }
    // 40 asks over 624 ms: a run every 250 ms, each with the state of then.
    expect(seen).toEqual([1, 17, 33]);
    vi.advanceTimersByTime(250);
    expect(seen).toEqual([1, 17, 33, 41]);
    vi.advanceTimersByTime(1000);
    expect(seen).toHaveLength(4);
  });

  it('runs at once again once the interval has passed', () => {
    const seen: number[] = [];
    const t = new Throttle(() => seen.push(performance.now()), 250);
    t.ask();
    vi.advanceTimersByTime(300);
    t.ask();
    expect(seen).toHaveLength(2);
  });

  it('flush runs a pending run now, and only a pending one', () => {
    let runs = 0;
    const t = new Throttle(() => runs++, 250);
    t.flush();
    expect(runs).toBe(0);
    t.ask();
    t.ask();
    t.flush();
    expect(runs).toBe(2);
    vi.advanceTimersByTime(1000);
    expect(runs).toBe(2);
  });
});
