// The debugger's state and the requests that fill it, apart from the view
// that renders them. The controller is the one owner of what the debugger
// fetches: the view gives it the view state ([DebuggerController.show]:
// the URL's parameters, step and panel, and whether the timeline or τ is
// being dragged) and its events, and the controller decides what to ask
// Go, and writes the defaults Go resolved back into the URL (onstate).
//
// Every request is latest-only: a reply to a request that a newer one of
// the same kind superseded (another request, another τ, another session)
// is dropped, so that a slow reply never overwrites a newer one. The
// replay also coalesces: while τ is dragged one replay runs at a time and
// only the latest parameters wait for it.
import type { SessionInfo } from '../types/sessions';
import type { ContextView, Curve, Drawing, Location, MemoryVariant, Params, ReplayStep, ReplayTimeline, SessionMemory, ThreadInfo, Appended } from '../types/debugger';
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
  policies(): Promise<string[]>;
  counters(): Promise<string[]>;
  locate(key: string, thread: number, entry: number): Promise<Location>;
  block(key: string, p: Params, k: number, i: number, b: number): Promise<string>;
  exportReplay(key: string, p: Params, format: string): Promise<string>;
  exportTimelineSVG(key: string, p: Params): Promise<string>;
  saveReplay(key: string, p: Params, format: string): Promise<string>;
  saveTimelineSVG(key: string, p: Params): Promise<string>;
  saveGraph(key: string, p: Params, k: number): Promise<string>;
  rendered(view: string, requests: number): Promise<void>;
  atWork(): Promise<void>;
  // onAppended calls fn for each live session's growth and returns the
  // function that stops it.
  onAppended(fn: (a: Appended) => void): () => void;
}

// DebuggerState is what the view shows, as the controller needs it: the
// session, the URL's view state, and whether the timeline is scrubbed or
// the τ thumb held.
export interface DebuggerState {
  session: string;
  vs: ViewState;
  scrubbing: boolean;
  tauSliding: boolean;
}

// paramsOf reads the replay parameters of a view state. Episodes "",
// counter "" and budget 0 ask Go for its defaults (declared episodes if
// the thread has any, the provider's calibrated tokens if it reports
// usage, half the peak input); the replay says which, and the controller
// writes them into the URL.
export function paramsOf(vs: ViewState): Params {
  return { thread: vs.thread ?? 0, counter: vs.counter ?? '', episodes: vs.episodes ?? '', policy: vs.policy ?? 'paper', budget: vs.budget ?? 0 };
}

// comparedWith is the other side of the comparison panel: the URL's, or
// by default pi-cwl against paper (paper otherwise) at the same τ.
export function comparedWith(vs: ViewState): { policy: string; budget: number } {
  const p = paramsOf(vs);
  return { policy: vs.cpolicy ?? (p.policy === 'paper' ? 'pi-cwl' : 'paper'), budget: vs.cbudget ?? p.budget };
}

// keyOf is the identity of a replay's parameters.
export const keyOf = (thread: number, counter: string, episodes: string, policy: string, budget: number) =>
  JSON.stringify([thread, counter, episodes, policy, budget]);

// Hooks are how the controller reaches out: onstate writes a patch of the
// view state (the URL); the rest are the performance marks the browser
// tests read.
export interface Hooks {
  onstate?: (patch: ViewState) => void;
  replied?: (ms: number) => void;
  drawn?: () => void;
  firstDraw?: (requests: number) => void;
  tauDrawn?: (ms: number) => void;
}

// Export formats: the replay as data, the timeline as SVG, the episode
// graph at the current request as SVG.
export type ExportFormat = 'json' | 'csv' | 'chart-svg' | 'dag-svg';

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
  policies = $state.raw<string[]>(['paper', 'pi-cwl', 'none', 'truncate', 'compact']);
  counters = $state.raw<string[]>(['calibrated', 'estimate']);

  #api: Backend;
  #onerror: (m: string) => void;
  #hooks: Hooks;
  #stopLive: () => void;
  // state is the view state last shown; asked, by kind of request, the
  // signature of what was last asked, so that a view state that changes
  // nothing a request depends on asks nothing again.
  #state: DebuggerState = { session: '', vs: {}, scrubbing: false, tauSliding: false };
  #asked: Record<string, string> = {};
  // timelineGen counts the timelines shown: what derives from one asks
  // again for the next.
  #timelineGen = 0;
  #drawnFor = '';
  #atWorkAt = -Infinity;
  #shownSession = '';
  #threadsReq = new Latest();
  #sessionReq = new Latest();
  #contextReq = new Latest();
  #graphReq = new Latest();
  #sweepReq = new Latest();
  #compareReq = new Latest();
  #memoryReq = new Latest();
  #replayReq = new Latest();
  #inflight = false;
  #pending: { key: string; p: Params; t0: number; vs: ViewState; split: boolean } | null = null;
  #ctxTimer: ReturnType<typeof setTimeout> | undefined;
  // ctxAsking says a context call is out; ctxNext is the latest one that
  // waits for it.
  #ctxAsking = false;
  #ctxNext: (() => void) | null = null;
  #ctxWanted = '';
  #ctxParams = '';
  #memWanted = '';

  constructor(api: Backend, onerror: (m: string) => void, hooks: Hooks = {}) {
    this.#api = api;
    this.#onerror = onerror;
    this.#hooks = hooks;
    this.#stopLive = api.onAppended((a) => this.#grew(a));
    api.policies().then((p) => (this.policies = p)).catch(() => {});
    api.counters().then((c) => (this.counters = c)).catch(() => {});
  }

  #fail = (e: unknown) => this.#onerror((e as Error).message);

  // show takes the view state and asks for what it needs that is not
  // shown or asked already: the session, the replay under the URL's
  // parameters, the context at the settled step, and what the open panel
  // shows. The view calls it whenever its state changes.
  show(s: DebuggerState): void {
    this.#state = s;
    const key = s.session;
    if (!key) return;
    if (key !== this.#shownSession) this.open(key);
    const p = paramsOf(s.vs);
    const pk = keyOf(p.thread, p.counter, p.episodes, p.policy, p.budget);
    const split = !s.tauSliding;
    // The replay, whenever a replay parameter changes, and once more with
    // the split when the τ thumb is let go on a replay without it.
    if (this.#ask('replay', `${key}|${pk}|${split}`) && !(key === this.timelineKey && pk === this.shownKey && (this.split || !split))) {
      this.replay(key, p, performance.now(), s.vs, split);
    }
    this.#fetchShown();
  }

  // ask records sig as what a request of kind last asked, and reports
  // whether it differs from what it asked before.
  #ask(kind: string, sig: string): boolean {
    if (this.#asked[kind] === sig) return false;
    this.#asked[kind] = sig;
    return true;
  }

  // fetchShown asks for what derives from the timeline shown: the context
  // at the step once it settles, and the open panel's content.
  #fetchShown(): void {
    const { session: key, vs, scrubbing } = this.#state;
    const t = this.timeline;
    if (!key || !t || this.timelineKey !== key) return;
    const p = paramsOf(vs);
    const n = t.after.length;
    const k = Math.max(0, Math.min(n - 1, vs.step ?? 0));
    const base = `${key}|${JSON.stringify(p)}|${this.#timelineGen}`;
    if (n > 0 && !scrubbing) this.wantContext(key, p, k, n);
    switch (vs.panel ?? 'breakdown') {
      case 'graph':
        if (n > 0 && !scrubbing && this.#ask('graph', `${base}|${k}`)) this.loadGraph(key, p, k);
        break;
      case 'sweep':
        if (this.#ask('sweep', base)) this.loadSweep(key, p, p.budget, this.policies, t.before);
        break;
      case 'compare': {
        const c = comparedWith(vs);
        if (c.budget > 0 && this.#ask('compare', `${base}|${c.policy}|${c.budget}`)) this.loadCompare(key, p, c.policy, c.budget);
        break;
      }
      case 'memory':
        if (!scrubbing) this.loadMemory(key, p, n);
        break;
    }
  }

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
      for (const l of [this.#contextReq, this.#graphReq, this.#sweepReq, this.#compareReq, this.#memoryReq, this.#replayReq, this.#threadsReq]) l.drop();
      this.#asked = {};
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

  // replay replays session key under p. The hook onstate receives the URL
  // patch that writes the defaults Go resolved (counter, episode mode,
  // budget) and keeps the step in range; vs is the view state the request
  // was made in. split false (while τ is dragged) lets a step of the
  // timeline shown leave out the split of the kept input by category.
  async replay(key: string, p: Params, t0: number, vs: ViewState, split = true): Promise<void> {
    if (this.#inflight) {
      this.#pending = { key, p, t0, vs, split };
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
      this.#hooks.replied?.(performance.now() - sent);
      if (!current() || key !== this.#shownSession) return;
      this.failed = '';
      this.tauStart = t0;
      this.split = splitShown;
      this.timeline = t;
      this.#timelineGen++;
      this.timelineKey = key;
      this.timelineId = `${key}/${p.thread}`;
      this.shownKey = keyOf(p.thread, t.counterName, t.episodes, p.policy, t.budget);
      const patch: ViewState = {};
      if (vs.counter !== t.counterName) patch.counter = t.counterName;
      if (vs.episodes !== t.episodes) patch.episodes = t.episodes;
      if (vs.budget !== t.budget) patch.budget = t.budget;
      if (vs.step === undefined || vs.step >= t.after.length) patch.step = Math.max(0, t.after.length - 1);
      // A replay that waits was asked in a newer view state (a τ typed
      // while this one ran): this one's defaults would overwrite that
      // choice, and the one that waits writes its own.
      if (Object.keys(patch).length > 0 && !this.#pending) this.#hooks.onstate?.(patch);
      this.#fetchShown();
    } catch (e) {
      if (current()) {
        this.#fail(e);
        if (key === this.#shownSession) this.failed = (e as Error).message;
      }
    } finally {
      this.#inflight = false;
      const next = this.#pending;
      this.#pending = null;
      if (next) this.replay(next.key, next.p, next.t0, next.vs, next.split);
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

  // appended takes a live session's growth: the new count, the threads.
  // It reports whether a was about the session shown. A growth of the
  // session shown while it still opens asks for it again, since the reply
  // on its way may predate the growth.
  appended(a: Appended): boolean {
    if (a.key !== this.#shownSession) return false;
    if (this.session?.key !== a.key) {
      this.open(a.key);
      return true;
    }
    if (this.seenAtOpen < 0) this.seenAtOpen = this.session.requests;
    this.newCount = Math.max(0, a.requests - this.seenAtOpen);
    this.session = { ...this.session, requests: a.requests };
    const current = this.#threadsReq.begin();
    this.#api.threads(a.key).then((th) => { if (current()) this.threads = th; }).catch(() => {});
    return true;
  }

  // grew replays the session shown again when it grew live.
  #grew(a: Appended): void {
    if (this.appended(a)) this.replay(a.key, paramsOf(this.#state.vs), 0, this.#state.vs);
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

  // drawn records that the timeline was drawn: the performance marks, and,
  // the first time a timeline of a thread is drawn, Go is told (UI.Rendered).
  drawn(): void {
    this.#hooks.drawn?.();
    const t = this.timeline;
    if (!t) return;
    if (this.#drawnFor !== this.timelineId) {
      this.#drawnFor = this.timelineId;
      this.#hooks.firstDraw?.(t.after.length);
      this.#api.rendered('timeline', t.after.length).catch(() => {});
    }
    if (this.tauStart > 0) {
      this.#hooks.tauDrawn?.(performance.now() - this.tauStart);
      this.tauStart = 0;
    }
  }

  // atWork tells Go, five times a second at most, that the user is at work
  // though the page calls nothing: a scrub then does not share the cores
  // with background indexing (UI.AtWork).
  atWork(): void {
    const now = performance.now();
    if (now - this.#atWorkAt < 200) return;
    this.#atWorkAt = now;
    this.#api.atWork().catch(() => {});
  }

  // locate finds where a search hit's entry is replayed: its thread and
  // request. A failure is reported, and gives null.
  locate(key: string, thread: number, entry: number): Promise<Location | null> {
    return this.#api.locate(key, thread, entry).catch((e) => {
      this.#fail(e);
      return null;
    });
  }

  // block fetches a block of the context at request k whole.
  block(k: number, item: number, block: number): Promise<string> {
    return this.#api.block(this.#state.session, paramsOf(this.#state.vs), k, item, block);
  }

  // exportText returns the replay, or the timeline, as a file's text, for
  // the browser to download.
  exportText(format: 'json' | 'csv' | 'chart-svg'): Promise<string> {
    const key = this.#state.session;
    const p = paramsOf(this.#state.vs);
    return format === 'chart-svg' ? this.#api.exportTimelineSVG(key, p) : this.#api.exportReplay(key, p, format);
  }

  // save has Go write an export through a save dialog (the desktop
  // window); the page sends only ids and numbers.
  save(format: ExportFormat, k: number): Promise<string> {
    const key = this.#state.session;
    const p = paramsOf(this.#state.vs);
    switch (format) {
      case 'chart-svg': return this.#api.saveTimelineSVG(key, p);
      case 'dag-svg': return this.#api.saveGraph(key, p, k);
      default: return this.#api.saveReplay(key, p, format);
    }
  }

  // dispose stops listening for live growth, and a context request that
  // is waiting to be sent.
  dispose(): void {
    this.#stopLive();
    clearTimeout(this.#ctxTimer);
  }
}
