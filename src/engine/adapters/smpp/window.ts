// The window of unanswered requests (research/protocols.md 1.4): the `smpp` package has none, and
// an SMSC drops or throttles a client that keeps more requests open than agreed. A counting
// semaphore: acquire before writing a submit_sm, release when its answer (or its failure) is in.

export class RequestWindow {
  private inFlight = 0;
  private readonly waiters: Array<() => void> = [];
  private waiterHead = 0;

  constructor(readonly size: number) {
    if (!(size >= 1)) throw new RangeError(`window size must be at least 1, got ${size}`);
  }

  get used() {
    return this.inFlight;
  }

  /** Resolves when a slot is free; slots are handed out in arrival order. */
  acquire(): Promise<void> {
    if (this.inFlight < this.size && this.waiterHead === this.waiters.length) {
      this.inFlight++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  release() {
    if (this.waiterHead < this.waiters.length) {
      // The slot passes straight to the next waiter: inFlight stays the same.
      const next = this.waiters[this.waiterHead++];
      if (this.waiterHead > 1024 && this.waiterHead * 2 > this.waiters.length) {
        this.waiters.splice(0, this.waiterHead);
        this.waiterHead = 0;
      }
      next();
      return;
    }
    if (this.inFlight > 0) this.inFlight--;
  }
}
