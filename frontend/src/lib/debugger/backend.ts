// The debugger's Backend: the generated bindings of the Go services it
// calls. The view builds its controller on this and calls nothing itself.
import { sessionsApi } from '../api/sessions';
import { debuggerApi as api, liveApi } from '../api/debugger';
import type { Backend } from './controller.svelte';

export function debuggerBackend(): Backend {
  return {
    open: sessionsApi.open, threads: api.threads, following: liveApi.following, markSeen: liveApi.markSeen,
    follow: liveApi.follow, unfollow: liveApi.unfollow, replay: api.replay, replayStep: api.replayStep, context: api.context, graph: api.graph,
    sweep: api.sweep, memoryVariants: api.memoryVariants, memory: api.memory, policies: api.policies, counters: api.counters,
    locate: api.locate, block: api.block, exportReplay: api.exportReplay, exportTimelineSVG: api.exportTimelineSVG,
    saveReplay: api.saveReplay, saveTimelineSVG: api.saveTimelineSVG, saveGraph: api.saveGraph,
    rendered: sessionsApi.rendered, atWork: sessionsApi.atWork, onAppended: liveApi.onAppended,
  };
}
