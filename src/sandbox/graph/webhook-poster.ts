// Posts the stand-ins' webhooks and remembers each delivery (exact body, headers, the answer),
// so tests can assert exactly-once, replay a delivery byte for byte, or send a forged one.
// Deliveries to one target go out one after another, in the order they were queued.

export interface WebhookDelivery {
  /** Which channel it is for: a phone-number id, page id or RBM agent id. */
  target: string;
  url: string | null;
  body: string;
  headers: Record<string, string>;
  /** What the app answered; null when no URL is configured or the app could not be reached. */
  answer: { status: number; body: string } | null;
  /** Set when this delivery repeats an earlier one or carries a forged signature. */
  note?: 'replay' | 'forged';
}

export class WebhookPoster {
  readonly deliveries: WebhookDelivery[] = [];
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly scheduled = new Set<Promise<unknown>>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly timeoutMs = 10_000) {}

  /** Queues a delivery behind the earlier ones for the same target; resolves when answered. */
  post(target: string, url: string | null, body: string, headers: Record<string, string>, note?: WebhookDelivery['note']): Promise<WebhookDelivery> {
    const previous = this.queues.get(target) ?? Promise.resolve();
    const next = previous.then(() => this.send({ target, url, body, headers, answer: null, note }));
    const settled = next.catch(() => undefined);
    this.queues.set(target, settled);
    this.inFlight.add(settled);
    void settled.then(() => this.inFlight.delete(settled));
    return next;
  }

  private async send(delivery: WebhookDelivery): Promise<WebhookDelivery> {
    if (delivery.url) {
      try {
        const response = await fetch(delivery.url, { method: 'POST', headers: { 'content-type': 'application/json', ...delivery.headers }, body: delivery.body, signal: AbortSignal.timeout(this.timeoutMs) });
        delivery.answer = { status: response.status, body: await response.text() };
      } catch {
        delivery.answer = null;
      }
    }
    this.deliveries.push(delivery);
    for (const listener of this.listeners) listener();
    return delivery;
  }

  /** Work of the stand-in that queues deliveries later (a status after a delay): idle() waits for it too. Its failure is its own. */
  track(work: Promise<unknown>): void {
    const settled = work.catch(() => undefined);
    this.scheduled.add(settled);
    void settled.then(() => this.scheduled.delete(settled));
  }

  /** Every tracked piece of work has ended and every queued delivery has been answered. */
  async idle(): Promise<void> {
    while (this.scheduled.size > 0 || this.inFlight.size > 0) await Promise.all([...this.scheduled, ...this.inFlight]);
  }

  /** Resolves with the first delivery (past or future) that matches, or rejects after `timeoutMs`. */
  waitFor(match: (delivery: WebhookDelivery) => boolean, timeoutMs = 5_000): Promise<WebhookDelivery> {
    const found = this.deliveries.find(match);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.listeners.delete(check);
        reject(new Error(`no matching webhook delivery within ${timeoutMs} ms`));
      }, timeoutMs);
      const check = () => {
        const hit = this.deliveries.find(match);
        if (!hit) return;
        clearTimeout(timer);
        this.listeners.delete(check);
        resolve(hit);
      };
      this.listeners.add(check);
    });
  }
}
