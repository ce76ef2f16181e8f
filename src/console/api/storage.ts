// What the console keeps in localStorage (spec 3, "Other stored values"). The names are part of
// the contract with the browser tests: the session is kept as `clientToken` (spec 7).
export const storageKeys = {
  clientToken: 'clientToken',
  area: 'area',
  responsible: 'responsible',
  language: 'language',
} as const;

function store(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function readItem(key: string): string | null {
  return store()?.getItem(key) ?? null;
}

export function writeItem(key: string, value: string | null): void {
  const s = store();
  if (!s) return;
  if (value === null) s.removeItem(key);
  else s.setItem(key, value);
}

/** Logout clears all local storage (spec 4); the language choice is saved again so it survives. */
export function clearAllButLanguage(): void {
  const s = store();
  if (!s) return;
  const language = s.getItem(storageKeys.language);
  s.clear();
  if (language) s.setItem(storageKeys.language, language);
}
