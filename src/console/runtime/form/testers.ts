// Ranked testers (JSON Forms' idea): each widget says how well it fits a field; the highest rank
// wins. The winner is recorded in the uiSchema by its string key, so the uiSchema stays data.
export type FieldSchema = Record<string, unknown>;
export type FieldUi = Record<string, unknown> | undefined;
export type Tester = (schema: FieldSchema, ui: FieldUi, name: string) => boolean;
export type RankedTester = (schema: FieldSchema, ui: FieldUi, name: string) => number;

export const NOT_APPLICABLE = -1;

export const rankWith = (rank: number, tester: Tester): RankedTester => (s, u, n) => (tester(s, u, n) ? rank : NOT_APPLICABLE);
export const and = (...testers: Tester[]): Tester => (s, u, n) => testers.every((t) => t(s, u, n));
export const or = (...testers: Tester[]): Tester => (s, u, n) => testers.some((t) => t(s, u, n));
export const formatIs = (format: string): Tester => (s) => s.format === format;
/** `type: integer` and `type: [integer, "null"]` both are integers. */
export const schemaTypeIs = (type: string): Tester => (s) => s.type === type || (Array.isArray(s.type) && s.type.includes(type));
export const always: Tester = () => true;
export const hasEnum: Tester = (s) => Array.isArray(s.enum);
export const xDisplayIs = (display: string): Tester => (s) => s['x-display'] === display;
/** The list of choices comes from an operation (`x-options`, or the server's `x-source`). */
export const hasOptions: Tester = (s) => !!(s['x-options'] ?? s['x-source']);
export const itemsAre = (tester: Tester): Tester => (s, u, n) => !!s.items && typeof s.items === 'object' && tester(s.items as FieldSchema, u, n);
/** The declaration's `x-widget` annotation (schemas/ and config/ name widgets this way). */
export const xWidgetIs = (widget: string): Tester => (s) => s['x-widget'] === widget;
export const uiWidgetIs = (widget: string): Tester => (_, u) => u?.['ui:widget'] === widget;
export const nameIs = (name: string): Tester => (_, __, n) => n === name;

export interface RankedEntry<C> { key: string; tester: RankedTester; component: C }

/** The key of the best entry for a field, or undefined when none applies. */
export function bestKey<C>(entries: readonly RankedEntry<C>[], schema: FieldSchema, ui: FieldUi, name: string): string | undefined {
  let best: { key: string; rank: number } | undefined;
  for (const e of entries) {
    const rank = e.tester(schema, ui, name);
    if (rank > NOT_APPLICABLE && (!best || rank > best.rank)) best = { key: e.key, rank };
  }
  return best?.key;
}
