// Stand-in for an RFC 3161 time-stamping authority: answers a TimeStampReq (SHA-256 imprints
// only) with a granted TimeStampResp whose token stamps the request's imprint and nonce at the
// stand-in's clock, or a rejection (badAlg, badDataFormat) as a real authority does. The stand-in
// speaks the protocol; the key that seals its tokens is the caller's (`seal`), as a real
// authority's key is its own. Served over HTTP on loopback by startSandboxTsa.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

const SHA256 = '2.16.840.1.101.3.4.2.1';
/** The sandbox's policy: an OID under the arc RFC 5612 reserves for documentation. */
export const SANDBOX_TSA_POLICY = '1.3.6.1.4.1.32473.3161.1';
const MAX_REQUEST_BYTES = 8 * 1024;

export interface TsaOptions {
  now: () => Date;
  /** Seals a DER TSTInfo as a token (a DER ContentInfo of SignedData). */
  seal: (tstInfo: Buffer, at: Date) => Promise<Buffer>;
}

// PKIFailureInfo bits (RFC 3161 2.4.2).
const FAILURE = { badAlg: 0, badRequest: 2, badDataFormat: 5 } as const;

function rejection(bit: number, text: string): Buffer {
  const bits = new Uint8Array(4);
  bits[bit >> 3] |= 0x80 >> (bit & 7);
  const status = new pkijs.PKIStatusInfo({
    status: pkijs.PKIStatus.rejection,
    statusStrings: [new asn1js.Utf8String({ value: text })],
    failInfo: new asn1js.BitString({ valueHex: bits.slice(0, (bit >> 3) + 1).buffer, unusedBits: 7 - (bit & 7) }),
  });
  return Buffer.from(new pkijs.TimeStampResp({ status }).toSchema().toBER(false));
}

/** The stand-in's answer (DER TimeStampResp) to a request (DER TimeStampReq). */
export async function answerTimestampRequest(request: Uint8Array, options: TsaOptions): Promise<Buffer> {
  let parsed: pkijs.TimeStampReq;
  try {
    parsed = pkijs.TimeStampReq.fromBER(new Uint8Array(request));
  } catch {
    return rejection(FAILURE.badDataFormat, 'not a TimeStampReq');
  }
  const imprint = parsed.messageImprint;
  if (imprint.hashAlgorithm.algorithmId !== SHA256) return rejection(FAILURE.badAlg, 'only SHA-256 imprints are stamped');
  if (imprint.hashedMessage.valueBlock.valueHexView.byteLength !== 32) return rejection(FAILURE.badRequest, 'a SHA-256 imprint is 32 bytes');
  const at = options.now();
  // Millisecond instants as serial numbers are unique enough for a stand-in; the random tail keeps two in one millisecond apart.
  const serial = new asn1js.Integer({ valueHex: Buffer.from(`${at.getTime().toString(16).padStart(12, '0')}${Math.floor(Math.random() * 0xffff).toString(16).padStart(4, '0')}`, 'hex') });
  const info = new pkijs.TSTInfo({
    version: 1, policy: SANDBOX_TSA_POLICY, messageImprint: imprint, serialNumber: serial, genTime: at,
    accuracy: new pkijs.Accuracy({ seconds: 1 }),
    ...(parsed.nonce ? { nonce: parsed.nonce } : {}),
  });
  const token = await options.seal(Buffer.from(info.toSchema().toBER(false)), at);
  const status = new pkijs.PKIStatusInfo({ status: pkijs.PKIStatus.granted });
  return Buffer.from(new pkijs.TimeStampResp({ status, timeStampToken: pkijs.ContentInfo.fromBER(new Uint8Array(token)) }).toSchema().toBER(false));
}

export interface SandboxTsa { url: string; requests: number; close(): Promise<void> }

/** The stand-in on a loopback port: POST application/timestamp-query, answered application/timestamp-reply. */
export async function startSandboxTsa(options: TsaOptions): Promise<SandboxTsa> {
  const state = { requests: 0 };
  const server: Server = createServer((req, res) => {
    if (req.method !== 'POST' || req.headers['content-type'] !== 'application/timestamp-query') {
      res.writeHead(415).end();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_REQUEST_BYTES) { res.writeHead(413).end(); req.destroy(); return; }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (res.writableEnded) return;
      state.requests++;
      void answerTimestampRequest(Buffer.concat(chunks), options).then(
        (answer) => res.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end(answer),
        () => res.writeHead(500).end(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/tsa`,
    get requests() { return state.requests; },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
