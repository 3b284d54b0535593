// The caller's role, as the server reported it (UI.Environment): the page
// hides what a member may not do. The server refuses it anyway; hiding
// only spares the member a control that can only fail. Until the
// environment is known, the page shows neither (known is false).
import type { Environment } from './types/sessions';

export const role = $state({ known: false, operator: false, desktop: false, user: '' });

// learnRole records what an environment says of the caller.
export function learnRole(env: Environment) {
  role.known = true;
  role.operator = env.role !== 'member';
  role.desktop = env.desktop;
  role.user = env.user;
}
