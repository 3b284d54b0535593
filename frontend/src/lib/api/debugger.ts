// Typed calls to the Debugger and Live services. Arguments are ids,
// numbers, names and what the user typed: never session content.
import { backend } from '../backend';
import { call } from './call';
import type { Appended, ContextView, Discovered, Discovery, Curve, Drawing, Hits, Location, Params, MemoryVariant, PassagePlace, ReplayTimeline, SessionMemory, ThreadInfo } from '../types/debugger';

export const debuggerApi = {
  policies: () => call<string[]>('Debugger', 'Policies'),
  counters: () => call<string[]>('Debugger', 'Counters'),
  threads: (key: string) => call<ThreadInfo[]>('Debugger', 'Threads', key),
  replay: (key: string, p: Params) => call<ReplayTimeline>('Debugger', 'Replay', key, p),
  context: (key: string, p: Params, k: number) => call<ContextView>('Debugger', 'Context', key, p, k),
  block: (key: string, p: Params, k: number, i: number, b: number) => call<string>('Debugger', 'Block', key, p, k, i, b),
  sweep: (key: string, p: Params, policies: string[], from: number, to: number, step: number) =>
    call<Curve[]>('Debugger', 'Sweep', key, p, policies, from, to, step),
  graph: (key: string, p: Params, k: number) => call<Drawing>('Debugger', 'Graph', key, p, k),
  search: (query: string, key: string, size = 100) => call<Hits>('Debugger', 'Search', query, key, size),
  memory: (key: string, p: Params) => call<SessionMemory>('Debugger', 'Memory', key, p),
  memoryVariants: (key: string, p: Params, budgets: number[]) => call<MemoryVariant[]>('Debugger', 'MemoryVariants', key, p, budgets),
  locatePassage: (key: string, passage: string) => call<PassagePlace>('Debugger', 'LocatePassage', key, passage),
  locate: (key: string, thread: number, entry: number) => call<Location>('Debugger', 'Locate', key, thread, entry),
  exportReplay: (key: string, p: Params, format: string) => call<string>('Debugger', 'ExportReplay', key, p, format),
  exportTimelineSVG: (key: string, p: Params) => call<string>('Debugger', 'ExportTimelineSVG', key, p),
  saveTimelineSVG: (key: string, p: Params) => call<string>('Debugger', 'SaveTimelineSVG', key, p),
  saveReplay: (key: string, p: Params, format: string) => call<string>('Debugger', 'SaveReplay', key, p, format),
  saveGraph: (key: string, p: Params, k: number) => call<string>('Debugger', 'SaveGraph', key, p, k),
};

export const liveApi = {
  follow: (key: string) => call<void>('Live', 'Follow', key),
  unfollow: (key: string) => call<void>('Live', 'Unfollow', key),
  following: () => call<string[]>('Live', 'Following'),
  markSeen: (key: string, requests: number) => call<void>('Sessions', 'MarkSeen', key, requests),
  // onAppended calls fn for every session:appended event; it returns the
  // function that stops listening.
  onAppended: (fn: (a: Appended) => void) => backend.on('session:appended', (d) => fn(d as Appended)),
  discovery: () => call<Discovery>('Live', 'Discovery'),
  setDiscovery: (on: boolean) => call<Discovery>('Live', 'SetDiscovery', on),
  // onDiscovered calls fn when watching the agents' directories brought
  // new sessions; it returns the function that stops listening.
  onDiscovered: (fn: (d: Discovered) => void) => backend.on('sessions:discovered', (d) => fn(d as Discovered)),
};
