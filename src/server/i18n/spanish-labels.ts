// The Spanish words the server writes into files people open (report CSVs, workbooks): an enum
// value's label and a field's title, read from the console's own catalogues (locales/es), so a
// file and the screen say the same thing. Unknown keys fall back to the value as written. A
// document's own lines (locales/*/documents.json) are written in Spanish, the product's language.
import esEnums from '../../../locales/es/enums.json' with { type: 'json' };
import esDocuments from '../../../locales/es/documents.json' with { type: 'json' };
import esFields from '../../../locales/es/fields.json' with { type: 'json' };

export const spanishEnumLabel = (enumId: string, value: string | number): string => (esEnums as Record<string, string>)[`${enumId}.${value}`] ?? String(value);

export const spanishFieldTitle = (field: string): string => (esFields as Record<string, string>)[field] ?? field;

/** A line of a document the server writes (a certificate's PDF), its {{name}} slots filled. */
export const spanishDocumentText = (key: string, vars: Record<string, string | number> = {}): string =>
  ((esDocuments as Record<string, string>)[key] ?? key).replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars[name] ?? ''));
