// Typed calls to the Go services. Arguments are ids, names and paths the
// user typed: session content never travels from the frontend to Go.
import { backend } from '../backend';
import { call } from './call';
import type { Environment, SessionInfo, TimelineView } from '../types/sessions';

export const sessionsApi = {
  environment: () => call<Environment>('UI', 'Environment'),
  rendered: (view: string, requests: number) => call<void>('UI', 'Rendered', view, requests),
  initial: () => call<SessionInfo>('Sessions', 'Initial'),
  list: () => call<SessionInfo[]>('Sessions', 'List'),
  open: (key: string) => call<SessionInfo>('Sessions', 'Open', key),
  importPaths: (paths: string[]) => call<string[]>('Sessions', 'Import', paths),
  remove: (key: string) => call<void>('Sessions', 'Delete', key),
  openPath: (path: string) => call<SessionInfo>('Sessions', 'OpenPath', path),
  openDialog: () => call<SessionInfo>('Sessions', 'OpenDialog'),
  openDemo: () => call<SessionInfo>('Sessions', 'OpenDemo'),
  counters: () => call<string[]>('Sessions', 'Counters'),
  timeline: (key: string, counter: string) => call<TimelineView>('Sessions', 'Timeline', key, counter),
  upload: async (file: File) => {
    if (!backend.upload) throw new Error('upload is only available in the browser');
    return (await backend.upload(file)) as SessionInfo;
  },
};
