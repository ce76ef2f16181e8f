// The editor's own strings (locales/<lang>/flowEditor.json) load with the editor, not with the app
// (src/console/app/i18n.ts leaves them out of the first load): the default language's and the
// current one's, once each.
import type { i18n as I18n } from 'i18next';

const files = import.meta.glob<Record<string, string>>('../../../../locales/*/flowEditor.json', { import: 'default' });

export async function loadEditorStrings(i18n: I18n): Promise<void> {
  const languages = [...new Set([String(i18n.options.fallbackLng ?? 'es'), i18n.language])];
  await Promise.all(languages.map(async (lng) => {
    const load = files[`../../../../locales/${lng}/flowEditor.json`];
    if (!load || i18n.hasResourceBundle(lng, 'flowEditor')) return;
    i18n.addResourceBundle(lng, 'flowEditor', await load(), true, true);
  }));
}
