// The SMPP adapter against the sandbox SMSC over real loopback sockets: what goes on the wire
// (bind, data_coding, UDH, addresses) and what comes back (receipts per message, MO).
import { afterEach, describe, expect, it } from 'vitest';
import { decodeUcs2 } from '../../src/core/sms-parts.ts';
import type { SubmitOutcome } from '../../src/engine/channel-adapter.ts';
import { numbers, startRig, type Rig } from './smpp-harness.ts';

let rig: Rig | null = null;
afterEach(async () => {
  await rig?.stop();
  rig = null;
});

const acceptedIds = (outcomes: SubmitOutcome[]) =>
  outcomes.map((o) => {
    if (o.kind !== 'accepted') throw new Error(`not accepted: ${JSON.stringify(o)}`);
    return o.providerMessageId;
  });

describe('SMPP adapter on the wire', { timeout: 30_000 }, () => {
  it('binds as a 3.4 transceiver with the channel credentials and system_type', async () => {
    rig = await startRig({}, { systemType: 'COLIBRI' });
    await rig.adapter.connect();
    expect(rig.smsc.bindLog).toEqual([{ systemId: 'colibri', command: 'bind_transceiver', interfaceVersion: 0x34, systemType: 'COLIBRI', ok: true }]);
    expect(rig.adapter.state).toBe('bound');
  });

  it('sends GSM-7 as data_coding 0 and UCS-2 as data_coding 8, bytes encoded by Colibri', async () => {
    rig = await startRig();
    const outcomes = await rig.adapter.submit([
      { id: '1', to: '+573001234567', text: 'Hola {Ana} € ñ é' },
      { id: '2', to: '+573001234568', text: 'Canción' },
    ]);
    acceptedIds(outcomes);
    const [gsm] = rig.smsc.messagesTo('573001234567');
    expect(gsm.dataCoding).toBe(0);
    expect(gsm.text).toBe('Hola {Ana} € ñ é');
    // unpacked septets: H o l a ' ' then ESC ( for '{'
    expect([...gsm.parts[0].shortMessage.subarray(0, 7)]).toEqual([0x48, 0x6f, 0x6c, 0x61, 0x20, 0x1b, 0x28]);
    const [ucs] = rig.smsc.messagesTo('573001234568');
    expect(ucs.dataCoding).toBe(8);
    expect(ucs.parts[0].shortMessage).toEqual(Buffer.from('Canción', 'utf16le').swap16());
    expect(decodeUcs2(ucs.parts[0].shortMessage)).toBe('Canción');
  });

  it('addresses: alphanumeric sender 5/0, destination 1/1 without +, registered_delivery 1, user_message_reference', async () => {
    rig = await startRig();
    acceptedIds(await rig.adapter.submit([{ id: '65539', to: '+573001234567', text: 'Hola' }]));
    const [m] = rig.smsc.messagesTo('573001234567');
    expect(m.source).toEqual({ addr: 'Colibri', ton: 5, npi: 0 });
    expect(m.destination).toEqual({ addr: '573001234567', ton: 1, npi: 1 });
    expect(m.parts[0].registeredDelivery).toBe(1);
    expect(m.userMessageReference).toBe(3);
    const shortCode = rig.adapterWith({ sender: '89123', shortCodeTon: 6, shortCodeNpi: 0 });
    acceptedIds(await shortCode.submit([{ id: '4', to: '+573001234569', text: 'Hola' }]));
    expect(rig.smsc.messagesTo('573001234569')[0].source).toEqual({ addr: '89123', ton: 6, npi: 0 });
  });

  it('splits long texts into parts with the 8-bit concatenation UDH and UDHI set', async () => {
    rig = await startRig();
    const gsmText = 'a'.repeat(200);
    const ucsText = 'ó'.repeat(140);
    acceptedIds(await rig.adapter.submit([{ id: '1', to: '+573001234567', text: gsmText }, { id: '2', to: '+573001234568', text: ucsText }]));
    const [gsm] = rig.smsc.messagesTo('573001234567');
    expect(gsm.parts).toHaveLength(2);
    expect(gsm.text).toBe(gsmText);
    const [p1, p2] = gsm.parts;
    expect(p1.esmClass & 0x40).toBe(0x40);
    expect([...p1.shortMessage.subarray(0, 6)]).toEqual([5, 0, 3, p1.shortMessage[3], 2, 1]);
    expect([...p2.shortMessage.subarray(0, 6)]).toEqual([5, 0, 3, p1.shortMessage[3], 2, 2]);
    expect(p1.shortMessage.length).toBe(6 + 153);
    const [ucs] = rig.smsc.messagesTo('573001234568');
    expect(ucs.parts.map((p) => p.dataCoding)).toEqual([8, 8, 8]);
    expect(ucs.parts[0].shortMessage.length).toBe(6 + 134);
    expect(ucs.text).toBe(ucsText);
  });

  it('refuses what is no phone number or has no text without touching the SMSC', async () => {
    rig = await startRig();
    const outcomes = await rig.adapter.submit([{ id: '1', to: 'hola', text: 'x' }, { id: '2', to: '+573001234567' }]);
    expect(outcomes).toMatchObject([{ kind: 'failed', statusCode: 94 }, { kind: 'failed', statusCode: 60 }]);
    expect(rig.smsc.counters.submits).toBe(0);
  });

  it('maps SMSC refusals to the spec codes: invalid destination 94, bad coding 60, submit failure 92', async () => {
    rig = await startRig({ rules: [{ suffix: '1111', submitStatus: 0x0b }, { suffix: '2222', submitStatus: 0x45 }, { suffix: '3333', submitStatus: 0x104 }] });
    const outcomes = await rig.adapter.submit([
      { id: '1', to: '+573001111111', text: 'x' },
      { id: '2', to: '+573002222222', text: 'x' },
      { id: '3', to: '+573003333333', text: 'x' },
    ]);
    expect(outcomes).toMatchObject([
      { kind: 'failed', statusCode: 94, errorCode: 'ESME_RINVDSTADR' },
      { kind: 'failed', statusCode: 92, errorCode: 'ESME_RSUBMITFAIL' },
      { kind: 'failed', statusCode: 60, errorCode: 'ESME_RINVDCS' },
    ]);
  });

  it('1,000 messages: all accepted, every receipt back under its message id with the right status', async () => {
    rig = await startRig({ outcomes: { DELIVRD: 0.9, UNDELIV: 0.05, EXPIRED: 0.05 }, seed: 7 });
    const to = numbers(1000);
    const ids = acceptedIds(await rig.adapter.submit(to.map((t, i) => ({ id: String(i + 1), to: t, text: `Mensaje ${i}` }))));
    expect(new Set(ids).size).toBe(1000);
    await rig.sink.until(() => rig!.sink.statuses.length >= 1000, '1,000 receipts');
    const byId = new Map(rig.sink.statuses.map((s) => [s.providerMessageId, s]));
    expect(byId.size).toBe(1000);
    const want = { DELIVRD: 'DELIVERED', UNDELIV: 'FAILED', EXPIRED: 'TIME_OUT' } as Record<string, string>;
    const seen = new Set<string>();
    to.forEach((t, i) => {
      const [m] = rig!.smsc.messagesTo(t);
      const event = byId.get(ids[i])!;
      expect(event.status).toBe(want[m.parts[0].stat!]);
      expect(event.destination).toBe(t);
      expect(event.userReference).toBe(i + 1);
      seen.add(m.parts[0].stat!);
    });
    expect(seen.size).toBe(3);
  });

  it('long messages: every part id answered (the first is the message id), one final status per part, each under its own id', async () => {
    rig = await startRig({ outcomes: { DELIVRD: 0.7, UNDELIV: 0.3 }, seed: 3 });
    const to = numbers(60);
    const outcomes = await rig.adapter.submit(to.map((t, i) => ({ id: String(i + 1), to: t, text: `${i} `.repeat(100) })));
    const ids = acceptedIds(outcomes);
    const totalParts = to.reduce((n, t) => n + rig!.smsc.messagesTo(t)[0].parts.length, 0);
    expect(totalParts).toBeGreaterThan(60);
    await rig.smsc.until(() => rig!.smsc.counters.receiptsAcked === totalParts, 'every part receipt answered');
    expect(rig.sink.statuses).toHaveLength(totalParts);
    let mixed = 0;
    to.forEach((t, i) => {
      const [m] = rig!.smsc.messagesTo(t);
      const o = outcomes[i];
      expect(o.kind === 'accepted' && o.partIds).toEqual(m.parts.map((p) => p.messageId));
      expect(ids[i]).toBe(m.parts[0].messageId);
      const stats = m.parts.map((p) => p.stat);
      if (new Set(stats).size > 1) mixed++;
      for (const part of m.parts) {
        const event = rig!.sink.statuses.find((s) => s.providerMessageId === part.messageId)!;
        expect(event).toMatchObject({ scope: 'part', status: part.stat === 'DELIVRD' ? 'DELIVERED' : 'FAILED' });
      }
    });
    expect(mixed).toBeGreaterThan(0);
  });

  it('sends a long message\'s later parts before other messages\' first parts', async () => {
    rig = await startRig();
    const to = numbers(40);
    await rig.adapter.submit(to.map((t, i) => ({ id: String(i + 1), to: t, text: `${i} `.repeat(120) })));
    // The SMSC's ids count its accepted parts. With later parts first, at most a window's worth of
    // messages (10) is between parts at once, so a 3-part message spans about 3 windows of ids
    // (36 measured); served in arrival order, every first part of the batch would come before
    // any second part (70 measured).
    const order = rig.smsc.messages().flatMap((m) => m.parts.map((p) => ({ to: m.destination.addr, id: Number(p.messageId) })));
    const byDestination = new Map<string, number[]>();
    for (const part of order) byDestination.set(part.to, [...(byDestination.get(part.to) ?? []), part.id]);
    const spread = Math.max(...[...byDestination.values()].map((ids) => Math.max(...ids) - Math.min(...ids)));
    expect(spread).toBeLessThanOrEqual(45);
  });

  it('a receipt written before its submit_sm_resp is still reported under the right id', async () => {
    rig = await startRig({ receiptBeforeResponse: true });
    const to = numbers(50);
    const messages = to.map((t, i) => ({ id: String(i + 1), to: t, text: i % 5 === 0 ? 'x'.repeat(300) : `m${i}` }));
    const outcomes = await rig.adapter.submit(messages);
    const partIds = outcomes.flatMap((o) => (o.kind === 'accepted' ? (o.partIds ?? [o.providerMessageId]) : []));
    expect(partIds).toHaveLength(40 + 10 * 2);
    await rig.sink.until(() => rig!.sink.statuses.length >= partIds.length, 'every receipt');
    expect(new Set(rig.sink.statuses.map((s) => s.providerMessageId))).toEqual(new Set(partIds));
    expect(rig.sink.statuses.every((s) => s.status === 'DELIVERED' && s.scope !== 'unknown')).toBe(true);
  });

  it.each([
    ['decimal answers, hex receipts (text only)', { idFormat: 'decimal', receiptIdFormat: 'hex', receiptTlvs: false }],
    ['hex answers, decimal receipts (TLVs)', { idFormat: 'hex', receiptIdFormat: 'decimal', receiptTlvs: true }],
  ] as const)('matches receipts across id bases: %s', async (_name, smscOptions) => {
    rig = await startRig(smscOptions);
    const to = numbers(20);
    const ids = acceptedIds(await rig.adapter.submit(to.map((t, i) => ({ id: String(i + 1), to: t, text: 'Hola' }))));
    await rig.sink.until(() => rig!.sink.statuses.length >= 20, '20 receipts');
    expect(new Set(rig.sink.statuses.map((s) => s.providerMessageId))).toEqual(new Set(ids));
    const receiptId = rig.smsc.messagesTo(to[0])[0].parts[0].messageId;
    expect(ids[0]).toBe(receiptId);
  });

  it('reports MO messages, a concatenated UCS-2 one joined into one text', async () => {
    rig = await startRig();
    await rig.adapter.connect();
    const long = 'Hola, quisiera saber el estado de mi pedido número 4521 🙂 gracias, atención al cliente. '.repeat(2);
    rig.smsc.injectMo({ from: '+573001112222', to: '89123', text: 'SALDO' });
    rig.smsc.injectMo({ from: '+573003334444', to: '89123', text: long });
    await rig.sink.until(() => rig!.sink.inbounds.length >= 2, '2 MO messages');
    expect(rig.sink.inbounds.map(({ from, to, text }) => ({ from, to, text }))).toEqual([
      { from: '+573001112222', to: '89123', text: 'SALDO' },
      { from: '+573003334444', to: '89123', text: long },
    ]);
    expect(rig.sink.inbounds[1].providerMessageId).not.toBe(rig.sink.inbounds[0].providerMessageId);
  });
});
