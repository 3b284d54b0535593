// Changes to the workspace as a whole, made through this app or through
// another process that shares it: a second ctxscope server on the same
// PostgreSQL database, or a CLI import beside the app.
import { backend } from '../backend';
import type { WorkspaceChanged } from './bindings.gen';

export type ChangeKind = 'sessions' | 'memory' | 'annotations';

// onWorkspaceChanged calls fn with the kinds of change each time the
// workspace's change feed brings some; it returns the function that stops
// listening.
export function onWorkspaceChanged(fn: (kinds: ChangeKind[]) => void): () => void {
  return backend.on('workspace:changed', (d) => fn(((d as WorkspaceChanged).kinds ?? []) as ChangeKind[]));
}
