// The debugger's state and the requests that fill it, apart from the view
// that renders them. Every request is latest-only: a reply to a request
// that a newer one of the same kind superseded (another request, another
// τ, another session) is dropped, so that a slow reply never overwrites a
// newer one. The replay also coalesces: while τ is dragged one replay
// runs at a time and only the latest parameters wait for it.
import type { SessionInfo } from '../types/sessions';
import type { ContextView, Curve, Drawing, MemoryVariant, Params, ReplayStep, ReplayTimeline, SessionMemory, ThreadInfo, Appended } from '../types/debugger';
import type { ViewState } from '../urlstate';
import { budgetRange, mergeStep } from '../replay';
import { PAPER_MEMORY, variantBudgets } from '../sessionmemory';
import { Latest } from './latest';

// Backend is what the controller asks of the Go services (the generated
// bindings in the app; a scripted stand-in in unit tests).
export interface Backend {
  open(key: string): Promise<SessionInfo>;
  threads(key: string): Promise<ThreadInfo[]>;
  following(): Promise<string[]>;
  markSeen(key: string, requests: number): Promise<void>;
  follow(key: string): Promise<void>;
  unfollow(key: string): Promise<void>;
  replay(key: string, p: Params): Promise<ReplayTimeline>;
  replayStep(key: string, p: Params, split: boolean): Promise<ReplayStep>;
  context(key: string, p: Params, k: number): Promise<ContextView>;
  graph(key: string, p: Params, k: number): Promise<Drawing>;
  sweep(key: string, p: Params, policies: string[], from: number, to: number, step: number): Promise<Curve[]>;
  memoryVariants(key: string, p: Params, budgets: number[]): Promise<MemoryVariant[]>;
  memory(key: string, p: Params): Promise<SessionMemory>;
}

// keyOf is the identity of a replay's parameters.
export const keyOf = (thread: number, counter: string, episodes: string, policy: string, budget: number) =>
  JSON.stringify([thread, counter, episodes, policy, budget]);

// Timing hooks, for the performance marks the browser tests read.
export interface Timing {
  replied?: (ms: number) => void;
}

export class DebuggerController {
  session = $state<SessionInfo | null>(null);
  threads = $state.raw<ThreadInfo[]>([]);
  loading = $state(false);
  // failed is why the last replay of the session shown failed, "" when it
  // did not: the view says so instead of "Loading…".
  failed = $state('');
  live = $state(false);
  // seenAtOpen is the request count the user had seen when the session
  // opened (-1 when it was all seen); newCount the requests since.
  seenAtOpen = $state(-1);
  newCount = $state(0);

  timeline = $state.raw<ReplayTimeline | null>(null);
  // split says whether the timeline shown splits its kept input by
  // category (cats, cached); a step of a τ drag leaves the split out.
  split = $state(true);
  // timelineKey is the session the timeline belongs to; shownKey the
  // params key of the timeline shown, resolved defaults included.
  timelineKey = $state('');
  shownKey = '';
  // timelineId names the session and thread of the timeline shown.
  timelineId = '';
  // tauStart is when the τ change the timeline answers was made (0 when
  // the timeline answers nothing timed).
  tauStart = 0;

  context = $state.raw<ContextView | null>(null);
  drawing = $state.raw<Drawing | null>(null);
  curves = $state.raw<Curve[]>([]);
  // variants is null while they are measured.
  variants = $state.raw<MemoryVariant[] | null>([]);
  other = $state.raw<ReplayTimeline | null>(null);
  otherVariant = $state.raw<MemoryVariant | null>(null);
  memory = $state.raw<SessionMemory | null>(null);

  #api: Backend;
  #onerror: (m: string) => void;
  #timing: Timing;
  #shownSession = '';
  #sessionReq = new Latest();
  #contextReq = new Latest();
  #graphReq = new Latest();
  #sweepReq = new Latest();
  #compareReq = new Latest();
  #memoryReq = new Latest();
  #replayReq = new Latest();
  #inflight = false;
  #pending: { key: string; p: Params; t0: number; vs: ViewState; apply: (patch: ViewState) => void; split: boolean } | null = null;
  #ctxTimer: ReturnType<typeof setTimeout> | undefined;
  // ctxAsking says a context call is out; ctxNext is the latest one that
  // waits for it.
  #ctxAsking = false;
  #ctxNext: (() => void) | null = null;
  #ctxWanted = '';
  #ctxParams = '';
  #memWanted = '';

  constructor(api: Backend, onerror: (m: string) => void, timing: Timing = {}) {
    this.#api = api;
    this.#onerror = onerror;
    this.#timing = timing;
  }

  #fail = (e: unknown) => this.#onerror((e as Error).message);

  // open shows session key: its info and threads. What was shown of
  // another session goes at once, and replies about it are dropped.
  open(key: string): void {
    if (key !== this.#shownSession) {
      this.#shownSession = key;
      this.context = null;
      this.drawing = null;
      this.other = null;
      this.otherVariant = null;
      this.curves = [];
      this.variants = [];
      this.memory = null;
      for (const l of [this.#contextReq, this.#graphReq, this.#sweepReq, this.#compareReq, this.#memoryReq, this.#replayReq]) l.drop();
      this.#ctxWanted = '';
      this.#memWanted = '';
      this.failed = '';
    }
    const current = this.#sessionReq.begin();
    this.loading = true;
    Promise.all([this.#api.open(key), this.#api.threads(key), this.#api.following()])
      .then(([info, th, following]) => {
        if (!current()) return;
        this.session = info;
        this.threads = th;
        this.live = following.includes(key);
        this.seenAtOpen = info.seen > 0 && info.seen < info.requests ? info.seen : -1;
        this.newCount = this.seenAtOpen >= 0 ? info.requests - info.seen : 0;
        this.#api.markSeen(key, info.requests).catch(() => {});
      })
      .catch(this.#fail)
      .finally(() => { if (current()) this.loading = false; });
  }

  // replay replays session key under p. apply receives the URL patch that
  // writes the defaults Go resolved (counter, episode mode, budget) and
  // keeps the step in range; vs is the view state the request was made in.
  // split false (while τ is dragged) lets a step of the timeline shown
  // leave out the split of the kept input by category.
  async replay(key: string, p: Params, t0: number, vs: ViewState, apply: (patch: ViewState) => void, split = true): Promise<void> {
    if (this.#inflight) {
      this.#pending = { key, p, t0, vs, apply, split };
      return;
    }
    this.#inflight = true;
    const current = this.#replayReq.begin();
    try {
      const sent = performance.now();
      // Another policy or τ of the replay shown asks only for what that
      // changes (at paper scale 825 KB of the timeline's 1.3 MB; while τ
      // is dragged, 120 KB); a session that grew meanwhile is replayed
      // whole.
      const base = this.#stepBase(key, p);
      const s = base ? await this.#api.replayStep(key, p, split) : null;
      let t = base && s ? mergeStep(base, s) : null;
      const splitShown = s === null || t === null || s.split;
      t ??= await this.#api.replay(key, p);
      this.#timing.replied?.(performance.now() - sent);
      if (!current() || key !== this.#shownSession) return;
      this.failed = '';
      this.tauStart = t0;
      this.split = splitShown;
      this.timeline = t;
      this.timelineKey = key;
      this.timelineId = `${key}/${p.thread}`;
      this.shownKey = keyOf(p.thread, t.counterName, t.episodes, p.policy, t.budget);
      const patch: ViewState = {};
      if (vs.counter !== t.counterName) patch.counter = t.counterName;
      if (vs.episodes !== t.episodes) patch.episodes = t.episodes;
      if (vs.budget !== t.budget) patch.budget = t.budget;
      if (vs.step === undefined || vs.step >= t.after.length) patch.step = Math.max(0, t.after.length - 1);
      if (Object.keys(patch).length > 0) apply(patch);
    } catch (e) {
      if (current()) {
        this.#fail(e);
        if (key === this.#shownSession) this.failed = (e as Error).message;
      }
    } finally {
      this.#inflight = false;
      const next = this.#pending;
      this.#pending = null;
      if (next) this.replay(next.key, next.p, next.t0, next.vs, next.apply, next.split);
    }
  }

  // stepBase is the timeline shown when a replay under p is a step of it:
  // the same session, thread, counter and episode mode, all resolved.
  #stepBase(key: string, p: Params): ReplayTimeline | null {
    const t = this.timeline;
    if (!t || this.timelineKey !== key || this.timelineId !== `${key}/${p.thread}`) return null;
    return p.counter === t.counterName && p.episodes === t.episodes && p.budget > 0 ? t : null;
  }

  // wantContext asks for the context at request k once the step settles:
  // soon after a step, later after a change of policy or τ (which may be
  // dragged). The same request is not fetched twice, and one is asked at
  // a time: one asked meanwhile waits for it, and only the latest waits.
  // (Before the first context arrives there is no delay, and a τ dragged
  // then used to leave a dozen contexts of a long session computing side
  // by side, each superseded, holding back the drag's replays.)
  wantContext(key: string, p: Params, k: number, requests: number): void {
    const sig = `${key}|${JSON.stringify(p)}|${requests}|${k}`;
    if (sig === this.#ctxWanted) return;
    this.#ctxWanted = sig;
    const pk = `${key}|${JSON.stringify(p)}`;
    const delay = this.context === null ? 0 : pk === this.#ctxParams ? 40 : 250;
    this.#ctxParams = pk;
    clearTimeout(this.#ctxTimer);
    const current = this.#contextReq.begin();
    const ask = () => {
      if (!current()) return;
      if (this.#ctxAsking) {
        this.#ctxNext = ask;
        return;
      }
      this.#ctxAsking = true;
      this.#api.context(key, p, k)
        .then((c) => { if (current()) this.context = c; })
        .catch((e) => { if (current()) { this.#ctxWanted = ''; this.#fail(e); } })
        .finally(() => {
          this.#ctxAsking = false;
          const next = this.#ctxNext;
          this.#ctxNext = null;
          next?.();
        });
    };
    this.#ctxTimer = setTimeout(ask, delay);
  }

  // loadGraph fetches the episode DAG at request k.
  loadGraph(key: string, p: Params, k: number): void {
    const current = this.#graphReq.begin();
    this.#api.graph(key, p, k).then((d) => { if (current()) this.drawing = d; }).catch((e) => { if (current()) this.#fail(e); });
  }

  // loadSweep replays every policy over the budget range of the timeline,
  // then measures paper+memory at a few of its budgets (current among
  // them when it is one).
  loadSweep(key: string, p: Params, current: number, policies: string[], before: number[]): void {
    const r = budgetRange(before);
    const stepSize = Math.max(1, Math.ceil((r.max - r.min) / 40 / r.step) * r.step);
    const newest = this.#sweepReq.begin();
    const base = { ...p, budget: 0 };
    this.#api.sweep(key, base, policies.filter((x) => x !== 'none'), r.min, r.max, stepSize)
      .then((c) => {
        if (!newest()) return;
        this.curves = c;
        const budgets = variantBudgets(c[0]?.points.map((x) => x.budget) ?? [], current);
        if (budgets.length === 0) {
          this.variants = [];
          return;
        }
        this.variants = null;
        return this.#api.memoryVariants(key, base, budgets).then((v) => { if (newest()) this.variants = v; });
      })
      .catch((e) => {
        if (!newest()) return;
        this.variants = [];
        this.#fail(e);
      });
  }

  // loadCompare replays B: another policy or τ. paper+memory is the
  // paper policy at τ − B with recall injected at the look-backs: B is
  // that replay, with the variant's totals.
  loadCompare(key: string, p: Params, policy: string, budget: number): void {
    const withMemory = policy === PAPER_MEMORY;
    const q = { ...p, policy: withMemory ? 'paper' : policy, budget };
    const current = this.#compareReq.begin();
    this.otherVariant = null;
    const variant = withMemory ? this.#api.memoryVariants(key, q, [budget]) : Promise.resolve([] as MemoryVariant[]);
    const replay = withMemory ? variant.then((v) => this.#api.replay(key, { ...q, budget: budget - v[0].recallBudget })) : this.#api.replay(key, q);
    Promise.all([variant, replay])
      .then(([v, t]) => {
        if (!current()) return;
        this.other = t;
        this.otherVariant = v[0] ?? null;
      })
      .catch((e) => { if (current()) this.#fail(e); });
  }

  // loadMemory fetches the session's memory under the replay, once per
  // replay: the panel works out every request's states itself.
  loadMemory(key: string, p: Params, requests: number): void {
    const sig = `${key}|${JSON.stringify(p)}|${requests}`;
    if (sig === this.#memWanted) return;
    this.#memWanted = sig;
    const current = this.#memoryReq.begin();
    this.#api.memory(key, p)
      .then((m) => { if (current()) this.memory = m; })
      .catch((e) => {
        if (!current()) return;
        this.#memWanted = '';
        this.#fail(e);
      });
  }

  // appended takes a live session's growth: the new count, the threads,
  // and a replay. It reports whether a was about the session shown.
  appended(a: Appended): boolean {
    if (a.key !== this.#shownSession || !this.session) return false;
    if (this.seenAtOpen < 0) this.seenAtOpen = this.session.requests;
    this.newCount = Math.max(0, a.requests - this.seenAtOpen);
    this.session = { ...this.session, requests: a.requests };
    const current = this.#sessionReq.begin();
    this.#api.threads(a.key).then((th) => { if (current()) this.threads = th; }).catch(() => {});
    return true;
  }

  // toggleLive follows the session live, or stops.
  async toggleLive(): Promise<void> {
    if (!this.session) return;
    try {
      if (this.live) await this.#api.unfollow(this.session.key);
      else await this.#api.follow(this.session.key);
      this.live = !this.live;
    } catch (e) {
      this.#fail(e);
    }
  }

  // markSeen records that every request of the session has been seen.
  markSeen(): void {
    if (!this.session) return;
    this.#api.markSeen(this.session.key, this.session.requests).catch(() => {});
    this.seenAtOpen = -1;
    this.newCount = 0;
  }

  // dispose stops a context request that is waiting to be sent.
  dispose(): void {
    clearTimeout(this.#ctxTimer);
  }
}
