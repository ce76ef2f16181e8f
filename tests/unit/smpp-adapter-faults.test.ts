// The SMPP adapter when the SMSC misbehaves, over real loopback sockets: throttling, queue full,
// no answers, dropped connections, refused credentials, the TPS limit, graceful close.
import { createServer, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { OutboundMessage, SubmitOutcome } from '../../src/engine/channel-adapter.ts';
import { SmppBindError } from '../../src/engine/channels/sms/index.ts';
import type { SmppAdapter } from '../../src/engine/channels/sms/index.ts';
import { numbers, startRig, type Rig } from './smpp-harness.ts';

let rig: Rig | null = null;
afterEach(async () => {
  await rig?.stop();
  rig = null;
});

const batch = (to: string[], from = 1): OutboundMessage[] => to.map((t, i) => ({ id: String(from + i), to: t, text: `Mensaje ${from + i}` }));

/** What a dispatcher does: resubmit the `retry` outcomes until everything is settled. */
async function submitUntilSettled(adapter: SmppAdapter, messages: OutboundMessage[], rounds = 10): Promise<{ outcomes: SubmitOutcome[]; retries: number }> {
  const outcomes: SubmitOutcome[] = new Array(messages.length);
  let pending = messages.map((m, i) => ({ m, i }));
  let retries = 0;
  for (let round = 0; round < rounds && pending.length; round++) {
    const results = await adapter.submit(pending.map((p) => p.m));
    const next: typeof pending = [];
    results.forEach((r, k) => {
      outcomes[pending[k].i] = r;
      if (r.kind === 'retry') next.push(pending[k]);
    });
    retries += next.length;
    pending = next;
  }
  return { outcomes, retries };
}

describe('SMPP adapter when the SMSC misbehaves', { timeout: 30_000 }, () => {
  it('throttled (0x58): resubmits inside the adapter until all are accepted, nothing sent twice', async () => {
    rig = await startRig({ throttlePerSecond: 60 }, { throttleInitialMs: 50, throttleMaxMs: 400 });
    const to = numbers(150);
    const outcomes = await rig.adapter.submit(batch(to));
    expect(outcomes.every((o) => o.kind === 'accepted')).toBe(true);
    expect(rig.smsc.counters.throttled).toBeGreaterThan(0);
    expect(rig.adapter.stats().throttled).toBe(rig.smsc.counters.throttled);
    for (const t of to) expect(rig.smsc.messagesTo(t)).toHaveLength(1);
    expect(rig.smsc.counters.messages).toBe(150);
  });

  it('queue full (0x14): waits and resubmits once the SMSC has room; long messages are not restarted', async () => {
    rig = await startRig({ queueFull: true }, { throttleInitialMs: 20, throttleMaxMs: 100 });
    const to = numbers(5);
    const sending = rig.adapter.submit(to.map((t, i) => ({ id: String(i + 1), to: t, text: 'z'.repeat(400) })));
    await rig.smsc.until(() => rig!.smsc.counters.queueFull >= 5, 'queue-full answers');
    rig.smsc.configure({ queueFull: false });
    const outcomes = await sending;
    expect(outcomes.every((o) => o.kind === 'accepted')).toBe(true);
    for (const t of to) {
      expect(rig.smsc.messagesTo(t)).toHaveLength(1);
      expect(rig.smsc.messagesTo(t)[0].parts).toHaveLength(3);
    }
    expect(rig.smsc.counters.acceptedParts).toBe(15);
  });

  it('throttled for longer than the give-up time: answers retry with afterMs, nothing accepted', async () => {
    rig = await startRig({ queueFull: true }, { throttleInitialMs: 20, throttleMaxMs: 50, throttleGiveUpMs: 200 });
    const outcomes = await rig.adapter.submit(batch(numbers(3)));
    for (const o of outcomes) {
      expect(o.kind).toBe('retry');
      if (o.kind === 'retry') {
        expect(o.reason).toMatch(/ESME_RMSGQFUL/);
        expect(o.afterMs).toBeGreaterThan(0);
      }
    }
    expect(rig.smsc.counters.acceptedParts).toBe(0);
  });

  it('no answers: the submits in flight time out as retry, the session is dropped and bound again', async () => {
    rig = await startRig({ unresponsive: true }, { responseTimeoutMs: 300, window: 4 });
    const outcomes = await rig.adapter.submit(batch(numbers(4)));
    expect(outcomes.map((o) => o.kind)).toEqual(['retry', 'retry', 'retry', 'retry']);
    expect(outcomes[0]).toMatchObject({ reason: expect.stringMatching(/no answer/) });
    expect(rig.smsc.counters.ignored).toBe(4);
    rig.smsc.configure({ unresponsive: false });
    const again = await rig.adapter.submit(batch(numbers(4)));
    expect(again.every((o) => o.kind === 'accepted')).toBe(true);
    expect(rig.adapter.stats().drops).toBeGreaterThanOrEqual(1);
    expect(rig.smsc.counters.binds).toBeGreaterThanOrEqual(2);
  });

  it('connection dropped mid-run: re-binds and the rest goes through; at most a window of messages in doubt', async () => {
    rig = await startRig({}, { window: 10 });
    const to = numbers(2000);
    void rig.smsc.until(() => rig!.smsc.counters.acceptedParts >= 500, '500 accepted', 20_000).then(() => rig!.smsc.dropConnections());
    const { outcomes, retries } = await submitUntilSettled(rig.adapter, batch(to));
    expect(outcomes.every((o) => o.kind === 'accepted')).toBe(true);
    expect(rig.smsc.counters.binds).toBeGreaterThanOrEqual(2);
    expect(retries).toBeGreaterThan(0);
    expect(retries).toBeLessThanOrEqual(10);
    let twice = 0;
    for (const t of to) {
      const seen = rig.smsc.messagesTo(t).length;
      expect(seen).toBeGreaterThanOrEqual(1);
      if (seen > 1) twice++;
    }
    expect(twice).toBeLessThanOrEqual(retries);
  });

  it('receipts kept while the session is gone are delivered when it binds again', async () => {
    rig = await startRig({ receiptDelayMs: 200 });
    const to = numbers(30);
    const outcomes = await rig.adapter.submit(batch(to));
    rig.smsc.dropConnections();
    await rig.smsc.until(() => rig!.smsc.counters.receiptsQueued === 30 && rig!.adapter.state === 'bound', 'receipts queued and bound again');
    await rig.sink.until(() => rig!.sink.statuses.length >= 30, '30 receipts after the re-bind');
    expect(new Set(rig.sink.statuses.map((s) => s.providerMessageId))).toEqual(new Set(outcomes.map((o) => (o.kind === 'accepted' ? o.providerMessageId : ''))));
  });

  it('bad password: a clear non-retryable bind error, submits answer retry, no bind storm', async () => {
    rig = await startRig({}, { password: 'malo' });
    const states: string[] = [];
    const adapter = rig.adapterWith({ password: 'malo', bindRefusedRetryMs: 60_000 }, { onStateChange: (s) => states.push(s) });
    const error = await adapter.connect().then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(SmppBindError);
    expect(error).toMatchObject({ retryable: false, code: '99966', commandStatus: 0x0e });
    expect((error as Error).message).toMatch(/ESME_RINVPASWD/);
    expect((error as Error).message).not.toMatch(/malo/);
    for (let i = 0; i < 3; i++) {
      const [outcome] = await adapter.submit(batch(numbers(1)));
      expect(outcome).toMatchObject({ kind: 'retry', reason: expect.stringMatching(/ESME_RINVPASWD/) });
      if (outcome.kind === 'retry') expect(outcome.afterMs).toBeGreaterThan(50_000);
    }
    expect(rig.smsc.counters.bindFailures).toBe(1);
    expect(adapter.state).toBe('refused');
    expect(states).toEqual(['connecting', 'refused']);
  });

  it('unknown system_id is refused with ESME_RBINDFAIL, also without retries', async () => {
    rig = await startRig();
    const adapter = rig.adapterWith({ systemId: 'nadie' });
    await expect(adapter.connect()).rejects.toMatchObject({ retryable: false, commandStatus: 0x0d });
    await adapter.submit(batch(numbers(2)));
    expect(rig.smsc.counters.bindFailures).toBe(1);
  });

  it('an SMSC that is not there: retry outcomes, a retryable error, reconnects backing off', async () => {
    rig = await startRig();
    const port = rig.smsc.port;
    await rig.smsc.stop();
    const adapter = rig.adapterWith({ port, connectWaitMs: 100 });
    const error = await adapter.connect().then(() => null, (e: unknown) => e);
    expect(error).toMatchObject({ retryable: true, code: '99965' });
    const [outcome] = await adapter.submit(batch(numbers(1)));
    expect(outcome.kind).toBe('retry');
    await adapter.close();
  });

  it('garbage from the SMSC (a PDU length beyond the limit) is a connection error, not a crash', async () => {
    rig = await startRig();
    const liar = createServer((socket) => {
      socket.on('error', () => undefined);
      socket.once('data', () => socket.write(Buffer.from([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])));
    });
    await new Promise<void>((resolve) => liar.listen(0, '127.0.0.1', resolve));
    try {
      const adapter = rig.adapterWith({ port: (liar.address() as AddressInfo).port, connectWaitMs: 200 });
      const error = await adapter.connect().then(() => null, (e: unknown) => e);
      expect(error).toMatchObject({ name: 'SmppBindError', retryable: true });
      expect((error as Error).message).toMatch(/PDU length/);
      expect(adapter.state).toBe('backoff');
      await adapter.close();
    } finally {
      await new Promise<void>((resolve) => liar.close(() => resolve()));
    }
  });

  it('never submits faster than the channel TPS', async () => {
    rig = await startRig({}, { tps: 40, burst: 2 });
    const to = numbers(100);
    const stamps: number[] = [];
    rig.smsc.events.on('message', () => stamps.push(performance.now()));
    const outcomes = await rig.adapter.submit(batch(to));
    expect(outcomes.every((o) => o.kind === 'accepted')).toBe(true);
    let worst = 0;
    for (let i = 0, j = 0; j < stamps.length; j++) {
      while (stamps[j] - stamps[i] >= 1000) i++;
      worst = Math.max(worst, j - i + 1);
    }
    // rate + burst, plus room for arrivals bunched by a busy event loop (the sends are not).
    expect(worst).toBeLessThanOrEqual(52);
    // The lower bound is the hard one: 97 tokens beyond the burst cannot come in under 2.4 s.
    expect(stamps[stamps.length - 1] - stamps[0]).toBeGreaterThanOrEqual(((100 - 2 - 1) / 40) * 1000 - 250);
  });

  it('close(): waits for the answers in flight, unbinds, and refuses new work with retry', async () => {
    rig = await startRig({}, { tps: 200 });
    const sending = rig.adapter.submit(batch(numbers(50)));
    await rig.smsc.until(() => rig!.smsc.counters.acceptedParts >= 10, '10 accepted');
    await rig.adapter.close();
    const outcomes = await sending;
    const accepted = outcomes.filter((o) => o.kind === 'accepted').length;
    expect(accepted).toBe(rig.smsc.counters.acceptedParts);
    expect(outcomes.every((o) => o.kind === 'accepted' || o.kind === 'retry')).toBe(true);
    await rig.smsc.until(() => rig!.smsc.counters.connections === 0, 'the connection closed');
    expect(await rig.adapter.submit(batch(numbers(1)))).toMatchObject([{ kind: 'retry' }]);
    expect(rig.adapter.state).toBe('closed');
  });
});
