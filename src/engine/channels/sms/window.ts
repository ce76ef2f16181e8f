// The window of unanswered requests (research/protocols.md 1.4): the `smpp` package has none, and
// an SMSC drops or throttles a client that keeps more requests open than agreed. A counting
// semaphore: acquire before writing a submit_sm, release when its answer (or its failure) is in.
// The later parts of a long SMS are served before new messages' first parts: a message's parts
// then go out together, so the handset reassembles it sooner, and a worker that dies leaves at
// most a window's worth of messages cut between parts (not every long message of its batch).

export class RequestWindow {
  private inFlight = 0;
  private readonly waiters: Array<() => void> = [];
  private waiterHead = 0;
  private readonly urgent: Array<() => void> = [];

  constructor(readonly size: number) {
    if (!(size >= 1)) throw new RangeError(`window size must be at least 1, got ${size}`);
  }

  get used() {
    return this.inFlight;
  }

  /** Resolves when a slot is free; slots go to `urgent` requests first, then in arrival order. */
  acquire(urgent = false): Promise<void> {
    if (this.inFlight < this.size && this.urgent.length === 0 && this.waiterHead === this.waiters.length) {
      this.inFlight++;
      return Promise.resolve();
    }
    return new Promise((resolve) => (urgent ? this.urgent : this.waiters).push(resolve));
  }

  release() {
    const first = this.urgent.shift();
    if (first) {
      first();
      return;
    }
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
