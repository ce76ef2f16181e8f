// The part of the `smpp` package (farhadi/node-smpp 0.5.1, CommonJS, no types of its own) that
// Colibri uses: the PDU codec, client sessions and the server. Everything goes through
// src/engine/channels/sms/wire.ts, which fixes the package's traps (research/protocols.md 1.6).
declare module 'smpp' {
  import type { EventEmitter } from 'node:events';
  import type { Server as NetServer, Socket } from 'node:net';

  /** A decoded PDU: header fields, the command's body fields and its TLVs by name. */
  export interface Pdu {
    command: string;
    command_id: number;
    command_status: number;
    sequence_number: number;
    [field: string]: any;
    isResponse(): boolean;
    response(options?: Record<string, unknown>): Pdu;
    toBuffer(): Buffer;
  }

  export interface Session extends EventEmitter {
    socket: Socket;
    /** Writes a PDU; answers false when the socket is not writable. */
    send(pdu: Pdu, responseCallback?: (response: Pdu) => void, sendCallback?: (pdu: Pdu) => void): boolean;
    close(callback?: () => void): void;
    destroy(callback?: () => void): void;
    pause(): void;
    resume(): void;
  }

  export interface Server extends NetServer {
    sessions: Session[];
  }

  interface FieldDef { type: unknown; filter?: unknown; default?: unknown }
  interface CommandDef { id: number; params?: Record<string, FieldDef> }
  interface TlvDef { id: number; type: unknown; filter?: unknown }

  interface SmppModule {
    connect(options: { host: string; port: number; auto_enquire_link_period?: number }, listener?: () => void): Session;
    createServer(options: Record<string, unknown>, listener?: (session: Session) => void): Server;
    PDU: new (command: string, options?: Record<string, unknown>) => Pdu;
    commands: Record<string, CommandDef>;
    tlvs: Record<string, TlvDef>;
    types: { tlv: Record<'string' | 'cstring' | 'int8' | 'int16' | 'int32' | 'buffer', unknown> };
    /** Registers a vendor TLV under a name (process-wide, as the package's tables are). */
    addTLV(name: string, options: TlvDef): void;
  }

  const smpp: SmppModule;
  export default smpp;
}
