// Locale coverage: every key the declarations refer to must exist in locales/es and locales/en.
// locales/<lang>/<namespace>.json are flat maps; the full key is "<namespace>.<key>".
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Model } from './model.ts';

export function readLocale(root: string, lang: string): Map<string, string> {
  const dir = join(root, 'locales', lang);
  const out = new Map<string, string>();
  if (!existsSync(dir)) return out;
  for (const file of readdirSync(dir).filter((n) => n.endsWith('.json')).sort()) {
    const ns = file.replace(/\.json$/, '');
    const data = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown>;
    for (const [k, v] of Object.entries(data)) {
      if (typeof v !== 'string') throw new Error(`locales/${lang}/${file}: "${k}" must be a string (flat map)`);
      out.set(`${ns}.${k}`, v);
    }
  }
  return out;
}

/** The keys one screen's declaration names (its titles, labels, columns and fields). */
export function screenKeys(s: Model['screens'][number]): string[] {
  const out: string[] = [];
  const add = (k: unknown) => { if (typeof k === 'string') out.push(k); };
  for (const k of ['title', 'description', 'submitLabel', 'message', 'empty', 'onErrorDefault'] as const) add(s[k]);
  add((s.onSuccess as any)?.notify);
  for (const l of (s.links as any[]) ?? []) add(l.label);
  // Columns and detail fields: a declared label, else fields.<field>.
  const columnKey = (c: any) => (typeof c === 'string' ? `fields.${c}` : (c.label ?? `fields.${String(c.field).split('.')[0]}`));
  for (const group of ['secondaryActions', 'rowActions', 'bulkActions', 'actions', 'cards', 'charts', 'tables'] as const) {
    for (const a of (s[group] as any[]) ?? []) { add(a.label); add(a.notify); add(a.confirm); add(a.help); add(a.empty); }
  }
  for (const tb of (s.tables as any[]) ?? []) { for (const c of tb.columns ?? []) add(columnKey(c)); add(tb.emptyAction?.label); }
  // A report's chart and totals, its folded series (fields.<field>), and each section's own.
  const chartKeys = (chart: any) => { add(chart?.label); for (const f of chart?.fold?.fields ?? []) add(`fields.${f}`); };
  chartKeys(s.chart);
  add((s.totals as any)?.label);
  for (const section of (s.sections as any[]) ?? []) {
    add(section.label); add(section.empty); add(section.totals?.label); chartKeys(section.chart);
    for (const c of section.columns ?? []) add(columnKey(c));
  }
  for (const c of (s.columns as any[]) ?? []) add(columnKey(c));
  for (const tab of (s.tabs as any[]) ?? []) { add(tab.label); for (const f of tab.fields ?? []) add(columnKey(f)); for (const line of tab.checklist ?? []) add(line.text); }
  for (const step of (s.steps as any[]) ?? []) { add(step.label); add(step.description); for (const f of step.fields) add(`fields.${f}`); }
  for (const f of (s.fields as string[]) ?? []) add(`fields.${f}`);
  // List filters are field names; a report's filter form is a JSON Schema whose titles default to fields.<name>.
  if (Array.isArray(s.filters)) for (const f of s.filters) add(`fields.${f}`);
  else if (s.filters && typeof s.filters === 'object') {
    for (const [name, p] of Object.entries(((s.filters as any).properties ?? {}) as Record<string, any>)) add(p.title ?? `fields.${name}`);
  }
  return out;
}

/** Keys referenced by the declarations, with the languages each must exist in. */
export function referencedKeys(model: Model): Map<string, string[]> {
  const both = ['es', 'en'];
  const keys = new Map<string, string[]>();
  const add = (k: unknown, langs = both) => { if (typeof k === 'string') keys.set(k, langs); };
  for (const n of model.menu) { add(n.label); n.subtabs.forEach((s) => add(s.label)); }
  for (const s of model.screens) for (const k of screenKeys(s)) add(k);
  for (const group of Object.values(model.errors)) for (const e of group) add(e.key, e.locales ?? both);
  // Messages a field names for itself (x-errorKey) in operation bodies and screen extra fields.
  const errorKeys = (s: unknown): void => {
    if (Array.isArray(s)) s.forEach(errorKeys);
    else if (s && typeof s === 'object') {
      for (const [k, v] of Object.entries(s)) {
        if (k === 'x-errorKey') add(v);
        else errorKeys(v);
      }
    }
  };
  for (const o of model.operations) errorKeys(o.body);
  for (const s of model.screens) errorKeys(s.extraFields);
  for (const [id, s] of model.entities) {
    if (Array.isArray(s.enum)) for (const v of s.enum as string[]) add(`enums.${id}.${v}`);
  }
  return keys;
}

export function checkLocales(model: Model): { problems: string[]; keys: string[] } {
  const es = readLocale(model.root, 'es');
  const en = readLocale(model.root, 'en');
  const problems: string[] = [];
  const refs = referencedKeys(model);
  for (const [k, langs] of refs) {
    for (const lang of langs) if (!(lang === 'es' ? es : en).has(k)) problems.push(`locales/${lang}: missing key "${k}"`);
  }
  const esOnly = new Set([...refs].filter(([, l]) => !l.includes('en')).map(([k]) => k));
  for (const k of es.keys()) if (!en.has(k) && !esOnly.has(k)) problems.push(`locales/en: missing key "${k}" (present in es)`);
  for (const k of en.keys()) if (!es.has(k)) problems.push(`locales/es: missing key "${k}" (present in en)`);
  return { problems, keys: [...es.keys()].sort() };
}

/**
 * The default language's strings a first-load screen (`firstLoad: true`, the sign-in) shows: the
 * keys its declaration names and every key under its own `screens.<id>.` prefix, by namespace.
 * The console bundles these with the app and defers the rest of their namespaces (the
 * sign-in's first load does not carry the whole of screens, fields and menu).
 */
export function firstLoadStrings(model: Model): Record<string, Record<string, string>> {
  const lang = String(model.app.i18n?.default ?? 'es');
  const locale = readLocale(model.root, lang);
  const out: Record<string, Record<string, string>> = {};
  const take = (key: string) => {
    const text = locale.get(key);
    if (text === undefined) return;
    const dot = key.indexOf('.');
    (out[key.slice(0, dot)] ??= {})[key.slice(dot + 1)] = text;
  };
  for (const s of model.screens.filter((x) => x.firstLoad === true)) {
    screenKeys(s).forEach(take);
    for (const key of locale.keys()) if (key.startsWith(`screens.${s.id}.`)) take(key);
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)).map(([ns, m]) => [ns, Object.fromEntries(Object.entries(m).sort(([a], [b]) => a.localeCompare(b)))]));
}
