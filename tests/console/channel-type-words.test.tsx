// A channel type registered at run time is read in the console by its name: the names its
// definition gives (channels.platforms `names`, tests/server/fake-channel.test.ts) become its
// channel-platform labels in each language, so a list cell of the type shows "Canal de prueba",
// never "fake"; a built-in type keeps its locale label, and a malformed entry adds nothing.
import { describe, expect, it } from 'vitest';
import { createI18n, loadLanguage } from '../../src/console/app/i18n.ts';
import { cellText } from '../../src/console/runtime/cells/cells.tsx';
import { addChannelTypeWords } from '../../src/console/shell/channel-type-words.ts';

const column = { field: 'platform', label: 'fields.platform', schema: { type: 'string', 'x-enum': 'channel-platform' } } as never;

describe('a channel type registered at run time', () => {
  it('is named in each language by its definition, beside the built-in types\' locale labels', async () => {
    const i18n = createI18n('es');
    await Promise.all(['es', 'en'].map((l) => loadLanguage(l, i18n)));
    const label = (platform: string) => cellText(i18n.t, (k) => i18n.exists(k), 'enum', platform, column);
    expect(label('fake')).toBe('fake');
    const sms = label('sms');
    addChannelTypeWords(i18n, { fake: { es: 'Canal de prueba', en: 'Test channel' }, sms: { es: 'Otro nombre' }, 'Fake Bad!': { es: 'x' }, empty: { es: '  ' } });
    expect(label('fake')).toBe('Canal de prueba');
    expect(label('sms')).toBe(sms);
    expect(i18n.exists('enums.channel-platform.empty')).toBe(false);
    await i18n.changeLanguage('en');
    expect(label('fake')).toBe('Test channel');
  });
});
