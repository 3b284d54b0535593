// call invokes a bound Go method through the backend module. Every area's
// API module (lib/api/<area>.ts) is a typed wrapper over it.
import { backend } from '../backend';

export const call = <T>(service: string, method: string, ...args: unknown[]) => backend.call<T>(service, method, args);
