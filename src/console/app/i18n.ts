// i18next with the locale files of locales/<lang>/<namespace>.json (flat maps). Keys are written
// "<namespace>.<key>" everywhere ("menu.campaigns.deploy"): nsSeparator "." takes the namespace
// from the first segment and the rest is the flat key. Spanish is the default; the choice is
// saved (spec 1).
//
// keySeparator is "." and not `false`: i18next 27 rebuilds the key after taking the namespace with
// `parts.join(keySeparator)`, which with `false` turns "screens.signin.title" into the key
// "signinfalsetitle". With "." the rebuilt key is right, and the lookup of a flat key that holds
// dots ("campaigns.deploy" beside "campaigns") is done by i18next's deepFind, which tries the
// longest flat key first. The locale tests pin this behaviour.
import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { appSettings } from '../../generated/app.gen.ts';
import { firstLoadStrings } from '../../generated/first-load.gen.ts';
import { formatInteger, setNumberLanguage } from '../runtime/format.ts';
import { readItem, storageKeys, writeItem } from '../api/storage.ts';
import { textLimits } from '../../core/text-limits.ts';

export type Language = (typeof appSettings.i18n.languages)[number];
export const languages = appSettings.i18n.languages as readonly Language[];
export const defaultLanguage = appSettings.i18n.default as Language;

// Spanish, the default and every other language's fallback, is always needed and comes with the
// app; another language's files load when it is chosen (the sign-in page does not carry them:
// the first load stays small). The glob patterns are literal, so the default is named here and checked below.
// documents.json holds what the server writes into documents (a certificate's PDF): the console
// never shows it, so it is not shipped.
type Bundle = Record<string, string>;
// A feature's own namespace (flowEditor.json: the flow editor's palette, panel and preview) is not
// bundled either: the feature loads it with its chunk (features/strings.ts; payments.json likewise), so the
// first load does not carry it; another language's copy comes with that language's files.
// The namespaces the sign-in page barely uses are deferred too (first load): the enum
// labels (the largest), the screens' and fields' strings and the menu. The first-load screens' own
// strings come instead in firstLoadStrings (generated from their declarations); the rest loads with
// the first route that is not the sign-in and with the session layouts (both wait for stringsReady).
// Vite needs literal patterns, so the deferred set is written in both globs below (keep them alike).
const bundledFiles = import.meta.glob<Bundle>(['../../../locales/es/*.json', '!../../../locales/*/documents.json', '!../../../locales/*/flowEditor.json', '!../../../locales/*/payments.json', '!../../../locales/es/{enums,screens,fields,menu}.json'], { eager: true, import: 'default' });
const deferredFiles = import.meta.glob<Bundle>(['../../../locales/es/{enums,screens,fields,menu}.json'], { import: 'default' });
let deferred: Promise<void> | null = null;
const lazyFiles = import.meta.glob<Bundle>(['../../../locales/*/*.json', '!../../../locales/es/*.json', '!../../../locales/*/documents.json'], { import: 'default' });
if (defaultLanguage !== 'es') throw new Error(`i18n: the bundled locale is es, the default is ${defaultLanguage}`);

const fileParts = (path: string) => /locales\/([^/]+)\/([^/]+)\.json$/.exec(path);

/** The locale files at hand now, by language and namespace (the default language's). */
export function localeResources(): Record<string, Record<string, Bundle>> {
  const resources: Record<string, Record<string, Bundle>> = {};
  for (const [path, data] of Object.entries(bundledFiles)) {
    const m = fileParts(path);
    if (m) (resources[m[1]] ??= {})[m[2]] = data;
  }
  const own = (resources[defaultLanguage] ??= {});
  for (const [ns, data] of Object.entries(firstLoadStrings)) own[ns] = { ...data, ...own[ns] };
  return resources;
}

/** Loads a language's files into an instance (once; the default language is always there). */
export async function loadLanguage(lng: string, instance: I18n = i18n): Promise<void> {
  await loadDeferred(instance);
  if (lng === defaultLanguage || instance.hasResourceBundle(lng, 'common')) return;
  const loads = Object.entries(lazyFiles).filter(([path]) => fileParts(path)?.[1] === lng);
  const bundles = await Promise.all(loads.map(async ([path, load]) => [fileParts(path)![2], await load()] as const));
  // `common` last: it marks the language as loaded.
  for (const [ns, data] of bundles.sort(([a], [b]) => Number(a === 'common') - Number(b === 'common'))) instance.addResourceBundle(lng, ns, data, true, true);
}

/** The default language's deferred namespaces (once per instance; the app's instance keeps its promise). */
async function loadDeferred(instance: I18n): Promise<void> {
  const load = async () => {
    // Added whole over the first-load strings a namespace may already hold (deep, overwriting).
    const files = await Promise.all(Object.entries(deferredFiles).map(async ([path, file]) => [fileParts(path)![2], await file()] as const));
    for (const [ns, data] of files) instance.addResourceBundle(defaultLanguage, ns, data, true, true);
  };
  if (instance !== i18n) return load();
  deferred ??= load();
  return deferred;
}

/**
 * The browser suite asks, through this sessionStorage flag, that every key the console looks up
 * and does not find be recorded in `window.__i18nMissing` (a screen that shows a key
 * fails its test). Nothing sets the flag in the product, so the handler stays off there.
 */
export const MISSING_KEYS_FLAG = 'i18nReportMissing';

declare global {
  interface Window { __i18nMissing?: string[] }
}

function missingKeyReporter(): ((lngs: readonly string[], ns: string, key: string) => void) | null {
  try {
    if (typeof window === 'undefined' || window.sessionStorage.getItem(MISSING_KEYS_FLAG) !== '1') return null;
  } catch {
    return null;
  }
  return (_lngs, ns, key) => void (window.__i18nMissing ??= []).push(`${ns}.${key}`);
}

/** A lookup key ("accountSids-1", "title", "campaigns.deploy"), not text ("Campo 1", "Nombre"). */
export const looksLikeKey = (s: string) => /^[a-z][\w-]*(\.[\w-]+)*$/.test(s) || /^[A-Za-z][\w-]*\.[\w.-]+$/.test(s);

const isLanguage = (v: string | null): v is Language => !!v && (languages as readonly string[]).includes(v);

export function savedLanguage(): Language {
  const saved = readItem(storageKeys.language);
  return isLanguage(saved) ? saved : defaultLanguage;
}

export function createI18n(lng: Language = savedLanguage()): I18n {
  const instance = i18next.createInstance();
  const resources = localeResources();
  const report = missingKeyReporter();
  void instance.use(initReactI18next).init({
    resources,
    lng,
    fallbackLng: defaultLanguage,
    supportedLngs: [...languages],
    ns: [...new Set([...Object.keys(resources[defaultLanguage] ?? {}), ...Object.keys(deferredFiles).map((path) => fileParts(path)![2])])],
    defaultNS: 'common',
    nsSeparator: '.',
    keySeparator: '.',
    // The limits a text may name wherever it is ({{maxSmsParts}}), from their one owner (core/text-limits.ts).
    interpolation: { escapeValue: false, defaultVariables: { ...textLimits, maxMessageCharacters: formatInteger(textLimits.maxMessageCharacters) } },
    returnNull: false,
    initAsync: false,
    // A language's files added later (loadLanguage) re-render what shows.
    react: { bindI18nStore: 'added' },
    saveMissing: !!report,
    missingKeyHandler: report ? (lngs, ns, key) => report(lngs, ns, key) : false,
    // A key found in no language shows nothing rather than itself: "fields.accountSids-1" means
    // nothing to a person; text handed in as it is ("Campo 1") still shows. The browser
    // suite fails on any such lookup.
    parseMissingKeyHandler: (key: string) => (looksLikeKey(key) ? '' : key),
  });
  instance.on('languageChanged', (l) => {
    setNumberLanguage(l);
    if (typeof document !== 'undefined') document.documentElement.lang = l;
  });
  setNumberLanguage(lng);
  if (typeof document !== 'undefined') document.documentElement.lang = lng;
  return instance;
}

/** The app's instance. Stories and tests share it, switching the language through `setLanguage`. */
export const i18n = createI18n();

export async function setLanguage(lng: Language, save = true): Promise<void> {
  if (save) writeItem(storageKeys.language, lng);
  await loadLanguage(lng);
  if (i18n.language !== lng) await i18n.changeLanguage(lng);
}

/**
 * The app's language ready to show: the entry awaits it before the first render. In the default
 * language nothing is missing but the deferred namespaces, which stringsReady loads.
 */
export const languageReady = (): Promise<void> => (i18n.language === defaultLanguage ? Promise.resolve() : loadLanguage(i18n.language));

/** Every string of the current language (the deferred ones too): every route but the sign-in waits for it. */
export const stringsReady = (): Promise<void> => loadLanguage(i18n.language);
