// The one module through which the frontend reaches Go. In the desktop
// window it calls the window's one binding, Bridge.Call(service, method,
// args); in serve mode it posts the same to /api/call/<Service>/<Method>.
// Go decodes and dispatches both the same way (app.App.Invoke, app.Bridge).
// Everything else in the frontend goes through lib/api/, which calls this.

declare global {
  interface Window {
    go?: { app?: { Bridge?: { Call(service: string, method: string, args: unknown[]): Promise<unknown> } } };
    runtime?: {
      EventsOn(name: string, cb: (data: unknown) => void): () => void;
      OnFileDrop?(cb: (x: number, y: number, paths: string[]) => void, useDropTarget: boolean): void;
    };
  }
}

export type Mode = 'desktop' | 'browser';

export interface Transport {
  mode: Mode;
  call<T>(service: string, method: string, args: unknown[]): Promise<T>;
  on(event: string, cb: (data: unknown) => void): () => void;
  upload?(file: File): Promise<unknown>;
  // onFileDrop reports the paths of files dropped on the desktop window.
  onFileDrop?(cb: (paths: string[]) => void): void;
}

function desktopTransport(): Transport {
  return {
    mode: 'desktop',
    async call<T>(service: string, method: string, args: unknown[]): Promise<T> {
      const bridge = window.go?.app?.Bridge;
      if (!bridge) throw new Error('the window has no binding');
      try {
        return (await bridge.Call(service, method, args)) as T;
      } catch (e) {
        throw new Error(typeof e === 'string' ? e : String((e as Error)?.message ?? e));
      }
    },
    on(event, cb) {
      return window.runtime?.EventsOn(event, cb) ?? (() => {});
    },
    onFileDrop(cb) {
      window.runtime?.OnFileDrop?.((_x, _y, paths) => cb(paths), false);
    },
  };
}

// takeToken reads the serve-mode token once from the page URL's fragment
// (#token=…, which the browser never sends to a server), or exchanges the
// one-time code there (#code=…, what `serve --open` hands the browser) for
// it, removes it from the address bar (the rest of the fragment, the view
// state, stays) and keeps it in sessionStorage, which no page of another
// origin (another port included) can read. The token is then sent in a
// header with every call; the server sets no cookie. The fragment is read
// before the first await, so before the app reads its view state from it.
async function takeToken(): Promise<string> {
  const url = new URL(window.location.href);
  const params = new URLSearchParams(url.hash.slice(1));
  const token = params.get('token');
  const code = params.get('code');
  if (token || code) {
    params.delete('token');
    params.delete('code');
    url.hash = params.toString();
    history.replaceState(history.state, '', url.toString());
  }
  if (token) {
    sessionStorage.setItem('ctxscope.token', token);
    return token;
  }
  if (code) {
    const resp = await fetch('/api/session', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ code }),
    });
    const { token: exchanged } = (await readJSON(resp)) as { token: string };
    sessionStorage.setItem('ctxscope.token', exchanged);
    return exchanged;
  }
  return sessionStorage.getItem('ctxscope.token') ?? '';
}

async function readJSON(resp: Response): Promise<unknown> {
  const body = await resp.json().catch(() => null);
  if (!resp.ok) {
    const msg = (body as { error?: string } | null)?.error ?? `${resp.status} ${resp.statusText}`;
    throw new Error(msg);
  }
  return body;
}

// clientId names this tab to the server: a newer call of a method from
// this tab supersedes its older one, and never another tab's.
const clientId = typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : String(Math.random()).slice(2);

// readEvents reads the server-sent event stream with fetch, which can send
// the token header as EventSource cannot, and hands each event to emit. It
// reconnects after a pause when the stream ends or fails.
async function readEvents(headers: Record<string, string>, emit: (name: string, data: unknown) => void): Promise<void> {
  for (let pause = 500; ; pause = Math.min(pause * 2, 10_000)) {
    try {
      const resp = await fetch('/api/events', { headers });
      if (!resp.ok || !resp.body) throw new Error(`${resp.status}`);
      pause = 500;
      const reader = resp.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = frame.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
          if (!data) continue;
          const { event: name, data: payload } = JSON.parse(data) as { event: string; data: unknown };
          emit(name, payload);
        }
      }
    } catch {
      // the server went away or refused: try again after the pause
    }
    await new Promise((r) => setTimeout(r, pause));
  }
}

function browserTransport(): Transport {
  const ready = takeToken().then((token) => {
    const h: Record<string, string> = { 'X-Ctxscope-Client': clientId };
    if (token) h['X-Ctxscope-Token'] = token;
    return h;
  });
  let listening = false;
  const listeners = new Map<string, Set<(data: unknown) => void>>();
  return {
    mode: 'browser',
    async call<T>(service: string, method: string, args: unknown[]): Promise<T> {
      const headers = { ...(await ready), 'Content-Type': 'application/json' };
      const resp = await fetch(`/api/call/${service}/${method}`, { method: 'POST', headers, body: JSON.stringify(args) });
      return (await readJSON(resp)) as T;
    },
    on(event, cb) {
      if (!listening) {
        listening = true;
        void ready.then((headers) => readEvents(headers, (name, data) => listeners.get(name)?.forEach((fn) => fn(data))));
      }
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)!.add(cb);
      return () => listeners.get(event)?.delete(cb);
    },
    async upload(file: File) {
      const headers = { ...(await ready), 'Content-Type': 'application/octet-stream' };
      const resp = await fetch(`/api/upload?name=${encodeURIComponent(file.name)}`, { method: 'POST', headers, body: file });
      return readJSON(resp);
    },
  };
}

export const backend: Transport = typeof window !== 'undefined' && window.go ? desktopTransport() : browserTransport();
