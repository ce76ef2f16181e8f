// The verification page's answer for a file: what the PDF proves by its own signature (signing/
// pdf-verification.ts), against the certificate it names, as issued and kept. Authentic only
// when the signature holds over every byte, the key that made it is the one that signed the
// issued document, and the file is that document; otherwise it says what is wrong and, for a
// file issued here and changed, which printed lines differ.
import type { Kysely } from 'kysely';
import type { Database } from '../../../engine/database.ts';
import type { CertificateFileCheck, CertificateFinding } from '../../../generated/enums.gen.ts';
import type { CertificateFileVerification } from '../../../generated/types.gen.ts';
import { certificateIdOf, changedLines, readSignature } from '../../signing/pdf-verification.ts';
import { subjectOf, type Statement } from './statements.ts';

const MAX_CHANGES = 10;

export async function verifyFile(db: Kysely<Database>, file: Buffer): Promise<CertificateFileVerification> {
  const reading = await readSignature(file);
  const id = certificateIdOf(file);
  const row = id ? await db.selectFrom('certificates').select(['id', 'statement', 'pdf']).where('id', '=', id).executeTakeFirst() : undefined;
  const issued = row?.pdf ? Buffer.from(row.pdf) : null;
  const statement = row ? (JSON.parse(row.statement) as Statement) : null;
  // The key that signed the document as issued: a rotated or operator key still proves its own certificates.
  const issuerKey = issued ? (await readSignature(issued)).signerKey : null;

  const findings: CertificateFinding[] = [];
  let check: CertificateFileCheck;
  if (!reading.signed) {
    check = 'unsigned';
    findings.push('noSignature');
  } else if (!row || !issued) {
    check = 'foreign';
    findings.push(id ? 'unknownCertificate' : 'noCertificateId');
  } else if (!reading.intact) {
    check = 'altered';
    findings.push('signatureBroken');
  } else if (reading.signerKey !== issuerKey) {
    check = 'foreign';
    findings.push('otherSigner');
  } else if (!reading.wholeFile) {
    check = 'altered';
    findings.push('addedAfterSigning');
  } else if (!file.equals(issued)) {
    check = 'altered';
    findings.push('differsFromIssued');
  } else {
    check = 'authentic';
  }
  if (reading.stamp) findings.push('stamped');
  const changes = issued && check !== 'authentic'
    ? changedLines(issued, file, MAX_CHANGES).map((c) => `${c.issued || '∅'} → ${c.file || '∅'}`)
    : [];
  return {
    check, findings, certificateId: id,
    company: statement?.company.name ?? null,
    subject: statement ? subjectOf(statement) : null,
    issuedAt: statement?.issuedAt ?? null,
    signer: reading.signerName,
    signedAt: reading.signedAt?.toISOString() ?? null,
    stampedAt: reading.stamp?.time.toISOString() ?? null,
    stampAuthority: reading.stamp?.authority ?? null,
    changes,
  };
}
