// Picture uploads (profile and area pictures): one multipart field `file`, at most
// constants.uploads.profilePictureBytes, and the type is decided by the file's first bytes
// (PNG, JPEG, GIF, WebP), never by the name or the declared Content-Type. Anything else: 99932.
import type { FastifyRequest } from 'fastify';
import { readUpload } from './intake.ts';
import type { Kysely, Transaction } from 'kysely';
import { constants } from '../../generated/constants.gen.ts';
import type { Database } from '../../engine/database.ts';
import { fail } from '../errors/api-error.ts';
import { newFileId } from '../security/tokens.ts';

const startsWith = (bytes: Uint8Array, signature: number[], offset = 0) => signature.every((b, i) => bytes[offset + i] === b);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** The picture type by magic bytes, or null when the bytes are not an image we accept. */
export function sniffPictureType(bytes: Uint8Array): string | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  return null;
}

export async function readPictureUpload(request: FastifyRequest): Promise<{ bytes: Buffer; contentType: string }> {
  // The one intake (intake.ts): a picture past its limit is refused before it is read (99937).
  const { bytes } = await readUpload(request, constants.uploads.profilePictureBytes);
  const contentType = sniffPictureType(bytes);
  if (!contentType || !(constants.uploads.pictureTypes as readonly string[]).includes(contentType)) throw fail('99932');
  return { bytes, contentType };
}

/**
 * Stores the bytes under a new random id and, in the same transaction, lets `attach` point the
 * owner at it; `attach` answers the id it replaced, which is then deleted.
 */
export async function storePicture(
  db: Kysely<Database>,
  companyId: number,
  upload: { bytes: Buffer; contentType: string },
  attach: (trx: Transaction<Database>, fileId: string) => Promise<string | null>,
): Promise<string> {
  const id = newFileId();
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('files').values({ id, company_id: companyId, content_type: upload.contentType, size: upload.bytes.length, bytes: upload.bytes }).execute();
    const previous = await attach(trx, id);
    if (previous) await trx.deleteFrom('files').where('id', '=', previous).where('company_id', '=', companyId).execute();
  });
  return id;
}
