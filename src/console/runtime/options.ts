// Choices for pickers (roles, areas, cost centers, responsibles, countries → regions → cities)
// come from operations named in the declarations: `x-options: { operation, value, label, params }`
// (the server's schemas call it `x-source`). `params` may name other form values ("$f.country"),
// which makes a cascade: the list reloads when they change and waits while they are empty.
// A list-convention operation is asked for its first 200 matches of what the user types.
// `fill: { <form field>: <row property> }` makes a choice prefill the form: when an option is
// chosen, those properties of its row are copied into those fields (a campaign's template fills
// its content and purpose), which stay editable; a property the row lacks (or holds null) leaves
// its field alone, and clearing the choice changes nothing.
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useOperation, type OperationId } from '../../generated/client.gen.ts';
import { buildArgs } from '../api/args.ts';
import { operationById } from '../api/transport.ts';
import { useSession } from '../api/session.ts';
import { formRefs, pick, resolveObject } from './expressions.ts';

export interface OptionsSource {
  operation: string;
  value?: string;
  label?: string;
  params?: Record<string, unknown>;
  itemsPath?: string;
  /** Labels are values of this enum: shown as enums.<labelEnum>.<label> when translated. */
  labelEnum?: string;
  /** On choosing an option: { <form field>: <property of the chosen row, dotted> } copied into the form. */
  fill?: Record<string, string>;
}

/** A choice, with the row it came from (what `fill` copies from). */
export interface Option { value: unknown; label: string; row?: Record<string, unknown> }

export function optionsSource(schema: Record<string, unknown>): OptionsSource | undefined {
  const own = (schema['x-options'] ?? schema['x-source']) as OptionsSource | undefined;
  if (own) return own;
  const items = schema.items as Record<string, unknown> | undefined;
  return items ? ((items['x-options'] ?? items['x-source']) as OptionsSource | undefined) : undefined;
}

/** The form fields a source depends on ($f.x in its params). */
export const dependsOn = (source: OptionsSource | undefined): string[] => (source ? formRefs(source.params ?? {}) : []);

export function toOptions(answer: unknown, source: OptionsSource, label: (raw: unknown) => string): Option[] {
  const paged = !!operationById(source.operation)?.list;
  const items = pick(answer, source.itemsPath ?? (paged ? 'items' : undefined));
  if (!Array.isArray(items)) return [];
  const valueKey = source.value ?? 'id';
  const labelKey = source.label ?? 'name';
  return items
    .filter((x): x is Record<string, unknown> => !!x && typeof x === 'object')
    .map((x) => ({ value: x[valueKey], label: label(x[labelKey] ?? x[valueKey]), row: x }));
}

/**
 * The form values a chosen row fills (`fill`): each named property of the row, by form field.
 * Properties the row lacks or holds as null are left out, so their fields keep what they hold.
 */
export function fillFrom(source: OptionsSource | undefined, row: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!source?.fill || !row) return out;
  for (const [field, path] of Object.entries(source.fill)) {
    const value = pick(row, path);
    if (value !== undefined && value !== null) out[field] = value;
  }
  return out;
}

export function useOptions(source: OptionsSource | undefined, form: Record<string, unknown>, search = '') {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const deps = dependsOn(source);
  const waiting = deps.some((d) => form[d] === undefined || form[d] === null || form[d] === '');
  const values = source ? resolveObject(source.params, { session: session as unknown as Record<string, unknown>, form }) : {};
  const paged = source ? !!operationById(source.operation)?.list : false;
  if (paged) Object.assign(values, { page: 1, pageSize: 200, ...(search ? { q: search } : {}) });
  const args = source && !waiting ? buildArgs(source.operation, values) : null;
  const { data, error, isLoading } = useOperation((source?.operation ?? 'system.health') as OperationId, args as never, { revalidateOnFocus: false, keepPreviousData: paged });
  const options = useMemo(() => {
    if (!source || !data) return [];
    const label = (raw: unknown) => {
      const key = source.labelEnum ? `enums.${source.labelEnum}.${String(raw)}` : '';
      return key && i18n.exists(key) ? t(key) : String(raw ?? '');
    };
    return toOptions(data, source, label);
  }, [data, source, t, i18n]);
  return { options, error, loading: isLoading, waiting, paged };
}
