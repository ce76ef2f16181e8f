// A channel type is its folder: each definition declares its capabilities, the product reads them
// through the registry (capabilitiesOf), and a comparison with a platform name outside the channel
// folders is refused by the lint. The credentials a definition declares are the ones the console's
// form (core/channel-rules.ts) and the server's sealed credentials document (credentials.ts) use.
import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';
import { credentialFields, enableRequirements, platformFields } from '../../src/core/channel-rules.ts';
import type { ChannelCapabilities } from '../../src/engine/channels/definition.ts';
import { capabilitiesOf, channelDefinitions, reachOf, registerChannel } from '../../src/engine/channels/registry.ts';
import { channelPlatforms } from '../../src/generated/enums.gen.ts';
import { checkLength } from '../../src/server/modules/campaigns/records.ts';
import { secretFields } from '../../src/server/modules/channels/credentials.ts';
import { checkPlatformRules, fieldsOf, mergePlain, missingFor } from '../../src/server/modules/channels/values.ts';
import type { ChannelPlatform } from '../../src/generated/enums.gen.ts';

const sorted = (list: readonly string[]) => [...list].sort();

describe('channel capabilities', () => {
  it('every channel type of the enum declares its credentials as the form and the sealed columns know them', () => {
    const sealable = new Set<string>([...secretFields, 'accountSids']);
    for (const platform of channelPlatforms) {
      const { credentials } = capabilitiesOf(platform);
      expect(sorted(credentials.fields), platform).toEqual(sorted(platformFields[platform].filter((f) => (credentialFields as readonly string[]).includes(f))));
      expect(credentials.required, platform).toEqual(enableRequirements[platform]);
      expect(sorted(credentials.sealed), platform).toEqual(sorted(credentials.fields.filter((f) => sealable.has(f))));
    }
  });

  it('gives the server the fields and requirements the console form uses, from the definitions', () => {
    for (const platform of channelPlatforms) {
      expect(sorted(fieldsOf(platform)), platform).toEqual(sorted(platformFields[platform]));
      expect(missingFor(platform, {}), platform).toEqual(enableRequirements[platform].map((group) => group[0]));
    }
    expect(missingFor('sms', { shortCode: '85432', authorizationToken: 'x' })).toEqual([]);
  });

  it('declares what the product relied on the platform names for', () => {
    const summary = Object.fromEntries(channelPlatforms.map((p) => {
      const c = capabilitiesOf(p);
      return [p, [c.templates, c.customerServiceWindow, c.segmentedText, c.keywordRouting, c.sender, c.reaches]];
    }));
    expect(summary).toEqual({
      sms: [false, false, true, true, 'phone', 'mobile'],
      rcs: [false, false, false, false, 'rbmAgent', 'mobile'],
      whatsapp: [true, true, false, false, 'phone', 'phone'],
      fbMessenger: [false, false, false, false, 'none', 'psid'],
    });
    // Outside the window only an approved template goes: a window without templates would strand every message.
    for (const definition of channelDefinitions()) {
      if (definition.capabilities.customerServiceWindow) expect(definition.capabilities.templates, definition.platform).toBe(true);
    }
  });

  it('answers a registered type its own capabilities, and an unclaimed one the plain defaults', () => {
    const capabilities: ChannelCapabilities = {
      direction: 'one-way', templates: false, customerServiceWindow: false, media: { inbound: false, outbound: false }, segmentedText: true,
      sender: 'phone', keywordRouting: false, reaches: 'mobile', credentials: { fields: [], required: [], sealed: [] },
    };
    const unregister = registerChannel({ platform: 'parts-probe', color: '#000000', capabilities, createAdapter: () => null });
    try {
      expect(capabilitiesOf('parts-probe')).toBe(capabilities);
      expect(reachOf('parts-probe')).toBe('mobile');
      // The campaign length rule reads segmentedText, not the name 'sms': 20 parts of UCS-2 are refused (99903).
      const long = 'ñ€'.repeat(700);
      expect(() => checkLength(long, 'parts-probe')).toThrow(expect.objectContaining({ code: '99903' }));
      // A one-way type refuses an MO channel (99931 on type); MT is fine.
      const probe = 'parts-probe' as ChannelPlatform;
      const plain = (type: 'MT' | 'MO') => mergePlain(probe, null, { name: 'Probe', type });
      expect(() => checkPlatformRules(probe, plain('MO'), {})).toThrow(expect.objectContaining({ code: '99931', errors: [expect.objectContaining({ field: 'type' })] }));
      expect(() => checkPlatformRules(probe, plain('MT'), {})).not.toThrow();
    } finally {
      unregister();
    }
    expect(capabilitiesOf('parts-probe')).toMatchObject({ templates: false, segmentedText: false, sender: 'phone', reaches: 'phone' });
    expect(() => checkLength('ñ€'.repeat(700), 'parts-probe')).not.toThrow();
  });
});

describe('the platform-name lint', () => {
  const eslint = new ESLint();
  const reported = async (file: string, code: string) =>
    (await eslint.lintText(code, { filePath: file }))[0].messages.filter((m) => m.ruleId === 'no-restricted-syntax').length;

  it('refuses a comparison with a platform name outside the channel folders', async () => {
    const file = 'src/server/modules/probe/index.ts';
    expect(await reported(file, "export const f = (p: string) => p === 'whatsapp';\n")).toBe(1);
    expect(await reported(file, "export const f = (p: string) => 'sms' !== p;\n")).toBe(1);
    expect(await reported(file, "export const f = (p: string) => { switch (p) { case 'rcs': return 1; case 'fbMessenger': return 2; default: return 0; } };\n")).toBe(2);
    expect(await reported('src/console/features/probe/Probe.tsx', "export const f = (p: string) => p === 'sms';\n")).toBe(1);
  });

  it('allows it inside a channel folder, the sandbox and the generated code, and allows capability reads anywhere', async () => {
    const compare = "export const f = (p: string) => p === 'whatsapp';\n";
    expect(await reported('src/engine/channels/whatsapp/probe.ts', compare)).toBe(0);
    expect(await reported('src/sandbox/graph/probe.ts', compare)).toBe(0);
    expect(await reported('src/server/modules/probe/index.ts', "import { capabilitiesOf } from '../../../engine/channels/registry.ts';\nexport const f = (p: string) => capabilitiesOf(p).templates && p === 'email';\n")).toBe(0);
  });
});
