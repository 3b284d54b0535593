// The app's views. The shell (App.svelte) shows one at a time, with a tab
// per entry; the chosen view and session live in the URL fragment.
import type { Component } from 'svelte';
import type { ViewState } from '../lib/urlstate';
import DebuggerView from './DebuggerView.svelte';
import SessionsView from './SessionsView.svelte';

// ViewProps are what the shell gives every view.
export interface ViewProps {
  // sessionKey is the open workspace session, "" when none.
  sessionKey: string;
  // onopen makes key the open session (and shows the debugger).
  onopen: (key: string) => void;
  // onerror shows a message in the shell's error banner.
  onerror: (message: string) => void;
  // viewState is the view state kept in the URL; onstate changes it.
  viewState: ViewState;
  onstate: (patch: ViewState) => void;
}

// A view is its component, or for the memory view, whose graph renderer
// (sigma, graphology) is a third of the code, load, which fetches the
// component on the first visit: a page that opens on a session does not
// parse the graph renderer first.
export interface ViewDef {
  id: string;
  label: string;
  component?: Component<ViewProps>;
  load?: () => Promise<Component<ViewProps>>;
}

export const views: ViewDef[] = [
  { id: 'debugger', label: 'Debugger', component: DebuggerView },
  { id: 'sessions', label: 'Sessions', component: SessionsView },
  { id: 'memory', label: 'Memory', load: () => import('./MemoryView.svelte').then((m) => m.default) },
];
