import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { DebuggerController, type Backend, type DebuggerState } from './controller.svelte';
import type { Appended, Curve, MemoryVariant, Params, ReplayStep, ReplayTimeline } from '../types/debugger';

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
// grow, which it returns too, sends a live session's growth to the
// controller, as the session:appended event does.
function scripted() {
  const calls: Record<string, { args: unknown[]; reply: ReturnType<typeof deferred<any>> }[]> = {};
  const listeners: ((a: Appended) => void)[] = [];
  const method = (name: string) => (...args: unknown[]) => {
    const reply = deferred<any>();
    (calls[name] ??= []).push({ args, reply });
    return reply.promise;
  };
  const onAppended = (fn: (a: Appended) => void) => {
    listeners.push(fn);
    return () => listeners.splice(listeners.indexOf(fn), 1);
  };
  const api = new Proxy({}, { get: (_t, name: string) => (name === 'onAppended' ? onAppended : method(name)) }) as Backend;
  const grow = (a: Appended) => listeners.forEach((fn) => fn(a));
  return { api, calls, grow };
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
    const patches: unknown[] = [];
    const c = new DebuggerController(api, () => {}, { onstate: (p) => patches.push(p) });
    c.open('a');
    c.replay('a', params, 0, {});
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
    const patches: unknown[] = [];
    const c = new DebuggerController(api, () => {}, { onstate: (p) => patches.push(p) });
    c.open('s');
    c.replay('s', { ...params, budget: 1000 }, 0, {});
    c.replay('s', { ...params, budget: 2000 }, 0, {});
    c.replay('s', { ...params, budget: 3000 }, 0, {});
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

  it('writes no default of a replay over a choice made while it ran', async () => {
    const { api, calls } = scripted();
    const patches: { budget?: number }[] = [];
    const c = new DebuggerController(api, () => {}, { onstate: (p) => patches.push(p) });
    c.open('s');
    // The thread's first replay asks Go for its default τ; τ 8000 is
    // typed before the reply comes.
    c.replay('s', { ...params, budget: 0 }, 0, {});
    c.replay('s', { ...params, budget: 8000 }, 0, { budget: 8000 });
    calls.replay[0].reply.resolve(timeline(21000));
    await flush();
    calls.replayStep[0].reply.resolve(step(8000));
    await flush();
    expect(c.timeline?.budget).toBe(8000);
    expect(patches.map((p) => p.budget)).not.toContain(21000);
  });

  it('asks a step of the replay shown for what the budget changes, and lays it over the rest', async () => {
    const { api, calls } = scripted();
    const c = new DebuggerController(api, () => {});
    c.open('s');
    c.replay('s', { ...params, budget: 1000 }, 0, {});
    calls.replay[0].reply.resolve({ ...timeline(1000), before: [5, 6, 7], lines: [1, 2, 3] } as ReplayTimeline);
    await flush();
    c.replay('s', { ...params, budget: 2000 }, 0, {});
    calls.replayStep[0].reply.resolve({ ...step(2000), after: [1, 2, 3] });
    await flush();
    expect(c.timeline).toMatchObject({ budget: 2000, after: [1, 2, 3], before: [5, 6, 7], lines: [1, 2, 3] });
    expect(calls.replay).toHaveLength(1);
  });

  it('asks a drag step without the split, and says the timeline shown has none until a step with it', async () => {
    const { api, calls } = scripted();
    const c = new DebuggerController(api, () => {});
    c.open('s');
    c.replay('s', { ...params, budget: 1000 }, 0, {});
    calls.replay[0].reply.resolve({ ...timeline(1000), cats: [[1, 1, 1]] } as unknown as ReplayTimeline);
    await flush();
    expect(c.split).toBe(true);
    c.replay('s', { ...params, budget: 2000 }, 0, {}, false);
    expect(calls.replayStep[0].args[2]).toBe(false);
    calls.replayStep[0].reply.resolve({ ...step(2000), split: false, cats: [] });
    await flush();
    expect(c.split).toBe(false);
    expect(c.timeline?.cats).toEqual([]);
    // The thumb let go: the same τ again, with the split.
    c.replay('s', { ...params, budget: 2000 }, 0, {});
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
    c.replay('s', { ...params, budget: 1000 }, 0, {});
    calls.replay[0].reply.resolve(timeline(1000));
    await flush();
    c.replay('s', { ...params, budget: 2000 }, 0, {});
    calls.replayStep[0].reply.resolve(step(2000, 4)); // four requests now
    await flush();
    expect(calls.replay).toHaveLength(2);
    calls.replay[1].reply.resolve(timeline(2000, 4));
    await flush();
    expect(c.timeline?.after).toHaveLength(4);
    c.replay('s', { ...params, counter: 'o200k', budget: 2000 }, 0, {});
    await flush();
    expect(calls.replay).toHaveLength(3);
    expect(calls.replayStep).toHaveLength(1);
  });

  it('says why the replay of the session shown failed, and forgets it for another session', async () => {
    const { api, calls } = scripted();
    const errors: string[] = [];
    const c = new DebuggerController(api, (m) => errors.push(m));
    c.open('otlp');
    c.replay('otlp', { ...params, counter: 'calibrated' }, 0, {});
    calls.replay[0].reply.reject(new Error('this thread records no provider usage to calibrate on'));
    await flush();
    expect(c.failed).toBe('this thread records no provider usage to calibrate on');
    expect(errors).toHaveLength(1);
    c.replay('otlp', { ...params, counter: '' }, 0, {});
    calls.replay[1].reply.resolve(timeline(1000));
    await flush();
    expect(c.failed).toBe('');
    c.replay('otlp', { ...params, counter: 'calibrated' }, 0, {});
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

// counts is how many calls of each method the backend received.
const counts = (calls: Record<string, unknown[]>) => Object.fromEntries(Object.entries(calls).map(([k, v]) => [k, v.length]));
const view = (vs: DebuggerState['vs'], more: Partial<DebuggerState> = {}): DebuggerState => ({ session: 's', vs, scrubbing: false, tauSliding: false, ...more });

describe('DebuggerController.show: the controller decides every fetch', () => {
  it('asks for the session, the replay, the context and the open panel, each once per state that needs it', async () => {
    vi.useFakeTimers();
    try {
      const { api, calls } = scripted();
      const patches: unknown[] = [];
      const c = new DebuggerController(api, () => {}, { onstate: (p) => patches.push(p) });
      c.show(view({}));
      c.show(view({})); // the same state again: nothing new
      expect(counts(calls)).toEqual({ policies: 1, counters: 1, open: 1, threads: 1, following: 1, replay: 1 });
      expect(calls.replay[0].args[1]).toEqual({ thread: 0, counter: '', episodes: '', policy: 'paper', budget: 0 });
      calls.replay[0].reply.resolve({ ...timeline(20000, 5), before: [1, 2, 3, 4, 5] } as ReplayTimeline);
      await vi.advanceTimersByTimeAsync(0);
      // Go's defaults go into the URL, and the step to the last request.
      expect(patches).toEqual([{ counter: 'estimate', episodes: 'declared', budget: 20000, step: 4 }]);
      const vs = { counter: 'estimate', episodes: 'declared', budget: 20000, step: 4 };
      c.show(view(vs)); // the URL written back: no replay again
      await vi.advanceTimersByTimeAsync(0);
      expect(calls.replay).toHaveLength(1);
      expect(calls.context.map((x) => x.args[2])).toEqual([0]);
      calls.context[0].reply.resolve({ request: 0 } as never);
      await vi.advanceTimersByTimeAsync(40);
      expect(calls.context.map((x) => x.args[2])).toEqual([0, 4]);
      // A scrub asks for nothing until it ends.
      c.show(view({ ...vs, step: 2, panel: 'graph' }, { scrubbing: true }));
      await vi.advanceTimersByTimeAsync(300);
      expect(calls.context).toHaveLength(2);
      expect(calls.graph).toBeUndefined();
      c.show(view({ ...vs, step: 2, panel: 'graph' }));
      c.show(view({ ...vs, step: 2, panel: 'graph' }));
      expect(calls.graph.map((x) => x.args[2])).toEqual([2]);
      // Each panel asks for its own content, once.
      for (const panel of ['sweep', 'compare', 'memory', 'breakdown', 'sweep']) c.show(view({ ...vs, step: 2, panel }));
      expect(calls.sweep).toHaveLength(1);
      expect(calls.memory).toHaveLength(1);
      expect(calls.replay).toHaveLength(2); // the comparison's
      expect(calls.replay[1].args[1]).toMatchObject({ policy: 'pi-cwl', budget: 20000 });
      // Another τ: the replay is a step of the one shown.
      c.show(view({ ...vs, step: 2, budget: 30000 }));
      expect(calls.replayStep.map((x) => (x.args[1] as Params).budget)).toEqual([30000]);
      expect(calls.open).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('drops a context reply that a τ drag superseded, and asks no replay for a τ passed over', async () => {
    vi.useFakeTimers();
    try {
      const { api, calls } = scripted();
      const c = new DebuggerController(api, () => {});
      const vs = { counter: 'estimate', episodes: 'declared', budget: 1000, step: 2 };
      c.show(view(vs));
      calls.replay[0].reply.resolve(timeline(1000));
      await vi.advanceTimersByTimeAsync(0);
      expect(calls.context).toHaveLength(1); // at τ 1000
      for (const budget of [2000, 3000, 4000]) c.show(view({ ...vs, budget }, { tauSliding: true }));
      expect(calls.replayStep.map((x) => [(x.args[1] as Params).budget, x.args[2]])).toEqual([[2000, false]]);
      calls.replayStep[0].reply.resolve(step(2000));
      await vi.advanceTimersByTimeAsync(0);
      // 3000 was passed over: only the latest τ waited for the replay.
      expect(calls.replayStep.map((x) => (x.args[1] as Params).budget)).toEqual([2000, 4000]);
      calls.replayStep[1].reply.resolve(step(4000));
      await vi.advanceTimersByTimeAsync(300);
      // The context at τ 1000 comes last, after the drag moved on: dropped.
      calls.context[0].reply.resolve({ request: 2, budget: 1000 } as never);
      await vi.advanceTimersByTimeAsync(0);
      expect(c.context).toBeNull();
      expect(c.timeline?.budget).toBe(4000);
      const last = calls.context.at(-1)!;
      expect((last.args[1] as Params).budget).toBe(4000);
      last.reply.resolve({ request: 2, budget: 4000 } as never);
      await vi.advanceTimersByTimeAsync(0);
      expect(c.context).toMatchObject({ budget: 4000 });
      // The thumb let go: τ 4000 once more, with the split.
      c.show(view({ ...vs, budget: 4000 }));
      expect(calls.replayStep.map((x) => x.args[2])).toEqual([false, false, true]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('takes a live growth of a session still opening: the session shown is that session, with its new count, and not loading', async () => {
    const { api, calls, grow } = scripted();
    const c = new DebuggerController(api, () => {});
    c.show({ ...view({}), session: 'a' });
    calls.open[0].reply.resolve({ key: 'a', seen: 0, requests: 3 } as never);
    calls.threads[0].reply.resolve([]);
    calls.following[0].reply.resolve(['a', 'b']);
    calls.replay[0].reply.resolve(timeline(1000));
    await flush();
    expect(c.session?.key).toBe('a');
    c.show({ ...view({}), session: 'b' });
    grow({ key: 'b', requests: 7 } as Appended); // while b opens
    grow({ key: 'a', requests: 9 } as Appended); // no longer shown
    for (const [name, i] of [['open', 1], ['threads', 1], ['following', 1]] as const) {
      calls[name][i].reply.resolve(name === 'open' ? { key: 'b', seen: 0, requests: 5 } : name === 'threads' ? [] : ['a', 'b']);
    }
    await flush();
    expect(c.session).toMatchObject({ key: 'a', requests: 3 }); // b's first reply predates the growth: dropped
    expect(c.loading).toBe(true);
    expect(calls.open.map((x) => x.args[0])).toEqual(['a', 'b', 'b']);
    calls.open[2].reply.resolve({ key: 'b', seen: 0, requests: 7 } as never);
    calls.threads[2].reply.resolve([]);
    calls.following[2].reply.resolve(['a', 'b']);
    await flush();
    expect(c.session).toMatchObject({ key: 'b', requests: 7 });
    expect(c.loading).toBe(false);
    expect(calls.replay.map((x) => x.args[0])).toEqual(['a', 'b']); // b's replay, once: the growth's waits for it
    c.dispose();
    grow({ key: 'b', requests: 8 } as Appended);
    expect(calls.open).toHaveLength(3);
  });

  it('is the only caller: the debugger view imports no API and calls none', () => {
    const src = readFileSync(new URL('../../views/DebuggerView.svelte', import.meta.url), 'utf8');
    expect(src).not.toMatch(/from '\.\.\/lib\/api\//);
    expect(src).not.toMatch(/\b(api|sessionsApi|liveApi|debuggerApi|memoryApi)\./);
    // One effect hands the state to the controller; the other is the
    // view's own (a block to mark, asked for in the URL).
    expect(src.match(/\$effect\(/g)).toHaveLength(2);
  });
});
