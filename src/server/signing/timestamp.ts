// RFC 3161 time-stamps: a certificate's signature is stamped by a time-stamping authority, so the
// moment it was signed is proven by a third party, not by our own clock. The operator names its
// authority (CERTIFICATE_TSA_URL: an accredited one in Colombia, or any RFC 3161 service); the
// sandbox has a stand-in (src/sandbox/tsa). What an authority answers is an outside input: the
// answer is bounded in size and time, must be granted, must stamp exactly our digest with our
// nonce, and its token's signature must hold, before it goes into a document.
import { randomBytes } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { CMS_OID, contentInfoDer, parseSignedData, sha256, signedData, verifySigner } from './cms.ts';
import type { SigningIdentity } from './identity.ts';

export interface TimestampAuthority {
  /** Where the stamps come from, for the document and the logs (never a secret). */
  name: string;
  /** A time-stamp token (DER ContentInfo) over a SHA-256 digest. */
  stamp(digest: Buffer): Promise<Buffer>;
}

export interface StampFacts { time: Date; serial: string; authority: string; policy: string }

const MAX_RESPONSE_BYTES = 64 * 1024;
const TIMEOUT_MS = 10_000;

/** A request for a stamp over `digest`, with a fresh nonce the answer must repeat. */
export function timestampRequest(digest: Buffer): { der: Buffer; nonce: Buffer } {
  const nonce = randomBytes(8);
  nonce[0] &= 0x7f; // a positive INTEGER
  const request = new pkijs.TimeStampReq({
    version: 1,
    messageImprint: new pkijs.MessageImprint({ hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: CMS_OID.sha256 }), hashedMessage: new asn1js.OctetString({ valueHex: digest }) }),
    nonce: new asn1js.Integer({ valueHex: nonce }),
    certReq: true,
  });
  return { der: Buffer.from(request.toSchema().toBER(false)), nonce };
}

/** What a token stamps, once its signature is proven; throws when it is not a sound token. */
export function stampFacts(token: Uint8Array): StampFacts & { imprint: Buffer; nonce: Buffer | null } {
  const data = parseSignedData(token);
  if (data.encapContentInfo.eContentType !== CMS_OID.tstInfo || !data.encapContentInfo.eContent) throw new Error('the token holds no TSTInfo');
  const content = Buffer.from(data.encapContentInfo.eContent.getValue());
  const signer = verifySigner(data, sha256(content));
  if (!signer) throw new Error("the token's signature does not hold");
  const info = pkijs.TSTInfo.fromBER(new Uint8Array(content));
  if (info.messageImprint.hashAlgorithm.algorithmId !== CMS_OID.sha256) throw new Error('the token stamps another hash algorithm');
  return {
    time: info.genTime,
    serial: Buffer.from(info.serialNumber.valueBlock.valueHexView).toString('hex'),
    authority: signer.subject.typesAndValues.find((t) => t.type === '2.5.4.3')?.value.valueBlock.value ?? '',
    policy: info.policy,
    imprint: Buffer.from(info.messageImprint.hashedMessage.valueBlock.valueHexView),
    nonce: info.nonce ? Buffer.from(info.nonce.valueBlock.valueHexView) : null,
  };
}

/** The token in an authority's answer to our request; throws with the reason when it is refused or unsound. */
export function tokenFromResponse(answer: Uint8Array, digest: Buffer, nonce: Buffer): Buffer {
  const response = pkijs.TimeStampResp.fromBER(new Uint8Array(answer));
  const status = response.status.status;
  if ((status !== pkijs.PKIStatus.granted && status !== pkijs.PKIStatus.grantedWithMods) || !response.timeStampToken) {
    throw new Error(`the time-stamping authority refused the request (status ${status})`);
  }
  const token = Buffer.from(response.timeStampToken.toSchema().toBER(false));
  const facts = stampFacts(token);
  if (!facts.imprint.equals(digest)) throw new Error('the time-stamp stamps another digest');
  if (!facts.nonce || !facts.nonce.equals(nonce)) throw new Error("the time-stamp does not repeat the request's nonce");
  return token;
}

/** An RFC 3161 authority over HTTP (application/timestamp-query). */
export function httpTimestampAuthority(url: string, options: { timeoutMs?: number; fetch?: typeof fetch } = {}): TimestampAuthority {
  const doFetch = options.fetch ?? fetch;
  return {
    name: new URL(url).host,
    async stamp(digest) {
      const { der, nonce } = timestampRequest(digest);
      const answer = await doFetch(url, {
        method: 'POST', body: new Uint8Array(der), redirect: 'error',
        headers: { 'content-type': 'application/timestamp-query', accept: 'application/timestamp-reply' },
        signal: AbortSignal.timeout(options.timeoutMs ?? TIMEOUT_MS),
      });
      if (!answer.ok || !answer.body) throw new Error(`the time-stamping authority answered HTTP ${answer.status}`);
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of answer.body) {
        size += chunk.byteLength;
        if (size > MAX_RESPONSE_BYTES) throw new Error('the time-stamping authority answered more than 64 KB');
        chunks.push(Buffer.from(chunk));
      }
      return tokenFromResponse(Buffer.concat(chunks), digest, nonce);
    },
  };
}

/**
 * Seals a TSTInfo as a time-stamp token with `identity` (the sandbox authority's key, given to the
 * stand-in by the composition root: the stand-in speaks the protocol, the server holds keys).
 */
export function tokenSealer(identity: SigningIdentity) {
  return async (tstInfo: Buffer, at: Date): Promise<Buffer> =>
    contentInfoDer(await signedData({ identity, contentType: CMS_OID.tstInfo, digest: sha256(tstInfo), attached: tstInfo, signingTime: at }));
}
