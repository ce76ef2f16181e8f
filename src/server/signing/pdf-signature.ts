// A PDF signature over the whole printed document (ISO 32000-1 12.8): a signature field whose
// /Contents holds a detached CMS signature over every byte of the file but that hex string
// (/ByteRange), time-stamped by an RFC 3161 authority (the token rides as the signer's unsigned
// attribute, as PAdES B-T does). Acrobat, pdfsig and any PDF reader check it; @signpdf/signpdf
// computes the byte range and places the signature, cms.ts makes it. The placeholder objects are
// those @signpdf/placeholder-pdfkit adds (its pdfkit peer range stops at 0.11; ours is 0.20).
import { SignPdf } from '@signpdf/signpdf';
import { DEFAULT_BYTE_RANGE_PLACEHOLDER, SIG_FLAGS, Signer, SUBFILTER_ADOBE_PKCS7_DETACHED } from '@signpdf/utils';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { Doc } from '../files/pdf-text.ts';
import { CMS_OID, contentInfoDer, sha256, signatureValue, signedData } from './cms.ts';
import type { SigningIdentity } from './identity.ts';
import type { TimestampAuthority } from './timestamp.ts';

/** Room for the CMS: a chain of three RSA-4096 certificates and a token with its authority's chain. */
const SIGNATURE_BYTES = 24 * 1024;

export interface PlaceholderFacts { reason: string; name: string; location: string; contactInfo: string; signingTime: Date }

/** Adds the signature field (invisible) to the current page; call before `doc.end()`. */
export function addSignaturePlaceholder(doc: Doc, facts: PlaceholderFacts): void {
  // pdfkit's internals (ref, _root, page.dictionary) are what @signpdf/placeholder-pdfkit uses too.
  const pdf = doc as unknown as {
    ref(data: object): { end(): void };
    initForm(): void;
    _acroform?: unknown;
    _root: { data: { AcroForm: { data: { Fields: unknown[]; DR?: unknown } } } };
    page: { dictionary: unknown; annotations: unknown[] };
  };
  const signature = pdf.ref({
    Type: 'Sig', Filter: 'Adobe.PPKLite', SubFilter: SUBFILTER_ADOBE_PKCS7_DETACHED,
    ByteRange: [0, DEFAULT_BYTE_RANGE_PLACEHOLDER, DEFAULT_BYTE_RANGE_PLACEHOLDER, DEFAULT_BYTE_RANGE_PLACEHOLDER],
    Contents: Buffer.alloc(SIGNATURE_BYTES),
    Reason: new String(facts.reason), M: facts.signingTime, ContactInfo: new String(facts.contactInfo),
    Name: new String(facts.name), Location: new String(facts.location),
    Prop_Build: { Filter: { Name: 'Adobe.PPKLite' } },
  });
  if (!pdf._acroform) pdf.initForm();
  const form = pdf._root.data.AcroForm;
  form.data = { ...form.data, SigFlags: SIG_FLAGS.SIGNATURES_EXIST | SIG_FLAGS.APPEND_ONLY } as typeof form.data;
  const widget = pdf.ref({ Type: 'Annot', Subtype: 'Widget', FT: 'Sig', Rect: [0, 0, 0, 0], V: signature, T: new String('Firma'), F: 132, P: pdf.page.dictionary });
  pdf.page.annotations.push(widget);
  form.data.Fields.push(widget);
  signature.end();
  widget.end();
}

class CmsSigner extends Signer {
  constructor(private readonly identity: SigningIdentity, private readonly tsa: TimestampAuthority | null) { super(); }

  override async sign(content: Buffer, signingTime?: Date): Promise<Buffer> {
    const data = await signedData({ identity: this.identity, contentType: CMS_OID.data, digest: sha256(content), signingTime });
    if (this.tsa) {
      const token = await this.tsa.stamp(sha256(signatureValue(data)));
      data.signerInfos[0].unsignedAttrs = new pkijs.SignedAndUnsignedAttributes({
        type: 1, attributes: [new pkijs.Attribute({ type: CMS_OID.timeStampToken, values: [asn1js.fromBER(new Uint8Array(token)).result] })],
      });
    }
    return contentInfoDer(data);
  }
}

/** Signs a PDF that carries a placeholder (addSignaturePlaceholder): the file as it will be kept. */
export function signPdf(bytes: Buffer, identity: SigningIdentity, tsa: TimestampAuthority | null, signingTime: Date): Promise<Buffer> {
  return new SignPdf().sign(bytes, new CmsSigner(identity, tsa), signingTime);
}
