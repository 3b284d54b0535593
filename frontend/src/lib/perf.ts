// Performance marks the browser tests read (window.__ctxscopePerf): when
// the timeline first drew, and how long each τ change took to redraw.
// Only numbers are recorded.

interface PerfLog {
  firstDraw: { at: number; requests: number }[];
  tau: number[];
  // replyMs is, for each replay, the time from its call to its reply.
  replyMs: number[];
  // draws counts the timeline's redraws of its data.
  draws: number;
}

declare global {
  interface Window {
    __ctxscopePerf?: PerfLog;
  }
}

function log(): PerfLog {
  if (typeof window === 'undefined') return { firstDraw: [], tau: [], replyMs: [], draws: 0 };
  window.__ctxscopePerf ??= { firstDraw: [], tau: [], replyMs: [], draws: 0 };
  return window.__ctxscopePerf;
}

export const perf = {
  // firstDraw records that a timeline of requests first drew, at
  // performance.now() (milliseconds since navigation).
  firstDraw(requests: number) {
    log().firstDraw.push({ at: performance.now(), requests });
  },
  // drawn records a redraw of the timeline's data.
  drawn() {
    log().draws++;
  },
  // replied records how long a replay call took to answer.
  replied(ms: number) {
    log().replyMs.push(ms);
  },
  // tauDrawn records the time from a τ change to its redraw.
  tauDrawn(ms: number) {
    log().tau.push(ms);
  },
};
