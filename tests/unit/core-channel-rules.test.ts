// src/core/channel-rules.ts and src/core/secret-mask.ts: what a channel needs to be enabled,
// the short-code rules, keywords, RBM agent ids and how secrets are shown.
import { describe, expect, it } from 'vitest';
import { isRcsAgentId, missingForEnable, normalizeKeyword, shortCodeProblem, type ChannelShape } from '../../src/core/channel-rules.ts';
import { isMasked, maskSecret } from '../../src/core/secret-mask.ts';

describe('missingForEnable', () => {
  it.each([
    [{ platform: 'sms', type: 'MT' }, ['sender', 'authorizationToken']],
    [{ platform: 'sms', type: 'MT', sender: '+573001234567', authorizationToken: 't' }, []],
    [{ platform: 'sms', type: 'MO', shortCode: '85432', authorizationToken: 't' }, []],
    [{ platform: 'rcs', type: 'MT', sender: 'agent', clientEmail: 'a@b.co' }, ['privateKey']],
    [{ platform: 'whatsapp', type: 'MO', sender: '+573001234567', authorizationToken: 't', accountSids: [] }, ['accountSids']],
    [{ platform: 'fbMessenger', type: 'MO', facebookPageId: '', pageAccessToken: null }, ['facebookPageId', 'pageAccessToken']],
  ] as [ChannelShape, string[]][])('%j -> %j', (channel, want) => {
    expect(missingForEnable(channel)).toEqual(want);
  });
});

describe('shortCodeProblem', () => {
  it.each([
    [{ type: 'MT', shortCode: null, keywords: [] }, null],
    [{ type: 'MT', shortCode: '85432', keywords: ['A'] }, '99969'],
    [{ type: 'MO', shortCode: '85432', keywords: [] }, '99971'],
    [{ type: 'MO', shortCode: '85432', keywords: ['INFO'] }, null],
  ] as const)('%j -> %s', (channel, want) => {
    expect(shortCodeProblem(channel)).toBe(want);
  });
});

describe('keywords and agents', () => {
  it.each([[' info ', 'INFO'], ['sí', 'SÍ'], ['Promo2', 'PROMO2']])('normalizeKeyword(%j) = %s', (given, want) => {
    expect(normalizeKeyword(given)).toBe(want);
  });
  it.each([['colibri_demo_agent', true], ['colibri-demo@rbm.goog', true], ['ab', false], ['Agent', false], ['a b c', false], ['x@gmail.com', false]])('isRcsAgentId(%s) = %s', (given, want) => {
    expect(isRcsAgentId(given)).toBe(want);
  });
});

describe('maskSecret', () => {
  it.each([
    ['smsc_live_3f9a8b7c6d5e4f3a2b1c9999', '••••9999'],
    ['short-secret', '••••cret'],
    ['tiny', '••••'],
    ['-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n', '••••'],
  ])('%j -> %s', (secret, want) => {
    expect(maskSecret(secret)).toBe(want);
    expect(isMasked(maskSecret(secret))).toBe(true);
    expect(isMasked(secret)).toBe(false);
  });
});
