// A channel type registered at run time (a provider's own, added with one registry line) has no
// line in locales/<language>/enums.json; its definition names it in each language, the company's
// types come with those names (channels.platforms `names`), and the console adds them to its enum
// labels, so the channels list, the statistics and the reports show its name, never its id.
import { useEffect } from 'react';
import type { i18n as I18n } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useChannelsPlatforms } from '../../generated/client.gen.ts';
import type { SessionUser } from '../../generated/types.gen.ts';
import { canOpenMenuKey } from './home.ts';

/** Adds each type's names as its channel-platform label; a label the locales already have is kept. */
export function addChannelTypeWords(i18n: I18n, names: Record<string, Record<string, string>> | undefined): void {
  for (const [platform, byLanguage] of Object.entries(names ?? {})) {
    if (!/^[a-z][a-z0-9-]{0,39}$/.test(platform)) continue;
    for (const [language, name] of Object.entries(byLanguage)) {
      if (typeof name !== 'string' || !name.trim()) continue;
      i18n.addResourceBundle(language, 'enums', { [`channel-platform.${platform}`]: name.trim().slice(0, 80) }, true, false);
    }
  }
}

/**
 * Reads the company's channel types once signed in, when the user may see the channels (their menu
 * entry: the layout draws before the operation table has loaded), and adds their names.
 */
export function useChannelTypeWords(user: SessionUser | null): void {
  const { i18n } = useTranslation();
  const may = !!user && canOpenMenuKey(user, 'settings.channels');
  const { data } = useChannelsPlatforms(may ? {} : null, { revalidateOnFocus: false });
  useEffect(() => addChannelTypeWords(i18n, data?.names), [i18n, data]);
}
