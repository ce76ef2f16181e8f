// The sandbox SMSC: a real SMPP 3.4 server on loopback that stands in for an operator's SMSC in
// the embedded mode (`npm start`) and in tests. It speaks the wire through the same codec as the
// adapter (src/engine/channels/sms/wire.ts) and behaves like a well-run SMSC:
//   - bind_transceiver / _transmitter / _receiver with system_id and password (ESME_RBINDFAIL for
//     an unknown system_id, ESME_RINVPASWD for a wrong password), interface_version recorded;
//   - submit_sm → submit_sm_resp with a fresh message_id (decimal or hex); data_coding must be
//     0 or 8; text decoded, long messages reassembled from their UDH, every accepted message
//     recorded per destination;
//   - a delivery receipt per accepted submit_sm (per part), after a delay, with a seeded outcome
//     mix and per-destination rules, kept per system_id while no session of it is bound and sent
//     when it binds again (store and forward), resent when a session closes before answering;
//   - MO injection, throttling (0x58 above N submits/s), queue full (0x14), unresponsive mode,
//     dropping every connection, receipt before submit_sm_resp;
//   - counters and `until(predicate)` so tests wait for events instead of sleeping.
// Bookkeeping is O(1) per message: it carries the engine's 100,000-message runs.
import { EventEmitter } from 'node:events';
import type { AddressInfo } from 'node:net';
import { encodeSms } from '../../core/sms-parts.ts';
import { EsmClass, Status, decodeText, messageBytes, makePdu, smpp, splitUdh, type Pdu, type Session } from '../../engine/channels/sms/wire.ts';
import { Fifo } from './fifo.ts';
import { OutcomePicker, errorOfStat, receiptFields, seededRandom, type DestinationRule, type ReceiptStat } from './receipts.ts';

export type { DestinationRule, ReceiptStat };

/** What can change while the SMSC runs (configure()). */
export interface SandboxSmscModes {
  /** Send delivery receipts at all. Default true. */
  receipts: boolean;
  /** Delay between submit and receipt. Default 0. */
  receiptDelayMs: number;
  /** Up to this much more delay per receipt (seeded), so the parts of a long message are receipted
   *  apart, as on a real network; receipts still leave in the order they were queued. Default 0. */
  receiptJitterMs: number;
  /** Keep receipts and MO queued instead of delivering them (a backlog at the SMSC); setting it
   *  back to false delivers what waited, in order. Default false. */
  holdDeliveries: boolean;
  /** Receipt outcome mix by weight. Default { DELIVRD: 1 }. */
  outcomes: Partial<Record<ReceiptStat, number>>;
  /** Per-destination rules, checked before the mix. Default: numbers ending in 0000 → UNDELIV. */
  rules: DestinationRule[];
  /** Include receipted_message_id and message_state TLVs. Default true. */
  receiptTlvs: boolean;
  /** Echo user_message_reference in receipts. Default true. */
  echoUserReference: boolean;
  /** How receipts write the id: as submit_sm_resp did, or converted to hex / decimal. Default 'same'. */
  receiptIdFormat: 'same' | 'hex' | 'decimal';
  /** Write the receipt before the submit_sm_resp (an SMSC race the adapter must survive). */
  receiptBeforeResponse: boolean;
  /** Answer ESME_RTHROTTLED to submits above this many per second; null for no limit. */
  throttlePerSecond: number | null;
  /** Answer ESME_RMSGQFUL to every submit. */
  queueFull: boolean;
  /** Accept connections and binds but never answer submit_sm (tests response timeouts). */
  unresponsive: boolean;
}

export interface SandboxSmscOptions extends Partial<SandboxSmscModes> {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
  /** system_id → password. Default { colibri: 'colibri' }. */
  accounts?: Record<string, string>;
  /** message_id style of submit_sm_resp. Default 'decimal'. */
  idFormat?: 'decimal' | 'hex';
  /** Seed of the outcome mix. Default 1. */
  seed?: number;
  /** Keep every accepted message for assertions. Default true. */
  record?: boolean;
  /** deliver_sm requests left unanswered per session before the SMSC waits. Default 100. */
  deliverWindow?: number;
}

export interface SmscPart {
  messageId: string;
  dataCoding: number;
  esmClass: number;
  /** short_message as received: UDH included. */
  shortMessage: Buffer;
  text: string;
  registeredDelivery: number;
  /** The receipt outcome chosen for this part (when receipts are on). */
  stat?: ReceiptStat;
}

/** An accepted message (all its parts in). */
export interface SmscMessage {
  systemId: string;
  source: { addr: string; ton: number; npi: number };
  destination: { addr: string; ton: number; npi: number };
  text: string;
  dataCoding: number;
  parts: SmscPart[];
  userMessageReference?: number;
  at: Date;
}

export interface SmscBind {
  systemId: string;
  command: string;
  interfaceVersion: number;
  systemType: string;
  ok: boolean;
}

export interface SmscCounters {
  connections: number;
  binds: number;
  bindFailures: number;
  submits: number;
  acceptedParts: number;
  messages: number;
  throttled: number;
  queueFull: number;
  refused: number;
  ignored: number;
  receiptsQueued: number;
  receiptsSent: number;
  receiptsAcked: number;
  moQueued: number;
  moAcked: number;
}

export interface SandboxSmsc {
  readonly host: string;
  readonly port: number;
  readonly counters: Readonly<SmscCounters>;
  readonly bindLog: readonly SmscBind[];
  /** Accepted messages, in order. */
  messages(): readonly SmscMessage[];
  /** Accepted messages to one destination (digits as submitted, no '+'). */
  messagesTo(destination: string): readonly SmscMessage[];
  /** Destination → accepted messages. */
  destinations(): ReadonlyMap<string, readonly SmscMessage[]>;
  /** Receipts and MO waiting for a bound session of a system_id. */
  pendingFor(systemId: string): number;
  configure(changes: Partial<SandboxSmscModes>): void;
  /** Cuts every connection at once (receipts not yet answered are kept and resent). */
  dropConnections(): void;
  /** Queues an MO message to a system_id (default: the first account); long texts go in UDH parts. */
  injectMo(mo: { from: string; to: string; text: string; systemId?: string }): void;
  /** Resolves when the predicate holds (checked after every event); rejects after timeoutMs. */
  until(predicate: () => boolean, what?: string, timeoutMs?: number): Promise<void>;
  /** 'change' after every event; 'message' (SmscMessage) when a message is complete. */
  readonly events: EventEmitter;
  stop(): Promise<void>;
}

interface Outgoing {
  kind: 'receipt' | 'mo';
  fields: Record<string, unknown>;
}

interface Conn {
  raw: Session;
  systemId: string | null;
  receives: boolean;
  unanswered: Map<number, Outgoing>;
}

interface PendingLong {
  parts: Array<SmscPart | undefined>;
  received: number;
}

const DEFAULT_MODES: SandboxSmscModes = {
  receipts: true,
  receiptDelayMs: 0,
  receiptJitterMs: 0,
  holdDeliveries: false,
  outcomes: { DELIVRD: 1 },
  rules: [{ suffix: '0000', stat: 'UNDELIV', err: '001' }],
  receiptTlvs: true,
  echoUserReference: true,
  receiptIdFormat: 'same',
  receiptBeforeResponse: false,
  throttlePerSecond: null,
  queueFull: false,
  unresponsive: false,
};

const BIND_COMMANDS = new Set(['bind_transceiver', 'bind_transmitter', 'bind_receiver']);

/** Starts the sandbox SMSC; resolves once it listens. */
export async function startSandboxSmsc(options: SandboxSmscOptions = {}): Promise<SandboxSmsc> {
  const modes: SandboxSmscModes = { ...DEFAULT_MODES };
  for (const key of Object.keys(DEFAULT_MODES) as Array<keyof SandboxSmscModes>) {
    if (options[key] !== undefined) (modes as unknown as Record<string, unknown>)[key] = options[key];
  }
  const accounts = options.accounts ?? { colibri: 'colibri' };
  const idFormat = options.idFormat ?? 'decimal';
  const record = options.record ?? true;
  const deliverWindow = options.deliverWindow ?? 100;
  const picker = new OutcomePicker(modes.outcomes, options.seed ?? 1);
  const jitter = seededRandom((options.seed ?? 1) ^ 0x5eed);
  const events = new EventEmitter();
  events.setMaxListeners(0);

  const counters: SmscCounters = {
    connections: 0, binds: 0, bindFailures: 0, submits: 0, acceptedParts: 0, messages: 0, throttled: 0, queueFull: 0,
    refused: 0, ignored: 0, receiptsQueued: 0, receiptsSent: 0, receiptsAcked: 0, moQueued: 0, moAcked: 0,
  };
  const bindLog: SmscBind[] = [];
  const accepted: SmscMessage[] = [];
  const byDestination = new Map<string, SmscMessage[]>();
  const longPending = new Map<string, PendingLong>();
  const outboxes = new Map<string, Fifo<Outgoing>>();
  const delayed = new Fifo<{ dueAt: number; systemId: string; item: Outgoing }>();
  let delayTimer: NodeJS.Timeout | null = null;
  const conns = new Set<Conn>();
  let nextId = 1_000_000_000 + Math.floor(Math.random() * 1_000_000);
  let throttleSecond = 0;
  let throttleCount = 0;
  let moReference = 0;
  let stopped = false;

  const changed = () => events.emit('change');
  const outboxOf = (systemId: string) => {
    let box = outboxes.get(systemId);
    if (!box) outboxes.set(systemId, (box = new Fifo()));
    return box;
  };

  /** Sends what waits for a system_id to its bound sessions, up to each session's window. */
  function pump(systemId: string) {
    const box = outboxes.get(systemId);
    if (!box || box.length === 0 || modes.holdDeliveries) return;
    for (const conn of conns) {
      if (conn.systemId !== systemId || !conn.receives) continue;
      while (box.length > 0 && conn.unanswered.size < deliverWindow) {
        const item = box.shift()!;
        const pdu = makePdu('deliver_sm', item.fields);
        if (!conn.raw.send(pdu)) {
          box.unshift(item);
          break;
        }
        conn.unanswered.set(pdu.sequence_number, item);
        if (item.kind === 'receipt') counters.receiptsSent++;
      }
    }
  }

  function enqueue(systemId: string, item: Outgoing, delayMs: number) {
    if (item.kind === 'receipt') counters.receiptsQueued++;
    else counters.moQueued++;
    if (delayMs <= 0) {
      outboxOf(systemId).push(item);
      pump(systemId);
      return;
    }
    delayed.push({ dueAt: Date.now() + delayMs, systemId, item });
    if (!delayTimer) scheduleDelayed();
  }

  function scheduleDelayed() {
    const head = delayed.peek();
    if (!head || stopped) return;
    delayTimer = setTimeout(() => {
      delayTimer = null;
      const now = Date.now();
      const touched = new Set<string>();
      while (delayed.length > 0 && delayed.peek()!.dueAt <= now) {
        const { systemId, item } = delayed.shift()!;
        outboxOf(systemId).push(item);
        touched.add(systemId);
      }
      for (const systemId of touched) pump(systemId);
      scheduleDelayed();
    }, Math.max(0, head.dueAt - Date.now()));
  }

  function issueId(): string {
    const n = nextId++;
    return idFormat === 'hex' ? n.toString(16) : String(n);
  }

  function receiptIdOf(id: string): string {
    if (modes.receiptIdFormat === 'hex' && idFormat === 'decimal') return BigInt(id).toString(16);
    if (modes.receiptIdFormat === 'decimal' && idFormat === 'hex') return BigInt(`0x${id}`).toString(10);
    return id;
  }

  function outcomeFor(destination: string): { stat: ReceiptStat; err: string } {
    const rule = modes.rules.find((r) => r.stat && destination.endsWith(r.suffix));
    if (rule?.stat) return { stat: rule.stat, err: rule.err ?? errorOfStat(rule.stat) };
    const stat = picker.pick();
    return { stat, err: errorOfStat(stat) };
  }

  function keep(message: SmscMessage) {
    counters.messages++;
    if (record) {
      accepted.push(message);
      const list = byDestination.get(message.destination.addr);
      if (list) list.push(message);
      else byDestination.set(message.destination.addr, [message]);
    }
    events.emit('message', message);
  }

  function onSubmit(conn: Conn, pdu: Pdu) {
    counters.submits++;
    try {
      submit(conn, pdu);
    } finally {
      changed();
    }
  }

  function submit(conn: Conn, pdu: Pdu) {
    const answer = (status: number, messageId = '') => conn.raw.send(pdu.response(status === Status.ROK ? { message_id: messageId } : { command_status: status }));
    if (conn.systemId === null) return void answer(Status.RINVBNDSTS);
    if (modes.unresponsive) {
      counters.ignored++;
      return;
    }
    if (modes.queueFull) {
      counters.queueFull++;
      return void answer(Status.RMSGQFUL);
    }
    if (modes.throttlePerSecond !== null) {
      const second = Math.floor(Date.now() / 1000);
      if (second !== throttleSecond) [throttleSecond, throttleCount] = [second, 0];
      if (throttleCount >= modes.throttlePerSecond) {
        counters.throttled++;
        return void answer(Status.RTHROTTLED);
      }
      throttleCount++;
    }
    const dataCoding = Number(pdu.data_coding ?? 0);
    const destination = String(pdu.destination_addr ?? '');
    const refuse = (status: number) => {
      counters.refused++;
      answer(status);
    };
    if (dataCoding !== 0 && dataCoding !== 8) return void refuse(Status.RINVDCS);
    if (!/^\d{7,15}$/.test(destination)) return void refuse(Status.RINVDSTADR);
    const submitRule = modes.rules.find((r) => r.submitStatus !== undefined && destination.endsWith(r.suffix));
    if (submitRule?.submitStatus !== undefined) return void refuse(submitRule.submitStatus);

    const esmClass = Number(pdu.esm_class ?? 0);
    const bytes = messageBytes(pdu);
    const { concat, payload } = (esmClass & EsmClass.UDHI) !== 0 ? splitUdh(bytes) : { concat: null, payload: bytes };
    const messageId = issueId();
    const part: SmscPart = {
      messageId, dataCoding, esmClass, shortMessage: Buffer.from(bytes), text: decodeText(dataCoding, payload), registeredDelivery: Number(pdu.registered_delivery ?? 0),
    };
    counters.acceptedParts++;
    const systemId = conn.systemId;
    const source = { addr: String(pdu.source_addr ?? ''), ton: Number(pdu.source_addr_ton ?? 0), npi: Number(pdu.source_addr_npi ?? 0) };
    const userMessageReference = typeof pdu.user_message_reference === 'number' ? pdu.user_message_reference : undefined;

    // A receipt only when asked for, as a real SMSC does: registered_delivery bits 1-0 = 1 for
    // every final outcome, 2 for failures only.
    const wanted = part.registeredDelivery & 0x03;
    const outcome = modes.receipts && (wanted === 1 || wanted === 2) ? outcomeFor(destination) : null;
    if (outcome && !(wanted === 2 && outcome.stat === 'DELIVRD')) {
      const { stat, err } = outcome;
      part.stat = stat;
      const now = new Date();
      const receipt: Outgoing = {
        kind: 'receipt',
        fields: receiptFields({
          id: receiptIdOf(messageId), stat, err, submittedAt: now, doneAt: now, text: part.text, handset: destination, sender: source,
          userMessageReference: modes.echoUserReference ? userMessageReference : undefined, withTlvs: modes.receiptTlvs,
        }),
      };
      if (modes.receiptBeforeResponse) {
        enqueue(systemId, receipt, 0);
        answer(Status.ROK, messageId);
      } else {
        answer(Status.ROK, messageId);
        enqueue(systemId, receipt, modes.receiptDelayMs + Math.floor(jitter() * modes.receiptJitterMs));
      }
    } else {
      answer(Status.ROK, messageId);
    }

    const destinationInfo = { addr: destination, ton: Number(pdu.dest_addr_ton ?? 0), npi: Number(pdu.dest_addr_npi ?? 0) };
    const base = { systemId, source, destination: destinationInfo, dataCoding, userMessageReference, at: new Date() };
    if (!concat || concat.total === 1) {
      keep({ ...base, text: part.text, parts: [part] });
    } else {
      const key = `${systemId}|${source.addr}|${destination}|${concat.reference}|${concat.total}`;
      let pending = longPending.get(key);
      if (!pending) longPending.set(key, (pending = { parts: new Array(concat.total), received: 0 }));
      if (!pending.parts[concat.seq - 1]) pending.received++;
      pending.parts[concat.seq - 1] = part;
      if (pending.received === concat.total) {
        longPending.delete(key);
        const parts = pending.parts as SmscPart[];
        keep({ ...base, text: parts.map((p) => p.text).join(''), parts });
      }
    }
  }

  function onBind(conn: Conn, pdu: Pdu) {
    const systemId = String(pdu.system_id ?? '');
    const entry: SmscBind = { systemId, command: pdu.command, interfaceVersion: Number(pdu.interface_version ?? 0), systemType: String(pdu.system_type ?? ''), ok: false };
    bindLog.push(entry);
    let status: number = Status.ROK;
    if (conn.systemId !== null) status = Status.RALYBND;
    else if (!(systemId in accounts)) status = Status.RBINDFAIL;
    else if (accounts[systemId] !== String(pdu.password ?? '')) status = Status.RINVPASWD;
    if (status !== Status.ROK) {
      counters.bindFailures++;
      conn.raw.send(pdu.response({ command_status: status }));
      changed();
      return;
    }
    entry.ok = true;
    counters.binds++;
    conn.systemId = systemId;
    conn.receives = pdu.command !== 'bind_transmitter';
    conn.raw.send(pdu.response({ system_id: 'ColibriSandbox' }));
    pump(systemId);
    changed();
  }

  function onDeliverResp(conn: Conn, pdu: Pdu) {
    const item = conn.unanswered.get(pdu.sequence_number);
    if (!item) return;
    conn.unanswered.delete(pdu.sequence_number);
    if (pdu.command_status !== Status.ROK) {
      // The client could not take it now: keep it and try again, as an SMSC retries delivery.
      outboxOf(conn.systemId!).push(item);
    } else if (item.kind === 'receipt') counters.receiptsAcked++;
    else counters.moAcked++;
    pump(conn.systemId!);
    changed();
  }

  function onClose(conn: Conn) {
    if (!conns.delete(conn)) return;
    counters.connections--;
    if (conn.systemId !== null && conn.unanswered.size > 0) {
      const box = outboxOf(conn.systemId);
      // Unanswered deliveries go back in front, in their original order.
      for (const item of [...conn.unanswered.values()].reverse()) box.unshift(item);
      conn.unanswered.clear();
      if (!stopped) pump(conn.systemId);
    }
    changed();
  }

  const server = smpp.createServer({}, (raw: Session) => {
    const conn: Conn = { raw, systemId: null, receives: false, unanswered: new Map() };
    conns.add(conn);
    counters.connections++;
    raw.on('error', () => raw.destroy());
    raw.on('close', () => onClose(conn));
    raw.on('pdu', (pdu: Pdu) => {
      if (BIND_COMMANDS.has(pdu.command)) return onBind(conn, pdu);
      switch (pdu.command) {
        case 'submit_sm':
          return onSubmit(conn, pdu);
        case 'deliver_sm_resp':
          return onDeliverResp(conn, pdu);
        case 'enquire_link':
          return void raw.send(pdu.response());
        case 'unbind':
          raw.send(pdu.response());
          raw.close();
          return;
        case 'unbind_resp':
        case 'generic_nack':
          return;
        default:
          if (!pdu.isResponse()) raw.send(makePdu('generic_nack', { sequence_number: pdu.sequence_number, command_status: 0x03 }));
      }
    });
    changed();
  });
  server.on('error', () => undefined);

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  return {
    host,
    port,
    counters,
    bindLog,
    events,
    messages: () => accepted,
    messagesTo: (destination) => byDestination.get(destination.replace(/^\+/, '')) ?? [],
    destinations: () => byDestination,
    pendingFor: (systemId) => (outboxes.get(systemId)?.length ?? 0) + [...conns].reduce((n, c) => n + (c.systemId === systemId ? c.unanswered.size : 0), 0),
    configure(changes) {
      for (const [key, value] of Object.entries(changes)) if (value !== undefined) (modes as unknown as Record<string, unknown>)[key] = value;
      if (changes.outcomes) picker.setMix(changes.outcomes);
      if (changes.holdDeliveries === false) for (const systemId of outboxes.keys()) pump(systemId);
      changed();
    },
    dropConnections() {
      for (const conn of [...conns]) conn.raw.destroy();
    },
    injectMo({ from, to, text, systemId }) {
      const target = systemId ?? Object.keys(accounts)[0];
      const segments = encodeSms(text, moReference++ & 0xff);
      for (const segment of segments) {
        const shortMessage = segment.udh ? Buffer.concat([segment.udh, segment.payload]) : Buffer.from(segment.payload);
        enqueue(
          target,
          {
            kind: 'mo',
            fields: {
              source_addr_ton: 1, source_addr_npi: 1, source_addr: from.replace(/^\+/, ''),
              dest_addr_ton: 0, dest_addr_npi: 0, destination_addr: to,
              esm_class: segment.udh ? EsmClass.UDHI : 0, data_coding: segment.dataCoding, short_message: shortMessage,
            },
          },
          0,
        );
      }
      changed();
    },
    until(predicate, what = 'the sandbox SMSC condition', timeoutMs = 15_000) {
      if (predicate()) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!predicate()) return;
          cleanup();
          resolve();
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}; counters ${JSON.stringify(counters)}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          events.off('change', check);
        };
        events.on('change', check);
      });
    },
    async stop() {
      stopped = true;
      if (delayTimer) clearTimeout(delayTimer);
      for (const conn of [...conns]) conn.raw.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
