// The one module through which the frontend reaches Go. In the desktop
// window it calls the Wails bindings (window.go.app.<Service>.<Method>);
// in serve mode it posts to /api/call/<Service>/<Method>. Everything else
// in the frontend goes through lib/api.ts, which calls this.

declare global {
  interface Window {
    go?: Record<string, Record<string, Record<string, (...args: unknown[]) => Promise<unknown>>>>;
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
      const fn = window.go?.app?.[service]?.[method];
      if (!fn) throw new Error(`no binding ${service}.${method}`);
      try {
        return (await fn(...args)) as T;
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

// takeToken reads the serve-mode token from the page URL once and removes
// it from the address bar; the server has also set it as a cookie.
function takeToken(): string {
  const url = new URL(window.location.href);
  const t = url.searchParams.get('token');
  if (t) {
    sessionStorage.setItem('ctxscope.token', t);
    url.searchParams.delete('token');
    history.replaceState(history.state, '', url.toString());
  }
  return t ?? sessionStorage.getItem('ctxscope.token') ?? '';
}

async function readJSON(resp: Response): Promise<unknown> {
  const body = await resp.json().catch(() => null);
  if (!resp.ok) {
    const msg = (body as { error?: string } | null)?.error ?? `${resp.status} ${resp.statusText}`;
    throw new Error(msg);
  }
  return body;
}

function browserTransport(): Transport {
  const token = takeToken();
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (token) headers['X-Ctxscope-Token'] = token;
  let source: EventSource | null = null;
  const listeners = new Map<string, Set<(data: unknown) => void>>();
  return {
    mode: 'browser',
    async call<T>(service: string, method: string, args: unknown[]): Promise<T> {
      const resp = await fetch(`/api/call/${service}/${method}`, { method: 'POST', headers, body: JSON.stringify(args) });
      return (await readJSON(resp)) as T;
    },
    on(event, cb) {
      if (!source) {
        source = new EventSource('/api/events');
        source.onmessage = (m) => {
          const { event: name, data } = JSON.parse(m.data) as { event: string; data: unknown };
          listeners.get(name)?.forEach((fn) => fn(data));
        };
      }
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)!.add(cb);
      return () => listeners.get(event)?.delete(cb);
    },
    async upload(file: File) {
      const h: Record<string, string> = {};
      if (token) h['X-Ctxscope-Token'] = token;
      const resp = await fetch(`/api/upload?name=${encodeURIComponent(file.name)}`, { method: 'POST', headers: h, body: file });
      return readJSON(resp);
    },
  };
}

export const backend: Transport = typeof window !== 'undefined' && window.go ? desktopTransport() : browserTransport();
