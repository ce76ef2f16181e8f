// A conversation note or flow incident in the reader's language: its kind (the flow-note
// vocabulary) and values, worded by locales/<language>/documents.json (flowNote.<kind>). A row
// written before notes had kinds, or a kind this build does not know, keeps its stored line.
import { flowNotes, type FlowNote } from '../../../generated/enums.gen.ts';
import type { DocumentKey, Words } from '../../i18n/document-words.ts';

const KINDS: ReadonlySet<string> = new Set(flowNotes);

export function noteWords(words: Words, note: unknown, stored: string): string {
  if (!note || typeof note !== 'object') return stored;
  const { kind, params } = note as { kind?: unknown; params?: unknown };
  if (typeof kind !== 'string' || !KINDS.has(kind)) return stored;
  const values = params && typeof params === 'object' ? (params as Record<string, string | number>) : {};
  return words.text(`flowNote.${kind as FlowNote}` as DocumentKey, values);
}
