// The Debugger and Live services under the names the views use. Every
// call is a generated binding (bindings.gen.ts), so its arguments and
// reply are the Go method's. Arguments are ids, numbers, names and what
// the user typed: never session content.
import { backend } from '../backend';
import { Debugger, Live, Sessions } from './bindings.gen';
import type { Appended, Discovered } from '../types/debugger';

export const debuggerApi = {
  policies: Debugger.Policies,
  counters: Debugger.Counters,
  threads: Debugger.Threads,
  replay: Debugger.Replay,
  replayStep: Debugger.ReplayStep,
  context: Debugger.Context,
  block: Debugger.Block,
  wire: Debugger.Wire,
  sweep: Debugger.Sweep,
  graph: Debugger.Graph,
  search: (query: string, key: string, size = 100) => Debugger.Search(query, key, size),
  memory: Debugger.Memory,
  memoryVariants: Debugger.MemoryVariants,
  locatePassage: Debugger.LocatePassage,
  locate: Debugger.Locate,
  exportReplay: Debugger.ExportReplay,
  exportTimelineSVG: Debugger.ExportTimelineSVG,
  saveTimelineSVG: Debugger.SaveTimelineSVG,
  saveReplay: Debugger.SaveReplay,
  saveGraph: Debugger.SaveGraph,
};

export const liveApi = {
  follow: Live.Follow,
  unfollow: Live.Unfollow,
  following: Live.Following,
  markSeen: Sessions.MarkSeen,
  // onAppended calls fn for every session:appended event; it returns the
  // function that stops listening.
  onAppended: (fn: (a: Appended) => void) => backend.on('session:appended', (d) => fn(d as Appended)),
  discovery: Live.Discovery,
  setDiscovery: Live.SetDiscovery,
  proxy: Live.Proxy,
  setProxy: Live.SetProxy,
  setLiveEviction: Live.SetLiveEviction,
  // onDiscovered calls fn when watching the agents' directories brought
  // new sessions; it returns the function that stops listening.
  onDiscovered: (fn: (d: Discovered) => void) => backend.on('sessions:discovered', (d) => fn(d as Discovered)),
};
