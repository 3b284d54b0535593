// Performance marks the browser tests read (window.__ctxscopePerf): when
// the timeline first drew, and how long each τ change took to redraw.
// Only numbers are recorded.

interface PerfLog {
  firstDraw: { at: number; requests: number }[];
  tau: number[];
}

declare global {
  interface Window {
    __ctxscopePerf?: PerfLog;
  }
}

function log(): PerfLog {
  if (typeof window === 'undefined') return { firstDraw: [], tau: [] };
  window.__ctxscopePerf ??= { firstDraw: [], tau: [] };
  return window.__ctxscopePerf;
}

export const perf = {
  // firstDraw records that a timeline of requests first drew, at
  // performance.now() (milliseconds since navigation).
  firstDraw(requests: number) {
    log().firstDraw.push({ at: performance.now(), requests });
  },
  // tauDrawn records the time from a τ change to its redraw.
  tauDrawn(ms: number) {
    log().tau.push(ms);
  },
};
