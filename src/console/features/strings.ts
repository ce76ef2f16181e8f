// A hand-written feature's own strings (locales/<lang>/<namespace>.json) load with the feature, not
// with the app (src/console/app/i18n.ts leaves them out of the first load): the default language's
// and the current one's, once each. One loader for every feature's namespace.
import type { i18n as I18n } from 'i18next';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

export type FeatureNamespace = 'flowEditor' | 'payments' | 'sandboxPhone';

const files = import.meta.glob<Record<string, string>>(['../../../locales/*/flowEditor.json', '../../../locales/*/payments.json', '../../../locales/*/sandboxPhone.json'], { import: 'default' });

export async function loadFeatureStrings(i18n: I18n, namespace: FeatureNamespace): Promise<void> {
  const languages = [...new Set([String(i18n.options.fallbackLng ?? 'es'), i18n.language])];
  await Promise.all(languages.map(async (lng) => {
    const load = files[`../../../locales/${lng}/${namespace}.json`];
    if (!load || i18n.hasResourceBundle(lng, namespace)) return;
    i18n.addResourceBundle(lng, namespace, await load(), true, true);
  }));
}

/** True once the namespace's strings are at hand (for the current language too, when it changes). */
export function useFeatureStrings(namespace: FeatureNamespace): boolean {
  const { i18n } = useTranslation();
  const [ready, setReady] = useState(() => i18n.hasResourceBundle(i18n.language, namespace));
  useEffect(() => {
    let live = true;
    void loadFeatureStrings(i18n, namespace).then(() => { if (live) setReady(true); });
    return () => { live = false; };
  }, [i18n, i18n.language, namespace]);
  return ready;
}
