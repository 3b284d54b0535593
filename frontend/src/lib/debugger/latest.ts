// Latest issues requests of which only the newest reply counts: each
// begin() supersedes the requests begun before it, and a superseded reply
// is dropped by whoever asks current() before applying it.
export class Latest {
  #seq = 0;

  // begin starts a request and returns the function that tells whether it
  // is still the newest.
  begin(): () => boolean {
    const s = ++this.#seq;
    return () => s === this.#seq;
  }

  // drop supersedes every request begun so far.
  drop(): void {
    this.#seq++;
  }
}
