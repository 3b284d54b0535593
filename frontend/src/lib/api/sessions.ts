// The Sessions and UI services under the names the views use. Every call
// is a generated binding (bindings.gen.ts), so its arguments and reply are
// the Go method's. Arguments are ids, names and paths the user typed:
// session content never travels from the frontend to Go.
import { backend } from '../backend';
import { Sessions, UI } from './bindings.gen';
import type { SessionInfo } from '../types/sessions';

export const sessionsApi = {
  environment: UI.Environment,
  rendered: UI.Rendered,
  guideSeen: UI.GuideSeen,
  atWork: UI.AtWork,
  initial: Sessions.Initial,
  list: Sessions.List,
  open: Sessions.Open,
  importPaths: Sessions.Import,
  remove: Sessions.Delete,
  openPath: Sessions.OpenPath,
  openDialog: Sessions.OpenDialog,
  openDemo: Sessions.OpenDemo,
  upload: async (file: File) => {
    if (!backend.upload) throw new Error('upload is only available in the browser');
    return (await backend.upload(file)) as SessionInfo;
  },
};
