// The small expression language of the screen declarations: "$session.idUser", "$query.email",
// "$queryJson.x" (a query parameter holding a JSON object), "$row.id", "$route.id", "$record.x" (the loaded record), "$f.x" (form or filter values),
// "$selected" (the ids of the rows selected for a bulk action), "$today" and "$daysAgo.N" (Bogotá
// calendar days, YYYY-MM-DD: a report's default range) and "{field}" interpolation in navigation
// targets. Pure data in, values out: nothing is evaluated.
import { addDays, formatYmd, parseYmd } from '../../core/bogota-time.ts';
import { today } from './form/date-rules.ts';
import type { RowCondition } from './screen-types.ts';

export interface ExpressionContext {
  session?: Record<string, unknown> | null;
  query?: URLSearchParams;
  row?: Record<string, unknown>;
  route?: Record<string, string | undefined>;
  record?: Record<string, unknown>;
  form?: Record<string, unknown>;
  selected?: readonly unknown[];
  /** The clock for $today and $daysAgo (tests); default now. */
  now?: Date;
}

function lookup(source: unknown, path: string[]): unknown {
  let value = source;
  for (const part of path) {
    if (value === null || value === undefined || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

const isEmptyValue = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/** A query parameter holding a JSON object (a report's filters handed to the schedule form), else nothing. */
function jsonObject(text: string | null | undefined): Record<string, unknown> | undefined {
  if (!text || text.length > 10_000) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export function resolveValue(value: unknown, ctx: ExpressionContext): unknown {
  if (typeof value === 'string' && value.startsWith('$')) {
    const [head, ...path] = value.slice(1).split('.');
    switch (head) {
      case 'session':
        return lookup(ctx.session, path);
      case 'query':
        return path.length ? (ctx.query?.get(path.join('.')) ?? undefined) : undefined;
      case 'queryJson':
        return path.length ? jsonObject(ctx.query?.get(path.join('.'))) : undefined;
      case 'row':
        return lookup(ctx.row, path);
      case 'route':
        return lookup(ctx.route, path);
      case 'record':
        return lookup(ctx.record, path);
      case 'f':
        return lookup(ctx.form, path);
      case 'selected':
        return path.length ? undefined : ctx.selected ? [...ctx.selected] : undefined;
      case 'today':
        return path.length ? undefined : today(ctx.now);
      case 'daysAgo': {
        const n = Number(path[0]);
        return path.length === 1 && Number.isInteger(n) && n >= 0 ? formatYmd(addDays(parseYmd(today(ctx.now)), -n)) : undefined;
      }
      default:
        return value;
    }
  }
  if (Array.isArray(value)) return value.map((v) => resolveValue(v, ctx));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveValue(v, ctx)]));
  }
  return value;
}

export function resolveObject(value: Record<string, unknown> | undefined, ctx: ExpressionContext): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value ?? {})) {
    const r = resolveValue(v, ctx);
    if (r !== undefined) out[k] = r;
  }
  return out;
}

/** "/userValidation?email={email}" with the form's values, each URI-encoded. */
export function interpolate(template: string, values: Record<string, unknown>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name] === undefined || values[name] === null ? '' : String(values[name])));
}

/**
 * A navigation target: absolute as written, or relative to `base` ("{id}/edit" under
 * /profile/management; "?tab=3" is `base` with that query). A navigation action's resolved `params` fill the `{name}` they match
 * (before the row's values) and the others become the query: a nested list's row reaches its
 * parent's id (`params: { userId: $route.id }` → `…?userId=7`).
 */
export function navigationTarget(to: string, values: Record<string, unknown>, base: string, params: Record<string, unknown> = {}): string {
  const named = new Set([...to.matchAll(/\{(\w+)\}/g)].map((m) => m[1]));
  const filled = interpolate(to, { ...values, ...params });
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (!named.has(k) && v !== undefined && v !== null) search.append(k, String(v));
  const qs = search.toString();
  const target = qs ? `${filled}${filled.includes('?') ? '&' : '?'}${qs}` : filled;
  if (target.startsWith('/')) return target;
  // "?tab=3": the same page with another query (a detail's tab).
  if (target.startsWith('?')) return `${base.replace(/\/+$/, '')}${target}`;
  return `${base.replace(/\/+$/, '')}/${target}`;
}

/** Every "$f.<name>" a value refers to (the fields an x-options list depends on). */
export function formRefs(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string' && value.startsWith('$f.')) out.push(value.slice(3).split('.')[0]);
  else if (Array.isArray(value)) value.forEach((v) => formRefs(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => formRefs(v, out));
  return out;
}

/** Reads "items" or "a.b" from an answer; "$length" is the length of an array answer. */
export function pick(source: unknown, path: string | undefined): unknown {
  if (!path) return source;
  if (path === '$length') return Array.isArray(source) ? source.length : undefined;
  return lookup(source, path.split('.'));
}

/**
 * A row action (or the list's Edit, `editWhen`) shows only on the rows its condition holds for:
 * `{ field, equals | notEquals | in | notIn }` (field may be dotted), the values being data or expressions
 * (`notEquals: $session.idUser`: not on one's own row), or a list of them that must all hold.
 */
export function rowApplies(when: RowCondition | readonly RowCondition[] | undefined, row: Record<string, unknown>, ctx: ExpressionContext): boolean {
  if (!when) return true;
  // A list: every condition holds (an action's `when`).
  if (Array.isArray(when)) return when.every((w) => rowApplies(w, row, ctx));
  if (!('field' in when)) return true;
  // A dotted field reads inside the row ("counts.queued").
  const value = lookup(row, when.field.split('.'));
  const same = (v: unknown) => JSON.stringify(resolveValue(v, ctx)) === JSON.stringify(value);
  if ('equals' in when && !same(when.equals)) return false;
  if ('notEquals' in when && same(when.notEquals)) return false;
  if (when.in && !when.in.some(same)) return false;
  if (when.notIn && when.notIn.some(same)) return false;
  if (when.present !== undefined && when.present === isEmptyValue(value)) return false;
  return true;
}
