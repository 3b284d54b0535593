// The types of what the services return for the sessions views, under the names
// the frontend uses. They are the generated bindings (api/bindings.gen.ts,
// written from the Go services by `make check-bindings`), so a Go field that
// changes breaks the type check here. Every string that comes from a session
// is untrusted text.
import type * as G from '../api/bindings.gen';

export type Environment = G.Environment;

export type SessionInfo = G.SessionInfo;
