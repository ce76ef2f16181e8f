// File and image fields (`x-widget: file | image`, `x-upload: { operation, accept, maxBytes,
// value, params }`): the accepted extensions and the size limit come from config/constants.yaml
// (uploads.*) by name, or are written in place. A file is refused before any byte is sent when its
// type, size or name breaks the rules of spec 5, with the catalogue's text (99932).
import { constants } from '../../../generated/constants.gen.ts';
import { serverErrors } from '../../../generated/errors.gen.ts';

export interface UploadSpec {
  operation?: string;
  /** A constants.uploads key (attachmentExtensions, campaignFileExtensions, pictureTypes) or a list. */
  accept?: string | readonly string[];
  /** A constants.uploads key (attachmentBytes, campaignFileBytes, profilePictureBytes) or a number. */
  maxBytes?: string | number;
  /** The answer field that becomes the form value (default url, then id). */
  value?: string;
  params?: Record<string, unknown>;
  /** The answer's list of refused rows ({ position, value, reason }), shown under the field. */
  rejected?: { field: string; total?: string; enum?: string };
}

export interface Rejection { position: number; value: string; reason: string }

/** The refused rows an upload answered, and how many there were in all (the list may be capped). */
export function rejectionsOf(answer: unknown, spec: UploadSpec): { rows: Rejection[]; total: number } | null {
  if (!spec.rejected) return null;
  const a = (answer ?? {}) as Record<string, unknown>;
  const rows = Array.isArray(a[spec.rejected.field]) ? (a[spec.rejected.field] as Rejection[]) : [];
  const total = spec.rejected.total && typeof a[spec.rejected.total] === 'number' ? (a[spec.rejected.total] as number) : rows.length;
  return { rows, total };
}

const uploads = constants.uploads as unknown as Record<string, unknown>;

export function uploadSpec(schema: Record<string, unknown>, image: boolean): UploadSpec {
  const own = (schema['x-upload'] as UploadSpec | undefined) ?? {};
  return image ? { accept: 'pictureTypes', maxBytes: 'profilePictureBytes', ...own } : { accept: 'attachmentExtensions', maxBytes: 'attachmentBytes', ...own };
}

/** Extensions (csv, pdf) or MIME types (image/png) a field accepts. */
export function acceptList(spec: UploadSpec): string[] {
  const a = spec.accept;
  const list = typeof a === 'string' ? uploads[a] : a;
  return Array.isArray(list) ? list.map((x) => String(x).toLowerCase()) : [];
}

export function maxBytes(spec: UploadSpec): number {
  const m = spec.maxBytes;
  const n = typeof m === 'string' ? uploads[m] : m;
  return typeof n === 'number' ? n : Number(constants.uploads.attachmentBytes);
}

/** The <input accept> attribute: ".csv,.xlsx" or "image/png,image/jpeg". */
export const acceptAttribute = (spec: UploadSpec) => acceptList(spec).map((x) => (x.includes('/') ? x : `.${x}`)).join(',');

/** Letters (with accents), digits, spaces, dots, dashes, underscores and parentheses. */
const SAFE_NAME = /^[\p{L}\p{N} ._()-]+$/u;

export type FileProblem = { reason: 'type' | 'size' | 'name'; types: string; mb: number };

/** The rules as the user reads them: "csv, xls, xlsx" and the limit in MB. */
export function uploadRules(spec: UploadSpec): { types: string; mb: number } {
  // Shown as people name file types (CSV, XLSX, PNG), never as the lowercase codes the rules use.
  return { types: acceptList(spec).map((x) => x.replace(/^image\//, '').toUpperCase()).join(', '), mb: Math.round((maxBytes(spec) / 1048576) * 10) / 10 };
}

export function fileProblem(file: { name: string; size: number; type: string }, spec: UploadSpec): FileProblem | null {
  const accepted = acceptList(spec);
  const limit = maxBytes(spec);
  const info = uploadRules(spec);
  const ext = file.name.includes('.') ? file.name.split('.').pop()!.toLowerCase() : '';
  const typeOk = accepted.length === 0 || accepted.some((a) => (a.includes('/') ? a === file.type.toLowerCase() : a === ext));
  if (!typeOk) return { reason: 'type', ...info };
  if (file.size > limit) return { reason: 'size', ...info };
  if (!SAFE_NAME.test(file.name)) return { reason: 'name', ...info };
  return null;
}

/** The catalogue key every refusal starts with. */
export const INVALID_FILE_KEY = serverErrors['99932'].key;

/** The form value taken from an upload answer. */
export function uploadedValue(answer: unknown, spec: UploadSpec, fallback: string): unknown {
  const a = (answer ?? {}) as Record<string, unknown>;
  if (spec.value) return a[spec.value] ?? fallback;
  return a.url ?? a.id ?? fallback;
}

/**
 * Uploads that wait for the form's Save: an image or file field the operation's body does not take
 * (an area's picture, the company's logo) is sent through its own `x-upload` operation after the
 * record is saved, with `$record` naming the saved record (`params: { id: $record.id }`). The
 * widget keeps the chosen file here; the form screen sends it.
 */
export interface DeferredUploads {
  fields: ReadonlySet<string>;
  files: Map<string, File>;
}

/** The deferred uploads of a form's context, if the form defers this field. */
export function deferredFor(context: unknown, field: string): DeferredUploads | null {
  const d = (context as { deferredUploads?: DeferredUploads } | undefined)?.deferredUploads;
  return d && d.fields.has(field) ? d : null;
}

/** Fields with an upload operation that the body does not take (none when the body takes anything). */
export function deferredFields(properties: Record<string, Record<string, unknown>>, body: readonly string[] | undefined): string[] {
  if (!body) return [];
  return Object.entries(properties).filter(([k, p]) => !body.includes(k) && typeof (p['x-upload'] as UploadSpec | undefined)?.operation === 'string').map(([k]) => k);
}
