// Receipt parsing (Appendix B text and TLVs), id normalisation, the receipt router's part
// bookkeeping, MO reassembly, submit status classes and sender addressing: the pure pieces of the
// SMPP adapter, given PDUs built with the same codec the wire uses.
import { describe, expect, it } from 'vitest';
import { encodeGsm7, encodeUcs2 } from '../../src/core/sms-parts.ts';
import type { StatusEvent } from '../../src/engine/channel-adapter.ts';
import { resolveConfig, sourceAddress } from '../../src/engine/channels/sms/config.ts';
import { MoAssembler } from '../../src/engine/channels/sms/mo.ts';
import { literalIdKey, parseReceipt, receiptIdCandidates, statusOfStat } from '../../src/engine/channels/sms/receipt.ts';
import { ReceiptRouter } from '../../src/engine/channels/sms/receipt-router.ts';
import { classifySubmitStatus } from '../../src/engine/channels/sms/submit-status.ts';
import { makePdu, type Pdu } from '../../src/engine/channels/sms/wire.ts';
import { userReferenceOf } from '../../src/engine/channels/sms/adapter.ts';

/** A deliver_sm as it comes off the wire: encoded by the codec, then decoded by it. */
function wire(fields: Record<string, unknown>): Pdu {
  const pdu = makePdu('deliver_sm', { sequence_number: 1, ...fields });
  return new (makePdu('enquire_link').constructor as new (b: Buffer) => Pdu)(pdu.toBuffer());
}

const receiptPdu = (text: string, extra: Record<string, unknown> = {}) =>
  wire({ source_addr_ton: 1, source_addr_npi: 1, source_addr: '573001234567', esm_class: 0x04, data_coding: 0, short_message: Buffer.from(encodeGsm7(text)), ...extra });

describe('parseReceipt', () => {
  it('reads the serving network from the dest_mcc and dest_mnc TLVs (8x8\'s tags), padding a 2-digit MNC', () => {
    const text = 'id:77 sub:001 dlvrd:001 submit date:1601010100 done date:1601010101 stat:DELIVRD err:000 text:x';
    expect(parseReceipt(receiptPdu(text, { dest_mcc: '732', dest_mnc: '123' }))!.network).toBe('732123');
    expect(parseReceipt(receiptPdu(text, { dest_mcc: '732', dest_mnc: '12' }))!.network).toBe('732012');
    // Missing, partial or not digits: no network (the report falls back to the allocation).
    expect(parseReceipt(receiptPdu(text))!.network).toBeUndefined();
    expect(parseReceipt(receiptPdu(text, { dest_mcc: '732' }))!.network).toBeUndefined();
    expect(parseReceipt(receiptPdu(text, { dest_mcc: '73A', dest_mnc: '101' }))!.network).toBeUndefined();
  });

  it('reads the Appendix B text with 10-digit dates', () => {
    const r = parseReceipt(receiptPdu('id:0000000012345678 sub:001 dlvrd:001 submit date:1601010100 done date:1601010101 stat:DELIVRD err:000 text:none'))!;
    expect(r).toMatchObject({ messageId: '0000000012345678', stat: 'DELIVRD', status: 'DELIVERED', errorCode: '000', submitDate: '1601010100', doneDate: '1601010101', sourceAddr: '573001234567' });
  });

  it('reads 12-digit dates, Text: in capitals, and no text at all', () => {
    const a = parseReceipt(receiptPdu('id:77 sub:001 dlvrd:000 submit date:190608165232 done date:190608165240 stat:UNDELIV err:075 Text:Hola'))!;
    expect(a).toMatchObject({ messageId: '77', status: 'FAILED', errorCode: '075', submitDate: '190608165232', doneDate: '190608165240' });
    const b = parseReceipt(receiptPdu('id:ABCDEF01 sub:001 dlvrd:000 submit date:2401010000 done date:2401020000 stat:EXPIRED err:027'))!;
    expect(b).toMatchObject({ messageId: 'ABCDEF01', status: 'TIME_OUT', errorCode: '027' });
  });

  it('prefers the receipted_message_id and message_state TLVs over the text', () => {
    const r = parseReceipt(receiptPdu('id:111 stat:DELIVRD err:000', { receipted_message_id: '222', message_state: 5 }))!;
    expect(r).toMatchObject({ messageId: '222', stat: 'UNDELIV', status: 'FAILED' });
  });

  it('takes the TLVs alone when the text is empty, and the echoed user_message_reference', () => {
    const r = parseReceipt(receiptPdu('', { receipted_message_id: '9f', message_state: 2, user_message_reference: 0xbeef }))!;
    expect(r).toMatchObject({ messageId: '9f', status: 'DELIVERED', userReference: 0xbeef });
  });

  it('answers null for a receipt that names no message', () => {
    expect(parseReceipt(receiptPdu('stat:DELIVRD'))).toBeNull();
  });

  it.each([
    ['DELIVRD', 'DELIVERED'], ['ACCEPTD', 'SENT'], ['ENROUTE', 'SENT'], ['UNDELIV', 'FAILED'], ['REJECTD', 'UNAUTHORIZED'],
    ['DELETED', 'FAILED'], ['EXPIRED', 'TIME_OUT'], ['UNKNOWN', 'UNDEFINED'], ['delivrd', 'DELIVERED'], ['DELIVERED', 'DELIVERED'],
    ['UNDELIVERABLE', 'FAILED'], ['GIBBERISH', 'UNDEFINED'],
  ])('stat %s → %s', (stat, status) => {
    expect(statusOfStat(stat)).toBe(status);
  });
});

describe('receipt ids', () => {
  it('matches hex and decimal spellings of one id in both directions', () => {
    expect(literalIdKey('000ABC')).toBe('abc');
    // submit_sm_resp said 1A2B (hex), the receipt says 6699 (decimal), and the other way round.
    expect(receiptIdCandidates('6699')).toContain('1a2b');
    expect(receiptIdCandidates('1A2B')).toContain('6699');
    expect(receiptIdCandidates('0000000012345678')[0]).toBe('12345678');
  });

  it('takes the low 16 bits of our message id as user_message_reference', () => {
    expect(userReferenceOf('65537')).toBe(1);
    expect(userReferenceOf('123456789012345678901')).toBe(Number(123456789012345678901n % 65536n));
    expect(userReferenceOf('abc')).toBeGreaterThanOrEqual(0);
  });
});

describe('ReceiptRouter', () => {
  const receipt = (messageId: string, status: StatusEvent['status'], extra: object = {}) => ({
    messageId, stat: 'X', status, sourceAddr: '573001234567', sourceTon: 1, ...extra,
  });

  function router(inFlight = () => 0) {
    const events: StatusEvent[] = [];
    const r = new ReceiptRouter({ report: (e) => void events.push(e), inFlight, orphanWaitMs: 60_000, maxTracked: 1000 });
    return { r, events };
  }

  it('reports each final part of a long message under its own id, and nothing for intermediate ones', async () => {
    const { r, events } = router();
    const m = r.startMessage();
    r.accepted('100', m);
    r.accepted('101', m);
    r.accepted('102', m);
    await r.receive(receipt('101', 'DELIVERED'));
    await r.receive(receipt('100', 'SENT'));
    await r.receive(receipt('100', 'DELIVERED'));
    await r.receive(receipt('102', 'FAILED', { errorCode: '034' }));
    expect(events).toMatchObject([
      { providerMessageId: '101', status: 'DELIVERED', scope: 'part', destination: '+573001234567' },
      { providerMessageId: '100', status: 'DELIVERED', scope: 'part' },
      { providerMessageId: '102', status: 'FAILED', scope: 'part', errorCode: '034' },
    ]);
    expect(r.tracked).toBe(0);
  });

  it('absorbs the receipts of a long message refused at a later part', async () => {
    const { r, events } = router();
    const m = r.startMessage();
    r.accepted('200', m);
    r.abandon(m);
    await r.receive(receipt('200', 'DELIVERED'));
    expect(events).toEqual([]);
    expect(r.tracked).toBe(0);
  });

  it('keeps a part whose receipt the sink could not store, so the redelivered receipt finds it', async () => {
    let fail = true;
    const events: StatusEvent[] = [];
    const r = new ReceiptRouter({
      report: (e) => { if (fail) throw new Error('database down'); events.push(e); }, inFlight: () => 0, orphanWaitMs: 60_000, maxTracked: 1000,
    });
    const m = r.startMessage();
    r.accepted('300', m);
    r.accepted('301', m);
    await expect(r.receive(receipt('301', 'DELIVERED'))).rejects.toThrow('database down');
    fail = false;
    await r.receive(receipt('301', 'DELIVERED'));
    expect(events).toMatchObject([{ providerMessageId: '301', status: 'DELIVERED', scope: 'part' }]);
  });

  it('holds a receipt that comes before its submit_sm_resp while submits are in flight', async () => {
    let inFlight = 1;
    const { r, events } = router(() => inFlight);
    const m = r.startMessage();
    const early = r.receive(receipt('401', 'DELIVERED'));
    r.accepted('400', m);
    expect(events).toEqual([]);
    inFlight = 0;
    r.accepted('401', m);
    await early;
    expect(events).toMatchObject([{ providerMessageId: '401', status: 'DELIVERED', scope: 'part' }]);
  });

  it('reports an unknown id at once when nothing is in flight (receipts kept across a restart)', async () => {
    const { r, events } = router();
    await r.receive(receipt('999', 'DELIVERED', { userReference: 42 }));
    expect(events).toMatchObject([{ providerMessageId: '999', status: 'DELIVERED', scope: 'unknown', userReference: 42, destination: '+573001234567' }]);
  });

  it('learns the SMSC habit (decimal answers, hex receipts) and applies it to ids no longer in memory', async () => {
    const { r, events } = router();
    r.accepted('4096', null);
    await r.receive(receipt('1000', 'DELIVERED'));
    await r.receive(receipt('1001', 'DELIVERED'));
    expect(events.map((e) => e.providerMessageId)).toEqual(['4096', '4097']);
  });

  it('keeps at most maxTracked ids, oldest out first', () => {
    const r = new ReceiptRouter({ report: () => undefined, inFlight: () => 0, orphanWaitMs: 1, maxTracked: 3 });
    for (const id of ['1', '2', '3', '4', '5']) r.accepted(id, null);
    expect(r.tracked).toBe(3);
  });
});

describe('MoAssembler', () => {
  const mo = (bytes: Buffer, extra: Record<string, unknown> = {}) =>
    wire({ source_addr_ton: 1, source_addr_npi: 1, source_addr: '573001112222', destination_addr: '89123', esm_class: 0, data_coding: 0, short_message: bytes, ...extra });

  it('decodes a single GSM-7 MO with the sender in E.164', () => {
    expect(new MoAssembler().accept(mo(Buffer.from(encodeGsm7('Hola {mundo} €')))))
      .toEqual({ from: '+573001112222', to: '89123', text: 'Hola {mundo} €' });
  });

  it('joins UCS-2 parts by their UDH, in any order, and ignores a repeated part', () => {
    const assembler = new MoAssembler();
    const part = (seq: number, text: string) => mo(Buffer.concat([Buffer.from([5, 0, 3, 9, 2, seq]), Buffer.from(encodeUcs2(text))]), { esm_class: 0x40, data_coding: 8 });
    expect(assembler.accept(part(2, 'ó 😀'))).toBeNull();
    expect(assembler.accept(part(2, 'ó 😀'))).toBeNull();
    expect(assembler.accept(part(1, 'Canción '))).toEqual({ from: '+573001112222', to: '89123', text: 'Canción ó 😀' });
    expect(assembler.waiting).toBe(0);
  });

  it('joins SAR parts (16-bit reference TLVs)', () => {
    const assembler = new MoAssembler();
    const part = (seq: number, text: string) => mo(Buffer.from(encodeGsm7(text)), { sar_msg_ref_num: 300, sar_total_segments: 2, sar_segment_seqnum: seq });
    expect(assembler.accept(part(1, 'uno '))).toBeNull();
    expect(assembler.accept(part(2, 'dos'))?.text).toBe('uno dos');
  });

  it('drops parts whose siblings never come', () => {
    let now = 0;
    const assembler = new MoAssembler(1_000, () => now);
    assembler.accept(mo(Buffer.from([5, 0, 3, 1, 2, 1, 0x41]), { esm_class: 0x40 }));
    expect(assembler.waiting).toBe(1);
    now = 5_000;
    assembler.accept(mo(Buffer.from([5, 0, 3, 2, 2, 1, 0x41]), { esm_class: 0x40 }));
    expect(assembler.waiting).toBe(1);
  });
});

describe('submit statuses and addressing', () => {
  it.each([
    [0x00, { kind: 'ok' }],
    [0x58, { kind: 'transient', throttling: true }],
    [0x14, { kind: 'transient', throttling: true }],
    [0x08, { kind: 'transient', throttling: false }],
    [0x04, { kind: 'rebind' }],
    [0x0b, { kind: 'permanent', statusCode: 94 }],
    [0x51, { kind: 'permanent', statusCode: 94 }],
    [0x01, { kind: 'permanent', statusCode: 60 }],
    [0x43, { kind: 'permanent', statusCode: 60 }],
    [0x45, { kind: 'permanent', statusCode: 92 }],
    [0xff, { kind: 'permanent', statusCode: 92 }],
    // The sender (source address, its TON or NPI) refused: unauthorized, not a request error.
    [0x0a, { kind: 'permanent', statusCode: 92, unauthorized: true }],
    [0x48, { kind: 'permanent', statusCode: 92, unauthorized: true }],
  ])('command_status %i', (status, want) => {
    expect(classifySubmitStatus(status)).toEqual(want);
  });

  const base = { host: 'smsc', port: 2775, systemId: 'colibri', password: 'x' };
  it('alphanumeric sender → TON 5 / NPI 0; short code → configurable; long number → 1/1 without +', () => {
    expect(sourceAddress(resolveConfig({ ...base, sender: 'Colibri' }))).toEqual({ ton: 5, npi: 0, addr: 'Colibri' });
    expect(sourceAddress(resolveConfig({ ...base, sender: '89123' }))).toEqual({ ton: 3, npi: 0, addr: '89123' });
    expect(sourceAddress(resolveConfig({ ...base, sender: '89123', shortCodeTon: 6, shortCodeNpi: 1 }))).toEqual({ ton: 6, npi: 1, addr: '89123' });
    expect(sourceAddress(resolveConfig({ ...base, sender: '+573001234567' }))).toEqual({ ton: 1, npi: 1, addr: '573001234567' });
    expect(sourceAddress(resolveConfig({ ...base, sender: 'Colibri', sourceTon: 0, sourceNpi: 0 }))).toEqual({ ton: 0, npi: 0, addr: 'Colibri' });
  });

  it('refuses a configuration without host, port, system_id or sender, naming what is missing', () => {
    expect(() => resolveConfig({ host: '', port: 0, systemId: '', password: 'x', sender: '' })).toThrow(/host, port, systemId, sender/);
  });
});
