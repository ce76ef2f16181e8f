// The SMPP 3.4 wire layer shared by the adapter and the sandbox SMSC: the `smpp` package as a
// codec, with its traps removed (research/protocols.md 0.2, 0.3, 1.6):
//   - short_message and message_payload travel as raw bytes both ways. The package would pick an
//     encoding on its own (IA5 or Latin-1) when sending and decode with the wrong table when
//     receiving; Colibri encodes with src/core/sms-parts.ts and decodes the same way.
//   - interface_version 0x34 is set by the callers at bind (the package defaults to 0x50).
// The package keeps its definitions in one module-wide table, so the raw codec is installed for
// the whole process the first time this module loads. Nothing else in Colibri uses the package.
import smpp from 'smpp';
import type { Pdu, Session, Server } from 'smpp';
import { decodeGsm7, decodeUcs2 } from '../../../core/sms-parts.ts';

export type { Pdu, Session, Server };

for (const command of ['submit_sm', 'deliver_sm', 'submit_multi', 'replace_sm']) {
  const field = smpp.commands[command]?.params?.short_message;
  if (field) delete field.filter;
}
if (smpp.tlvs.message_payload) delete smpp.tlvs.message_payload.filter;

// The serving network of a receipt's destination, as vendors write it in their own TLV range
// (SMPP 3.4 5.3.2 leaves 0x1400-0x3FFF to them): the destination's MCC and MNC as octet strings,
// with 8x8's tags. The operator that serves a number today (portability), for the reports.
smpp.addTLV('dest_mcc', { id: 0x1503, type: smpp.types.tlv.string });
smpp.addTLV('dest_mnc', { id: 0x1504, type: smpp.types.tlv.string });

export { smpp };

export const INTERFACE_VERSION_34 = 0x34;

/** command_status values Colibri acts on (SMPP 3.4 5.1.3; 0x104 is v5's RINVDCS). */
export const Status = {
  ROK: 0x00,
  RINVMSGLEN: 0x01,
  RINVBNDSTS: 0x04,
  RALYBND: 0x05,
  RSYSERR: 0x08,
  RINVSRCADR: 0x0a,
  RINVDSTADR: 0x0b,
  RBINDFAIL: 0x0d,
  RINVPASWD: 0x0e,
  RINVSYSID: 0x0f,
  RMSGQFUL: 0x14,
  RINVSERTYP: 0x15,
  RINVESMCLASS: 0x43,
  RSUBMITFAIL: 0x45,
  RINVSRCTON: 0x48,
  RINVSRCNPI: 0x49,
  RINVDSTTON: 0x50,
  RINVDSTNPI: 0x51,
  RTHROTTLED: 0x58,
  RINVSCHED: 0x61,
  RINVEXPIRY: 0x62,
  RX_T_APPN: 0x64,
  RX_P_APPN: 0x65,
  RINVDCS: 0x104,
} as const;

const STATUS_NAMES = new Map<number, string>(Object.entries(Status).map(([name, code]) => [code, `ESME_${name}`]));

/** ESME_RTHROTTLED, or 0x000000C4 for a code without a name here. */
export function statusName(code: number): string {
  return STATUS_NAMES.get(code) ?? `0x${code.toString(16).toUpperCase().padStart(8, '0')}`;
}

export const EsmClass = {
  /** Message type bits (5-2) of esm_class. */
  TYPE_MASK: 0x3c,
  DELIVERY_RECEIPT: 0x04,
  UDHI: 0x40,
} as const;

/** message_state TLV (0x0427) values. */
export const MessageState = {
  ENROUTE: 1,
  DELIVERED: 2,
  EXPIRED: 3,
  DELETED: 4,
  UNDELIVERABLE: 5,
  ACCEPTED: 6,
  UNKNOWN: 7,
  REJECTED: 8,
} as const;

export const isReceipt = (pdu: Pdu) => ((pdu.esm_class ?? 0) & EsmClass.TYPE_MASK) === EsmClass.DELIVERY_RECEIPT;

/** A new request or response PDU. Body bytes must be Buffers: the raw codec sends them as they are. */
export function makePdu(command: string, fields: Record<string, unknown> = {}): Pdu {
  return new smpp.PDU(command, fields);
}

export interface Concatenation { reference: number; total: number; seq: number }

/** Splits a short_message with UDHI into its concatenation header (8- or 16-bit reference) and text bytes. */
export function splitUdh(bytes: Buffer): { concat: Concatenation | null; payload: Buffer } {
  if (bytes.length === 0) return { concat: null, payload: bytes };
  const udhLength = bytes[0];
  const end = 1 + udhLength;
  if (end > bytes.length) return { concat: null, payload: bytes };
  let concat: Concatenation | null = null;
  for (let i = 1; i + 1 < end; ) {
    const iei = bytes[i];
    const len = bytes[i + 1];
    const data = bytes.subarray(i + 2, i + 2 + len);
    if (iei === 0x00 && len === 3) concat = { reference: data[0], total: data[1], seq: data[2] };
    else if (iei === 0x08 && len === 4) concat = { reference: (data[0] << 8) | data[1], total: data[2], seq: data[3] };
    i += 2 + len;
  }
  // A header that names no parts, or a part beyond the total, is ignored as handsets do.
  if (concat && (concat.total === 0 || concat.seq === 0 || concat.seq > concat.total)) concat = null;
  return { concat, payload: bytes.subarray(end) };
}

/** Text of the bytes in the given data_coding: 0 GSM-7 unpacked, 8 UCS-2; others read as Latin-1. */
export function decodeText(dataCoding: number, bytes: Uint8Array): string {
  const coding = dataCoding & 0x0f;
  if (coding === 0) return decodeGsm7(bytes);
  if (coding === 8) return decodeUcs2(bytes);
  return Buffer.from(bytes).toString('latin1');
}

/** The message bytes of a submit_sm or deliver_sm: short_message, or message_payload when empty. */
export function messageBytes(pdu: Pdu): Buffer {
  const short: unknown = pdu.short_message;
  if (Buffer.isBuffer(short) && short.length > 0) return short;
  const payload: unknown = pdu.message_payload;
  return Buffer.isBuffer(payload) ? payload : Buffer.alloc(0);
}

/** An address as E.164 with '+' when it is an international number; others as they came. */
export function addressToE164(addr: string, ton: number): string {
  const digits = addr.replace(/^\+/, '');
  if (!/^\d+$/.test(digits)) return addr;
  if (ton === 1 || digits.length >= 11) return `+${digits}`;
  // National format of a Colombian mobile or fixed line (10 digits): the SMSC dropped the 57.
  if (ton === 2 && digits.length === 10) return `+57${digits}`;
  return digits;
}
