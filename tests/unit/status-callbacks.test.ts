// Status callbacks: the signature format receivers check, and the retry schedule (12 attempts,
// doubling from 1 min and capped at 6 h, about a day from first to last).
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { retryDelayMs, signCallback } from '../../src/server/messaging/callbacks.ts';

describe('status callbacks', () => {
  it('signs the exact body bytes with HMAC-SHA256 as sha256=<hex>', () => {
    const body = '{"id":"1","state":"read","deliveryStatus":"READ","at":"2026-03-01T10:00:00.000Z"}';
    expect(signCallback('whsec_x', body)).toBe(`sha256=${createHmac('sha256', 'whsec_x').update(body).digest('hex')}`);
    expect(signCallback('whsec_x', `${body} `)).not.toBe(signCallback('whsec_x', body));
  });

  it('backs off 1 min, 2 min, 4 min … capped at 6 h; 11 waits between 12 attempts span about a day', () => {
    const waits = Array.from({ length: 11 }, (_, i) => retryDelayMs(i + 1));
    expect(waits.slice(0, 4)).toEqual([60_000, 120_000, 240_000, 480_000]);
    expect(Math.max(...waits)).toBe(6 * 3_600_000);
    const hours = waits.reduce((a, b) => a + b, 0) / 3_600_000;
    expect(hours).toBeGreaterThan(18);
    expect(hours).toBeLessThan(30);
  });
});
