// Error reporting for calls whose failure the user should see, not the
// caller handle.

// guarded returns a function that awaits a promise and resolves with its
// value, or, when it rejects, reports the error's message to onerror and
// resolves with undefined.
export function guarded(onerror: (message: string) => void) {
  return async function guard<T>(p: Promise<T>): Promise<T | undefined> {
    try {
      return await p;
    } catch (e) {
      onerror((e as Error).message);
      return undefined;
    }
  };
}
