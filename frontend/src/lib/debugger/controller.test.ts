import { describe, expect, it, vi } from 'vitest';
import { DebuggerController, type Backend } from './controller.svelte';
import type { Curve, MemoryVariant, Params, ReplayStep, ReplayTimeline } from '../types/debugger';

// deferred is a promise the test settles when it chooses, so that replies
// can arrive in any order.
function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<T>((res, rej) => { resolve = res; reject = rej; });
  return { promise, resolve, reject };
}

// scripted is a Backend whose every call waits for the test: calls[method]
// lists the pending replies in call order.
function scripted() {
  const calls: Record<string, { args: unknown[]; reply: ReturnType<typeof deferred<any>> }[]> = {};
  const method = (name: string) => (...args: unknown[]) => {
    const reply = deferred<any>();
    (calls[name] ??= []).push({ args, reply });
    return reply.promise;
  };
  const api = new Proxy({}, { get: (_t, name: string) => method(name) }) as Backend;
  return { api, calls };
}

const flush = () => new Promise((r) => setTimeout(r, 0));
const params: Params = { thread: 0, counter: 'estimate', episodes: 'declared', policy: 'paper', budget: 20000 };
const curve = (policy: string, budgets: number[]): Curve[] => [{ policy, points: budgets.map((b) => ({ budget: b })) as Curve['points'] }];
const variant = (budget: number): MemoryVariant => ({ policy: 'paper+memory', budget, recallBudget: 500 } as MemoryVariant);
const step = (budget: number, n = 3): ReplayStep => ({
  budget, policy: 'paper', requests: n, after: new Array(n).fill(0),
  evictions: { k: [], episode: [], level: [] }, restored: { k: [], episode: [], level: [] }, unreachable: { k: [], over: [] },
} as unknown as ReplayStep);
const timeline = (budget: number, n = 3): ReplayTimeline => ({ budget, counterName: 'estimate', episodes: 'declared', after: new Array(n).fill(0) } as unknown as ReplayTimeline);

describe('DebuggerController', () => {
  it('drops a superseded sweep reply, and its paper+memory reply', async () => {
    const { api, calls } = scripted();
    const c = new DebuggerController(api, () => {});
    c.loadSweep('s', params, 20000, ['paper'], [30000, 40000]);
    c.loadSweep('s', { ...params, counter: 'o200k' }, 20000, ['paper'], [30000, 40000]);
    calls.sweep[1].reply.resolve(curve('new', [1000, 2000]));
    await flush();
    calls.sweep[0].reply.resolve(curve('old', [1000, 2000]));
    await flush();
    expect(c.curves[0].policy).toBe('new');
    expect(calls.memoryVariants).toHaveLength(1); // the old sweep asked for none
    expect(c.variants).toBeNull();
    calls.memoryVariants[0].reply.resolve([variant(2000)]);
    await flush();
    expect(c.variants).toEqual([variant(2000)]);
  });

  it('drops a paper+memory reply of a sweep superseded meanwhile', async () => {
    const { api, calls } = scripted();
    const c = new DebuggerController(api, () => {});
    c.loadSweep('s', params, 20000, ['paper'], [30000]);
    calls.sweep[0].reply.resolve(curve('first', [1000, 2000]));
    await flush();
    c.loadSweep('s', params, 20000, ['paper'], [30000]);
    calls.memoryVariants[0].reply.resolve([variant(1)]);
    await flush();
    expect(c.variants).toBeNull();
  });

  it('drops a superseded compare reply', async () => {
    const { api, calls } = scripted();
    const c = new DebuggerController(api, () => {});
    c.loadCompare('s', params, 'pi-cwl', 20000);
    c.loadCompare('s', params, 'truncate', 20000);
    calls.replay[1].reply.resolve(timeline(2));
    await flush();
    calls.replay[0].reply.resolve(timeline(1));
    await flush();
    expect(c.other?.budget).toBe(2);
    expect((calls.replay[1].args[1] as Params).policy).toBe('truncate');
  });

  it('compares with paper+memory as the paper policy at τ − B with the variant', async () => {
    const { api, calls } = scripted();
    const c = new DebuggerController(api, () => {});
    c.loadCompare('s', params, 'paper+memory', 20000);
    calls.memoryVariants[0].reply.resolve([variant(20000)]);
    await flush();
    expect(calls.replay[0].args[1]).toMatchObject({ policy: 'paper', budget: 19500 });
    calls.replay[0].reply.resolve(timeline(19500));
    await flush();
    expect(c.otherVariant?.budget).toBe(20000);
    expect(c.other?.budget).toBe(19500);
  });

  it('sends the context of the settled step only, and drops an older reply', async () => {
    vi.useFakeTimers();
    try {
      const { api, calls } = scripted();
      const c = new DebuggerController(api, () => {});
      c.wantContext('s', params, 1, 10);
      vi.advanceTimersByTime(0);
      calls.context[0].reply.resolve({ request: 1 } as never);
      await vi.advanceTimersByTimeAsync(1);
      expect(c.context?.request).toBe(1);
      c.wantContext('s', params, 2, 10);
      c.wantContext('s', params, 3, 10); // before the first was sent
      c.wantContext('s', params, 3, 10); // the same again: nothing new
      await vi.advanceTimersByTimeAsync(40);
      expect(calls.context).toHaveLength(2);
      expect(calls.context[1].args[2]).toBe(3);
      c.wantContext('s', params, 4, 10);
      await vi.advanceTimersByTimeAsync(40);
      expect(calls.context).toHaveLength(2); // 4 waits for 3
      calls.context[1].reply.resolve({ request: 3 } as never);
      await vi.advanceTimersByTimeAsync(1);
      expect(c.context?.request).toBe(1); // 3's reply, superseded, is dropped
      expect(calls.context[2].args[2]).toBe(4);
      calls.context[2].reply.resolve({ request: 4 } as never);
      await vi.advanceTimersByTimeAsync(1);
      expect(c.context?.request).toBe(4);
    } finally {
      vi.useRealTimers();
    }
  });

  it('asks for one context at a time while τ is dragged before the first has come', async () => {
    vi.useFakeTimers();
    try {
      const { api, calls } = scripted();
      const c = new DebuggerController(api, () => {});
      // No context yet: each τ of the drag asks at once (no delay).
      for (const budget of [20000, 21000, 22000, 23000]) {
        c.wantContext('s', { ...params, budget }, 9, 10);
        await vi.advanceTimersByTimeAsync(0);
      }
      expect(calls.context).toHaveLength(1);
      calls.context[0].reply.resolve({ request: 9, tokens: 20000 } as never);
      await vi.advanceTimersByTimeAsync(0);
      expect(c.context).toBeNull(); // superseded
      expect(calls.context).toHaveLength(2); // only the latest waited
      expect((calls.context[1].args[1] as Params).budget).toBe(23000);
      calls.context[1].reply.reject(new Error('failed'));
      await vi.advanceTimersByTimeAsync(0);
      c.wantContext('s', { ...params, budget: 24000 }, 9, 10); // a failure frees the way too
      await vi.advanceTimersByTimeAsync(0);
      expect(calls.context).toHaveLength(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('drops the replies about a session no longer shown', async () => {
    const { api, calls } = scripted();
    const c = new DebuggerController(api, () => {});
    c.open('a');
    const patches: unknown[] = [];
    c.replay('a', params, 0, {}, (p) => patches.push(p));
    c.loadMemory('a', params, 3);
    c.loadGraph('a', params, 1);
    c.open('b');
    calls.replay[0].reply.resolve(timeline(1));
    calls.memory[0].reply.resolve({ requests: 3 } as never);
    calls.graph[0].reply.resolve({ nodes: [] } as never);
    calls.open[0].reply.resolve({ key: 'a', seen: 0, requests: 3 } as never);
    calls.threads[0].reply.resolve([]);
    calls.following[0].reply.resolve([]);
    await flush();
    expect(c.timeline).toBeNull();
    expect(c.memory).toBeNull();
    expect(c.drawing).toBeNull();
    expect(c.session).toBeNull();
    expect(patches).toEqual([]);
  });

  it('coalesces replays while one runs: only the latest parameters wait', async () => {
    const { api, calls } = scripted();
    const c = new DebuggerController(api, () => {});
    c.open('s');
    const patches: unknown[] = [];
    const apply = (p: unknown) => patches.push(p);
    c.replay('s', { ...params, budget: 1000 }, 0, {}, apply);
    c.replay('s', { ...params, budget: 2000 }, 0, {}, apply);
    c.replay('s', { ...params, budget: 3000 }, 0, {}, apply);
    expect(calls.replay).toHaveLength(1);
    calls.replay[0].reply.resolve(timeline(1000));
    await flush();
    // The next is a step of the replay shown.
    expect(calls.replay).toHaveLength(1);
    expect(calls.replayStep).toHaveLength(1);
    expect((calls.replayStep[0].args[1] as Params).budget).toBe(3000);
    calls.replayStep[0].reply.resolve(step(3000));
    await flush();
    expect(c.timeline?.budget).toBe(3000);
    expect(patches.at(-1)).toMatchObject({ budget: 3000, step: 2 });
  });

  it('asks a step of the replay shown for what the budget changes, and lays it over the rest', async () => {
    const { api, calls } = scripted();
    const c = new DebuggerController(api, () => {});
    c.open('s');
    c.replay('s', { ...params, budget: 1000 }, 0, {}, () => {});
    calls.replay[0].reply.resolve({ ...timeline(1000), before: [5, 6, 7], lines: [1, 2, 3] } as ReplayTimeline);
    await flush();
    c.replay('s', { ...params, budget: 2000 }, 0, {}, () => {});
    calls.replayStep[0].reply.resolve({ ...step(2000), after: [1, 2, 3] });
    await flush();
    expect(c.timeline).toMatchObject({ budget: 2000, after: [1, 2, 3], before: [5, 6, 7], lines: [1, 2, 3] });
    expect(calls.replay).toHaveLength(1);
  });

  it('asks a drag step without the split, and says the timeline shown has none until a step with it', async () => {
    const { api, calls } = scripted();
    const c = new DebuggerController(api, () => {});
    c.open('s');
    c.replay('s', { ...params, budget: 1000 }, 0, {}, () => {});
    calls.replay[0].reply.resolve({ ...timeline(1000), cats: [[1, 1, 1]] } as unknown as ReplayTimeline);
    await flush();
    expect(c.split).toBe(true);
    c.replay('s', { ...params, budget: 2000 }, 0, {}, () => {}, false);
    expect(calls.replayStep[0].args[2]).toBe(false);
    calls.replayStep[0].reply.resolve({ ...step(2000), split: false, cats: [] });
    await flush();
    expect(c.split).toBe(false);
    expect(c.timeline?.cats).toEqual([]);
    // The thumb let go: the same τ again, with the split.
    c.replay('s', { ...params, budget: 2000 }, 0, {}, () => {});
    expect(calls.replayStep[1].args[2]).toBe(true);
    calls.replayStep[1].reply.resolve({ ...step(2000), split: true, cats: [[2, 2, 2]] });
    await flush();
    expect(c.split).toBe(true);
    expect(c.timeline).toMatchObject({ budget: 2000, cats: [[2, 2, 2]] });
  });

  it('replays whole when the session grew since the replay shown, or for another counter', async () => {
    const { api, calls } = scripted();
    const c = new DebuggerController(api, () => {});
    c.open('s');
    c.replay('s', { ...params, budget: 1000 }, 0, {}, () => {});
    calls.replay[0].reply.resolve(timeline(1000));
    await flush();
    c.replay('s', { ...params, budget: 2000 }, 0, {}, () => {});
    calls.replayStep[0].reply.resolve(step(2000, 4)); // four requests now
    await flush();
    expect(calls.replay).toHaveLength(2);
    calls.replay[1].reply.resolve(timeline(2000, 4));
    await flush();
    expect(c.timeline?.after).toHaveLength(4);
    c.replay('s', { ...params, counter: 'o200k', budget: 2000 }, 0, {}, () => {});
    await flush();
    expect(calls.replay).toHaveLength(3);
    expect(calls.replayStep).toHaveLength(1);
  });

  it('says why the replay of the session shown failed, and forgets it for another session', async () => {
    const { api, calls } = scripted();
    const errors: string[] = [];
    const c = new DebuggerController(api, (m) => errors.push(m));
    c.open('otlp');
    c.replay('otlp', { ...params, counter: 'calibrated' }, 0, {}, () => {});
    calls.replay[0].reply.reject(new Error('this thread records no provider usage to calibrate on'));
    await flush();
    expect(c.failed).toBe('this thread records no provider usage to calibrate on');
    expect(errors).toHaveLength(1);
    c.replay('otlp', { ...params, counter: '' }, 0, {}, () => {});
    calls.replay[1].reply.resolve(timeline(1000));
    await flush();
    expect(c.failed).toBe('');
    c.replay('otlp', { ...params, counter: 'calibrated' }, 0, {}, () => {});
    calls.replay[2].reply.reject(new Error('x'));
    await flush();
    c.open('other');
    expect(c.failed).toBe('');
  });

  it('reports an error of the newest request only', async () => {
    const { api, calls } = scripted();
    const errors: string[] = [];
    const c = new DebuggerController(api, (m) => errors.push(m));
    c.loadGraph('s', params, 1);
    c.loadGraph('s', params, 2);
    calls.graph[0].reply.reject(new Error('superseded by a newer call'));
    calls.graph[1].reply.reject(new Error('no such request'));
    await flush();
    expect(errors).toEqual(['no such request']);
  });
});
