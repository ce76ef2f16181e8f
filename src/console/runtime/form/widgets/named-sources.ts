// The usual option sources, named by `x-widget` (roles, area, country, region, city), merged with
// the field's own `x-options` / `x-source`. Kept apart from the widget so the form can see a
// cascade's dependencies without loading the widget.
import { optionsSource, type OptionsSource } from '../../options.ts';

export const NAMED_SOURCES: Record<string, OptionsSource> = {
  roles: { operation: 'roles.list', value: 'id', label: 'name', labelEnum: 'role' },
  area: { operation: 'account.list', value: 'id', label: 'name' },
  country: { operation: 'geography.countries', value: 'code', label: 'name' },
  region: { operation: 'geography.regions', value: 'code', label: 'name', params: { country: '$f.country' } },
  city: { operation: 'geography.cities', value: 'code', label: 'name', params: { country: '$f.country', region: '$f.region' } },
};

export function sourceOf(schema: Record<string, unknown>): OptionsSource | undefined {
  const own = optionsSource(schema);
  const named = NAMED_SOURCES[String(schema['x-widget'] ?? '')];
  if (own) return { ...(own.operation === 'roles.list' ? { labelEnum: 'role' } : {}), ...named, ...own };
  return named;
}
