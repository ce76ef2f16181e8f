// Countries, regions (DANE departments) and cities (DANE municipalities), seeded by migration
// 0002. Codes are matched case-insensitively for countries ("co" = "CO") and with or without
// the leading zero for regions ("5" = "05").
import { fail } from '../../errors/api-error.ts';
import type { DomainHandlers } from '../../http/handler.ts';

const regionCode = (code: string) => code.padStart(2, '0');

export const geographyHandlers: DomainHandlers<'geography'> = {
  'geography.countries': async ({ deps }) => deps.db.selectFrom('countries').select(['code', 'name']).orderBy('name').execute(),

  'geography.regions': async ({ deps, params }) => {
    const country = params.country.toUpperCase();
    const found = await deps.db.selectFrom('countries').select('code').where('code', '=', country).executeTakeFirst();
    if (!found) throw fail('99959');
    return deps.db.selectFrom('regions').select(['code', 'name']).where('country_code', '=', country).orderBy('name').execute();
  },

  'geography.cities': async ({ deps, params }) => {
    const country = params.country.toUpperCase();
    const region = regionCode(params.region);
    const found = await deps.db.selectFrom('regions').select('code').where('country_code', '=', country).where('code', '=', region).executeTakeFirst();
    if (!found) throw fail('99959');
    return deps.db.selectFrom('cities').select(['code', 'name']).where('country_code', '=', country).where('region_code', '=', region).orderBy('name').execute();
  },
};
