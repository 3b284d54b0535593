// A Throttle runs an action at most once in a given interval: at once when
// the last run is that long past, else once when it will be, for however
// many times it was asked meanwhile. The action reads the state it acts on
// when it runs, so the run at the end of a burst acts on the latest.
export class Throttle {
  #action: () => void;
  #every: number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #last = -Infinity;

  constructor(action: () => void, everyMs: number) {
    this.#action = action;
    this.#every = everyMs;
  }

  // ask runs the action now or schedules its one pending run.
  ask(): void {
    if (this.#timer !== undefined) return;
    const wait = this.#last + this.#every - performance.now();
    if (wait <= 0) this.#run();
    else this.#timer = setTimeout(() => this.#run(), wait);
  }

  // flush runs a pending run now (before the page goes away).
  flush(): void {
    if (this.#timer !== undefined) this.#run();
  }

  #run(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#last = performance.now();
    this.#action();
  }
}
