// Which fields a form or a report's filters show: `showWhen` conditions, and `fieldsBy` — the
// fields one value uses, by a rule that lives in src/core (one
// owner: the server refuses the other fields with the same rule). A channel form shows the chosen
// platform's fields only; before a platform is chosen, none of the platform-specific ones.
import { platformFields } from '../../../core/channel-rules.ts';
import { rowApplies, type ExpressionContext } from '../expressions.ts';
import type { ScreenDef } from '../screen-types.ts';

type FieldsBy = NonNullable<ScreenDef['fieldsBy']>;

const RULES: Record<FieldsBy['rule'], Readonly<Record<string, readonly string[]>>> = {
  channelPlatformFields: platformFields,
};

/** The fields the rule names for some value but not for the form's current one. */
export function hiddenByValue(by: FieldsBy | undefined, data: Record<string, unknown>): string[] {
  if (!by) return [];
  const rule = RULES[by.rule];
  const own = new Set(rule[String(data[by.field])] ?? []);
  return [...new Set(Object.values(rule).flat())].filter((f) => !own.has(f));
}

/**
 * The fields a `showWhen` condition or the `fieldsBy` rule hides for these values (a form's or a
 * report's filters): they are not shown, nor sent.
 */
export function hiddenByCondition(screen: Pick<ScreenDef, 'showWhen' | 'fieldsBy'>, data: Record<string, unknown>, ctx: ExpressionContext): string[] {
  const unmet = Object.entries(screen.showWhen ?? {}).filter(([, when]) => !rowApplies(when, data, ctx)).map(([field]) => field);
  return [...unmet, ...hiddenByValue(screen.fieldsBy, data)];
}
