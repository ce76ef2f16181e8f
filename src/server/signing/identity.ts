// Who signs a certificate's PDF: an X.509 certificate and its private key (pkijs over WebCrypto).
// An operator plugs in its own, issued by an accredited certification entity (ONAC, Ley 527 de
// 1999): CERTIFICATE_SIGNING_KEY_FILE (PKCS#8 PEM, EC P-256 or RSA) and
// CERTIFICATE_SIGNING_CERT_FILE (PEM, the signer's certificate first, then its issuers). Without
// them the platform signs with its own: an ECDSA P-256 key derived from the master key (every
// process of a deployment derives the same one, nothing is stored) in a self-signed certificate
// that names the issuer's legal name and NIT. Readers then show the signature as intact but its
// signer as untrusted: the document's integrity is proven, the issuer's identity is not (docs/
// security.md says what a court needs).
import { createECDH, createHash, createPrivateKey, createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

export interface SigningIdentity {
  privateKey: CryptoKey;
  /** The signer's certificate, then its issuers (none for a self-signed one). */
  chain: pkijs.Certificate[];
  /** SHA-256 (hex) of the signer's SubjectPublicKeyInfo: what "signed by this platform" compares. */
  keyFingerprint: string;
}

export interface IssuerName { legalName: string; nit: string }

const OID = {
  commonName: '2.5.4.3', organization: '2.5.4.10', serialNumber: '2.5.4.5', country: '2.5.4.6',
  basicConstraints: '2.5.29.19', keyUsage: '2.5.29.15', extKeyUsage: '2.5.29.37', timeStamping: '1.3.6.1.5.5.7.3.8',
};

// The order n of P-256's base point: a derived private scalar must lie in [1, n - 1].
const P256_ORDER = BigInt('0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551');

/** An ECDSA P-256 key pair from 32 secret bytes (the same bytes, the same key, in every process). */
export async function p256KeyPair(seed: Buffer): Promise<{ privateKey: CryptoKey; publicKey: CryptoKey }> {
  const scalar = (BigInt(`0x${seed.toString('hex')}`) % (P256_ORDER - 1n)) + 1n;
  const d = Buffer.from(scalar.toString(16).padStart(64, '0'), 'hex');
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(d);
  const point = ecdh.getPublicKey();
  const pub = { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') };
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256' };
  return {
    privateKey: await globalThis.crypto.subtle.importKey('jwk', { ...pub, d: d.toString('base64url') }, algorithm, false, ['sign']),
    publicKey: await globalThis.crypto.subtle.importKey('jwk', pub, algorithm, true, ['verify']),
  };
}

function distinguishedName(name: IssuerName, commonName: string): pkijs.RelativeDistinguishedNames {
  const parts = [
    new pkijs.AttributeTypeAndValue({ type: OID.country, value: new asn1js.PrintableString({ value: 'CO' }) }),
    new pkijs.AttributeTypeAndValue({ type: OID.organization, value: new asn1js.Utf8String({ value: name.legalName }) }),
    new pkijs.AttributeTypeAndValue({ type: OID.serialNumber, value: new asn1js.PrintableString({ value: `NIT ${name.nit}`.replace(/[^A-Za-z0-9 '()+,\-./:=?]/g, '') }) }),
    new pkijs.AttributeTypeAndValue({ type: OID.commonName, value: new asn1js.Utf8String({ value: commonName }) }),
  ];
  // One attribute per RDN (C=…, O=…, CN=…), as certification entities write names; pkijs would
  // put a name built in place into a single multi-valued RDN.
  const sequence = new asn1js.Sequence({ value: parts.map((p) => new asn1js.Set({ value: [p.toSchema()] })) });
  return pkijs.RelativeDistinguishedNames.fromBER(new Uint8Array(sequence.toBER(false)));
}

export const spkiFingerprint = (certificate: pkijs.Certificate) =>
  createHash('sha256').update(new Uint8Array(certificate.subjectPublicKeyInfo.toSchema().toBER(false))).digest('hex');

/**
 * A self-signed certificate for a derived key: `documents` may sign documents (digital signature,
 * non-repudiation); `timestamps` is a time-stamping authority's (its extended key usage critical,
 * as RFC 3161 asks). Its serial is the key's fingerprint, its validity fixed, so every process
 * describes the same signer.
 */
export async function selfSignedIdentity(seed: Buffer, name: IssuerName, purpose: 'documents' | 'timestamps'): Promise<SigningIdentity> {
  const keys = await p256KeyPair(seed);
  const certificate = await selfSignedCertificate(keys, name, purpose);
  return { privateKey: keys.privateKey, chain: [certificate], keyFingerprint: spkiFingerprint(certificate) };
}

/** A self-signed certificate for a key pair (the platform's, or a test's). */
export async function selfSignedCertificate(keys: { privateKey: CryptoKey; publicKey: CryptoKey }, name: IssuerName, purpose: 'documents' | 'timestamps'): Promise<pkijs.Certificate> {
  const certificate = new pkijs.Certificate();
  certificate.version = 2;
  const commonName = purpose === 'documents' ? `${name.legalName} — certificados` : `${name.legalName} — sellado de tiempo (sandbox)`;
  certificate.subject = distinguishedName(name, commonName);
  certificate.issuer = distinguishedName(name, commonName);
  certificate.notBefore.value = new Date('2026-01-01T00:00:00Z');
  certificate.notAfter.value = new Date('2045-12-31T23:59:59Z');
  await certificate.subjectPublicKeyInfo.importKey(keys.publicKey);
  const serial = createHash('sha256').update(new Uint8Array(certificate.subjectPublicKeyInfo.toSchema().toBER(false))).digest().subarray(0, 16);
  serial[0] &= 0x7f;
  certificate.serialNumber = new asn1js.Integer({ valueHex: serial });
  // digitalSignature and nonRepudiation (contentCommitment): the first two bits.
  const usage = [0xc0, 6];
  certificate.extensions = [
    new pkijs.Extension({ extnID: OID.basicConstraints, critical: true, extnValue: new pkijs.BasicConstraints({ cA: false }).toSchema().toBER(false) }),
    new pkijs.Extension({ extnID: OID.keyUsage, critical: true, extnValue: new asn1js.BitString({ valueHex: new Uint8Array([usage[0]]).buffer, unusedBits: usage[1] }).toBER(false) }),
    ...(purpose === 'timestamps'
      ? [new pkijs.Extension({ extnID: OID.extKeyUsage, critical: true, extnValue: new pkijs.ExtKeyUsage({ keyPurposes: [OID.timeStamping] }).toSchema().toBER(false) })]
      : []),
  ];
  await certificate.sign(keys.privateKey, 'SHA-256');
  return certificate;
}

/** Certificates in a PEM text, in order. */
export function certificatesFromPem(pem: string): pkijs.Certificate[] {
  const blocks = [...pem.matchAll(/-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g)];
  return blocks.map((b) => pkijs.Certificate.fromBER(new Uint8Array(Buffer.from(b[1].replace(/\s+/g, ''), 'base64'))));
}

/** The operator's identity from its PEM files; the key must belong to the first certificate. */
export async function identityFromPem(keyPem: string, chainPem: string): Promise<SigningIdentity> {
  const chain = certificatesFromPem(chainPem);
  if (!chain.length) throw new Error('CERTIFICATE_SIGNING_CERT_FILE holds no certificate');
  const key = createPrivateKey(keyPem);
  const pkcs8 = key.export({ format: 'der', type: 'pkcs8' });
  const algorithm = key.asymmetricKeyType === 'ec'
    ? { name: 'ECDSA', namedCurve: ({ prime256v1: 'P-256', secp384r1: 'P-384', secp521r1: 'P-521' } as Record<string, string>)[key.asymmetricKeyDetails?.namedCurve ?? ''] ?? 'P-256' }
    : key.asymmetricKeyType === 'rsa' ? { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } : null;
  if (!algorithm) throw new Error('CERTIFICATE_SIGNING_KEY_FILE must hold an EC or RSA key');
  const privateKey = await globalThis.crypto.subtle.importKey('pkcs8', pkcs8, algorithm, false, ['sign']);
  // The key and the first certificate must be a pair: the public key derived from the private one.
  const keySpki = createHash('sha256').update(createPublicKey(key).export({ format: 'der', type: 'spki' })).digest('hex');
  if (keySpki !== spkiFingerprint(chain[0])) throw new Error('CERTIFICATE_SIGNING_KEY_FILE is not the key of the first certificate in CERTIFICATE_SIGNING_CERT_FILE');
  return { privateKey, chain, keyFingerprint: spkiFingerprint(chain[0]) };
}

/** The operator's identity when its files are set, else null (the platform's own is used). */
export async function identityFromEnv(env: NodeJS.ProcessEnv = process.env): Promise<SigningIdentity | null> {
  const keyFile = env.CERTIFICATE_SIGNING_KEY_FILE;
  const certFile = env.CERTIFICATE_SIGNING_CERT_FILE;
  if (!keyFile && !certFile) return null;
  if (!keyFile || !certFile) throw new Error('set both CERTIFICATE_SIGNING_KEY_FILE and CERTIFICATE_SIGNING_CERT_FILE, or neither');
  return identityFromPem(readFileSync(keyFile, 'utf8'), readFileSync(certFile, 'utf8'));
}
