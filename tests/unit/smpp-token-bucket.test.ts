// The per-channel TPS bucket on virtual time: never more than rate + burst in any second.
import { describe, expect, it } from 'vitest';
import { TokenBucket, type Clock } from '../../src/engine/channels/sms/token-bucket.ts';
import { RequestWindow } from '../../src/engine/channels/sms/window.ts';

/** A clock whose sleep moves time forward instead of waiting. */
function virtualClock(): Clock & { t: number } {
  const clock = {
    t: 0,
    now: () => clock.t,
    sleep: async (ms: number) => {
      clock.t += ms;
    },
  };
  return clock;
}

/** Most events in any window of `width` ms. */
function worstWindow(times: number[], width: number): number {
  let worst = 0;
  for (let i = 0, j = 0; j < times.length; j++) {
    while (times[j] - times[i] >= width) i++;
    worst = Math.max(worst, j - i + 1);
  }
  return worst;
}

describe('TokenBucket', () => {
  it('hands out 100 tokens per second after the burst, never more than rate + burst in a second', async () => {
    const clock = virtualClock();
    const bucket = new TokenBucket({ ratePerSecond: 100, burst: 5, clock });
    const times: number[] = [];
    for (let i = 0; i < 1005; i++) {
      await bucket.take();
      times.push(clock.t);
    }
    // 5 at once, then 1000 at 10 ms each.
    expect(clock.t).toBeGreaterThanOrEqual(9_990);
    expect(clock.t).toBeLessThanOrEqual(10_010);
    expect(worstWindow(times, 1000)).toBeLessThanOrEqual(105);
    expect(worstWindow(times.slice(5), 1000)).toBeLessThanOrEqual(100);
  });

  it('defaults the burst to a twentieth of the rate', () => {
    const clock = virtualClock();
    const bucket = new TokenBucket({ ratePerSecond: 100, clock });
    expect(bucket.burst).toBe(5);
    let taken = 0;
    while (bucket.tryTake() === 0) taken++;
    expect(taken).toBe(5);
  });

  it('answers how long until the next token, and refills with time', () => {
    const clock = virtualClock();
    const bucket = new TokenBucket({ ratePerSecond: 10, burst: 1, clock });
    expect(bucket.tryTake()).toBe(0);
    expect(bucket.tryTake()).toBeCloseTo(100, 5);
    clock.t += 50;
    expect(bucket.tryTake()).toBeCloseTo(50, 5);
    clock.t += 50;
    expect(bucket.tryTake()).toBe(0);
  });

  it('does not let idle time pile up beyond the burst', () => {
    const clock = virtualClock();
    const bucket = new TokenBucket({ ratePerSecond: 100, burst: 3, clock });
    clock.t += 60_000;
    let taken = 0;
    while (bucket.tryTake() === 0) taken++;
    expect(taken).toBe(3);
  });

  it('gives nothing while paused (the SMSC throttled us), unlimited buckets included', async () => {
    for (const rate of [100, null]) {
      const clock = virtualClock();
      const bucket = new TokenBucket({ ratePerSecond: rate, burst: 5, clock });
      bucket.pause(500);
      expect(bucket.tryTake()).toBe(500);
      await bucket.take();
      expect(clock.t).toBeGreaterThanOrEqual(500);
    }
  });

  it('serves waiters in arrival order', async () => {
    const clock = virtualClock();
    const bucket = new TokenBucket({ ratePerSecond: 10, burst: 1, clock });
    const order: number[] = [];
    await Promise.all([1, 2, 3, 4].map((n) => bucket.take().then(() => order.push(n))));
    expect(order).toEqual([1, 2, 3, 4]);
    expect(clock.t).toBeCloseTo(300, 5);
  });

  it('is unlimited for null or non-positive rates', () => {
    for (const rate of [null, 0, -1]) {
      const bucket = new TokenBucket({ ratePerSecond: rate, clock: virtualClock() });
      let zeros = 0;
      for (let i = 0; i < 10_000; i++) if (bucket.tryTake() === 0) zeros++;
      expect(zeros).toBe(10_000);
    }
  });
});

describe('RequestWindow', () => {
  it('lets at most `size` requests in, and hands a released slot to the oldest waiter', async () => {
    const window = new RequestWindow(2);
    const entered: number[] = [];
    const all = [1, 2, 3, 4].map((n) => window.acquire().then(() => entered.push(n)));
    await Promise.resolve();
    await Promise.resolve();
    expect(entered).toEqual([1, 2]);
    expect(window.used).toBe(2);
    window.release();
    await all[2];
    expect(entered).toEqual([1, 2, 3]);
    window.release();
    await all[3];
    window.release();
    window.release();
    expect(window.used).toBe(0);
  });

  it('refuses a size below 1', () => {
    expect(() => new RequestWindow(0)).toThrow(RangeError);
  });
});
