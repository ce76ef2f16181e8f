// The words the server writes into what people open outside the console — report files (CSV,
// workbooks), scheduled reports' e-mails, PDFs, the short-link pages, error answers' messages — read from the console's own
// catalogues (locales/<language>), so a file and the screen say the same thing, in the language of
// whoever asked for it. A key missing in a language falls back to the default language (Spanish),
// then to the key or value as written.
import { appSettings } from '../../generated/app.gen.ts';
import type { I18nKey } from '../../generated/i18n-keys.gen.ts';
import esEnums from '../../../locales/es/enums.json' with { type: 'json' };
import enEnums from '../../../locales/en/enums.json' with { type: 'json' };
import esDocuments from '../../../locales/es/documents.json' with { type: 'json' };
import enDocuments from '../../../locales/en/documents.json' with { type: 'json' };
import esFields from '../../../locales/es/fields.json' with { type: 'json' };
import enFields from '../../../locales/en/fields.json' with { type: 'json' };
import esScreens from '../../../locales/es/screens.json' with { type: 'json' };
import enScreens from '../../../locales/en/screens.json' with { type: 'json' };
import esErrors from '../../../locales/es/errors.json' with { type: 'json' };
import enErrors from '../../../locales/en/errors.json' with { type: 'json' };
import { serverErrors } from '../../generated/errors.gen.ts';
import { fillTextLimits } from '../../core/text-limits.ts';

/** A line of locales/<language>/documents.json: a key it does not have is a type error. */
export type DocumentKey = I18nKey extends infer K ? (K extends `documents.${infer D}` ? D : never) : never;

export type DocumentLanguage = (typeof appSettings.i18n.languages)[number];
export const LANGUAGES = appSettings.i18n.languages as readonly DocumentLanguage[];
export const DEFAULT_LANGUAGE = appSettings.i18n.default as DocumentLanguage;

type Catalogue = Record<string, string>;
const catalogues: Record<DocumentLanguage, { enums: Catalogue; documents: Catalogue; fields: Catalogue; screens: Catalogue; errors: Catalogue }> = {
  es: { enums: esEnums, documents: esDocuments, fields: esFields, screens: esScreens, errors: esErrors },
  en: { enums: enEnums, documents: enDocuments, fields: enFields, screens: enScreens, errors: enErrors },
};

export const isLanguage = (v: unknown): v is DocumentLanguage => typeof v === 'string' && (LANGUAGES as readonly string[]).includes(v);

/** A stored language (a row's column), the default when it is not one we have. */
export const storedLanguage = (v: unknown): DocumentLanguage => (isLanguage(v) ? v : DEFAULT_LANGUAGE);

/**
 * The language an HTTP request asks for: the first tag of Accept-Language (by weight) whose
 * language we have ("en-US" → en); the default when none is (the console sends its own language).
 */
export function requestLanguage(request: { headers: { 'accept-language'?: string | string[] } }): DocumentLanguage {
  const acceptLanguage = request.headers['accept-language'];
  const header = Array.isArray(acceptLanguage) ? acceptLanguage.join(',') : (acceptLanguage ?? '');
  const tags = header.split(',').map((part, i) => {
    const [tag, ...params] = part.trim().split(';');
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    return { language: tag.trim().toLowerCase().split('-')[0], q: q === undefined ? 1 : Number(q), i };
  });
  const wanted = tags.filter((t) => t.q > 0).sort((a, b) => b.q - a.q || a.i - b.i).find((t) => isLanguage(t.language));
  return wanted ? (wanted.language as DocumentLanguage) : DEFAULT_LANGUAGE;
}

export interface Words {
  language: DocumentLanguage;
  /** An enum value's label ("message-state", "delivered" → "Entregado"). */
  enumLabel(enumId: string, value: string | number): string;
  /** A field's title (locales/<language>/fields.json). */
  fieldTitle(field: string): string;
  /** A screen's text (locales/<language>/screens.json). */
  screenText(key: string): string;
  /** A line of a document (locales/<language>/documents.json), its {{name}} slots filled. */
  text(key: DocumentKey, vars?: Record<string, string | number>): string;
  /** A catalogue code's words (config/errors.yaml → locales/<language>/errors.json), or null for a code it does not have. */
  errorText(code: string): string | null;
}

const lookup = (language: DocumentLanguage, part: keyof (typeof catalogues)['es'], key: string): string | undefined =>
  catalogues[language][part][key] ?? catalogues[DEFAULT_LANGUAGE][part][key];

const made = new Map<DocumentLanguage, Words>();

export function wordsFor(language: DocumentLanguage = DEFAULT_LANGUAGE): Words {
  let words = made.get(language);
  if (!words) {
    words = {
      language,
      enumLabel: (enumId, value) => lookup(language, 'enums', `${enumId}.${value}`) ?? String(value),
      fieldTitle: (field) => lookup(language, 'fields', field) ?? field,
      screenText: (key) => lookup(language, 'screens', key) ?? key,
      text: (key, vars = {}) => (lookup(language, 'documents', key) ?? key).replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars[name] ?? '')),
      errorText: (code) => {
        const key = (serverErrors as Record<string, { key: string } | undefined>)[code]?.key;
        // The limits it names filled ("at most 10 parts"), as the console fills them.
        return key ? fillTextLimits(lookup(language, 'errors', key.replace(/^errors\./, '')) ?? key, (n) => n.toLocaleString(language === 'es' ? 'es-CO' : 'en-US')) : null;
      },
    };
    made.set(language, words);
  }
  return words;
}
