// CMS SignedData (RFC 5652) as PDF signatures and RFC 3161 time-stamp tokens carry it: signed
// attributes (content type, message digest, signing time, the signer's certificate hash as ESS
// signing-certificate-v2, RFC 5035) signed with the identity's key (pkijs over WebCrypto).
import { createHash, createPublicKey, verify as cryptoVerify } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { SigningIdentity } from './identity.ts';

export const CMS_OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  timeStampToken: '1.2.840.113549.1.9.16.2.14',
  sha256: '2.16.840.1.101.3.4.2.1',
};

export const sha256 = (bytes: Uint8Array | Buffer) => createHash('sha256').update(bytes).digest();

const der = (schema: { toBER(sizeOnly?: boolean): ArrayBuffer }) => Buffer.from(schema.toBER(false));

/** ESS signing-certificate-v2: the SHA-256 of the signer's certificate (the default hash is omitted). */
function signingCertificateV2(certificate: pkijs.Certificate): pkijs.Attribute {
  const certHash = sha256(der(certificate.toSchema()));
  const essCertIdV2 = new asn1js.Sequence({ value: [new asn1js.OctetString({ valueHex: certHash })] });
  return new pkijs.Attribute({ type: CMS_OID.signingCertificateV2, values: [new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [essCertIdV2] })] })] });
}

export interface SignOptions {
  identity: SigningIdentity;
  /** The content's type (id-data for a PDF's byte range, id-ct-TSTInfo for a time-stamp token). */
  contentType: string;
  /** The digest of what is signed (the content itself travels elsewhere, or in `attached`). */
  digest: Buffer;
  /** Encapsulated content (a token carries its TSTInfo); omitted for a detached signature. */
  attached?: Buffer;
  signingTime?: Date;
}

/** A SignedData over one content: the signer's attributes signed, its certificates included. */
export async function signedData(o: SignOptions): Promise<pkijs.SignedData> {
  const signer = o.identity.chain[0];
  const attributes = [
    new pkijs.Attribute({ type: CMS_OID.contentType, values: [new asn1js.ObjectIdentifier({ value: o.contentType })] }),
    ...(o.signingTime ? [new pkijs.Attribute({ type: CMS_OID.signingTime, values: [new asn1js.UTCTime({ valueDate: o.signingTime })] })] : []),
    new pkijs.Attribute({ type: CMS_OID.messageDigest, values: [new asn1js.OctetString({ valueHex: o.digest })] }),
    signingCertificateV2(signer),
  ];
  const data = new pkijs.SignedData({
    version: 1,
    encapContentInfo: new pkijs.EncapsulatedContentInfo({
      eContentType: o.contentType,
      ...(o.attached ? { eContent: new asn1js.OctetString({ valueHex: o.attached }) } : {}),
    }),
    signerInfos: [new pkijs.SignerInfo({
      version: 1,
      sid: new pkijs.IssuerAndSerialNumber({ issuer: signer.issuer, serialNumber: signer.serialNumber }),
      signedAttrs: new pkijs.SignedAndUnsignedAttributes({ type: 0, attributes }),
    })],
    certificates: o.identity.chain,
  });
  await data.sign(o.identity.privateKey, 0, 'SHA-256');
  return data;
}

/** The DER ContentInfo wrapping a SignedData. */
export const contentInfoDer = (data: pkijs.SignedData) => der(new pkijs.ContentInfo({ contentType: CMS_OID.signedData, content: data.toSchema(true) }).toSchema());

/** The SignedData inside a DER ContentInfo; throws on anything else. */
export function parseSignedData(bytes: Uint8Array): pkijs.SignedData {
  const info = pkijs.ContentInfo.fromBER(new Uint8Array(bytes));
  if (info.contentType !== CMS_OID.signedData) throw new Error('not a CMS SignedData');
  return new pkijs.SignedData({ schema: info.content });
}

/** A signed attribute's first value, or undefined. */
export function signedAttribute(data: pkijs.SignedData, type: string): asn1js.AsnType | undefined {
  return data.signerInfos[0]?.signedAttrs?.attributes.find((a) => a.type === type)?.values[0] as asn1js.AsnType | undefined;
}

/** The signer's signature value: what a signature time-stamp covers (RFC 3161 appendix A). */
export const signatureValue = (data: pkijs.SignedData) => Buffer.from(data.signerInfos[0].signature.valueBlock.valueHexView);

/** The certificate among the SignedData's whose issuer and serial the first signer names. */
function signerCertificate(data: pkijs.SignedData): pkijs.Certificate | null {
  const sid = data.signerInfos[0]?.sid;
  if (!(sid instanceof pkijs.IssuerAndSerialNumber)) return null;
  const certificates = (data.certificates ?? []).filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate);
  return certificates.find((c) => c.serialNumber.isEqual(sid.serialNumber) && c.issuer.isEqual(sid.issuer)) ?? null;
}

/**
 * Whether the first signer's signature holds for `digest`: its messageDigest attribute equals it
 * and the key of the certificate it names signed its attributes (checked with node:crypto, for
 * ECDSA and RSA). Answers that certificate, or null when the signature does not hold.
 */
export function verifySigner(data: pkijs.SignedData, digest: Buffer): pkijs.Certificate | null {
  const info = data.signerInfos[0];
  const md = signedAttribute(data, CMS_OID.messageDigest);
  if (!info?.signedAttrs || !(md instanceof asn1js.OctetString) || !Buffer.from(md.valueBlock.valueHexView).equals(digest)) return null;
  const certificate = signerCertificate(data);
  if (!certificate) return null;
  // The signature covers the attributes' DER as a SET (tag 0x31), not as the [0] they travel in.
  const signed = Buffer.from(info.signedAttrs.encodedValue.byteLength ? info.signedAttrs.encodedValue : info.signedAttrs.toSchema().toBER(false));
  signed[0] = 0x31;
  try {
    const key = createPublicKey({ key: der(certificate.subjectPublicKeyInfo.toSchema()), format: 'der', type: 'spki' });
    const ok = cryptoVerify('sha256', signed, key.asymmetricKeyType === 'ec' ? { key, dsaEncoding: 'der' } : key, signatureValue(data));
    return ok ? certificate : null;
  } catch {
    return null;
  }
}
