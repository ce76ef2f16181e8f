// RFC 3161 over HTTP on loopback: the server's client asks the sandbox's stand-in authority for a
// stamp and accepts only a sound answer (granted, our digest, our nonce, a token whose signature
// holds, bounded in size); the stand-in refuses what a real authority refuses.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfSignedIdentity } from '../../src/server/signing/identity.ts';
import { httpTimestampAuthority, stampFacts, timestampRequest, tokenFromResponse, tokenSealer } from '../../src/server/signing/timestamp.ts';
import { answerTimestampRequest, SANDBOX_TSA_POLICY, startSandboxTsa, type SandboxTsa } from '../../src/sandbox/tsa/index.ts';

const digestOf = (s: string) => createHash('sha256').update(s).digest();
let tsa: SandboxTsa;
let seal: Awaited<ReturnType<typeof tokenSealer>>;
const clock = { now: new Date('2026-12-08T15:00:00Z') };

beforeAll(async () => {
  seal = tokenSealer(await selfSignedIdentity(Buffer.alloc(32, 5), { legalName: 'Sellos de Prueba S.A.S.', nit: '900111222-3' }, 'timestamps'));
  tsa = await startSandboxTsa({ now: () => clock.now, seal });
});
afterAll(() => tsa.close());

describe('the time-stamping client and the sandbox authority', () => {
  it('stamps a digest over HTTP: the token names the time, the policy and the digest, and its signature holds', async () => {
    const digest = digestOf('la firma de un certificado');
    const token = await httpTimestampAuthority(tsa.url).stamp(digest);
    const facts = stampFacts(token);
    expect(facts.time.toISOString()).toBe('2026-12-08T15:00:00.000Z');
    expect(facts.policy).toBe(SANDBOX_TSA_POLICY);
    expect(facts.imprint.equals(digest)).toBe(true);
    expect(facts.authority).toContain('sellado de tiempo');
    expect(tsa.requests).toBe(1);
  });

  it('refuses an answer for another digest or without our nonce, and a token whose stamped content was changed', async () => {
    const ours = timestampRequest(digestOf('nuestro'));
    const theirs = timestampRequest(digestOf('otro'));
    const answerToTheirs = await answerTimestampRequest(theirs.der, { now: () => clock.now, seal });
    expect(() => tokenFromResponse(answerToTheirs, digestOf('nuestro'), ours.nonce)).toThrow(/another digest/);
    const answerToOurs = await answerTimestampRequest(ours.der, { now: () => clock.now, seal });
    expect(() => tokenFromResponse(answerToOurs, digestOf('nuestro'), theirs.nonce)).toThrow(/nonce/);
    const token = tokenFromResponse(answerToOurs, digestOf('nuestro'), ours.nonce);
    // The TSTInfo's generation time moved by a year inside the token: its signature no longer holds.
    const tampered = Buffer.from(token);
    const at = tampered.indexOf(Buffer.from('20261208'));
    expect(at).toBeGreaterThan(0);
    tampered.write('2027', at, 'latin1');
    expect(() => stampFacts(tampered)).toThrow(/signature does not hold/);
  });

  it('is refused by the stand-in for another hash algorithm or a request that is not one, and the client says so', async () => {
    const sha1 = new pkijs.TimeStampReq({
      version: 1,
      messageImprint: new pkijs.MessageImprint({ hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: '1.3.14.3.2.26' }), hashedMessage: new asn1js.OctetString({ valueHex: new Uint8Array(20) }) }),
    });
    const refused = await answerTimestampRequest(Buffer.from(sha1.toSchema().toBER(false)), { now: () => clock.now, seal });
    expect(pkijs.TimeStampResp.fromBER(new Uint8Array(refused)).status.status).toBe(pkijs.PKIStatus.rejection);
    expect(() => tokenFromResponse(refused, Buffer.alloc(20), Buffer.alloc(8))).toThrow(/refused the request/);
    const garbage = await answerTimestampRequest(Buffer.from('no soy una solicitud'), { now: () => clock.now, seal });
    expect(pkijs.TimeStampResp.fromBER(new Uint8Array(garbage)).status.status).toBe(pkijs.PKIStatus.rejection);
  });

  it('stops reading an authority that answers more than 64 KB or an error status', async () => {
    const server = createServer((req, res) => {
      req.resume();
      if (req.url === '/error') res.writeHead(503).end();
      else res.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end(Buffer.alloc(100 * 1024, 0x30));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      await expect(httpTimestampAuthority(`${base}/big`).stamp(digestOf('x'))).rejects.toThrow(/64 KB/);
      await expect(httpTimestampAuthority(`${base}/error`).stamp(digestOf('x'))).rejects.toThrow(/HTTP 503/);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
