// src/core/block-list.ts: changes take effect after the configured delay (24 hours).
import { describe, expect, it } from 'vitest';
import { blockStatus, effectiveAfter, entryBlocks, isBlocked, type BlockEntry } from '../../src/core/block-list.ts';

const T = new Date('2026-03-02T15:00:00Z');
const at = (hours: number) => new Date(T.getTime() + hours * 3_600_000);

describe('blockStatus and entryBlocks', () => {
  it.each([
    ['an addition waiting', { effectiveAt: at(1), removalEffectiveAt: null }, 'pending', 'add', false],
    ['an addition in force', { effectiveAt: at(0), removalEffectiveAt: null }, 'effective', null, true],
    ['a removal waiting', { effectiveAt: at(-30), removalEffectiveAt: at(5) }, 'pending', 'remove', true],
    ['a removal done', { effectiveAt: at(-30), removalEffectiveAt: at(0) }, 'removed', null, false],
    ['removed before it took effect', { effectiveAt: at(10), removalEffectiveAt: at(-1) }, 'removed', null, false],
    ['added and removed, both waiting', { effectiveAt: at(2), removalEffectiveAt: at(20) }, 'pending', 'add', false],
  ] as const)('%s', (_, entry, status, pending, blocks) => {
    expect(blockStatus(entry, T)).toEqual({ status, pending });
    expect(entryBlocks(entry, T)).toBe(blocks);
  });
});

describe('isBlocked', () => {
  const entries: BlockEntry[] = [
    { phone: '+573001234567', effectiveAt: at(-1), removalEffectiveAt: null },
    { phone: '+573109876543', effectiveAt: at(3), removalEffectiveAt: null },
    { phone: '+573205550000', effectiveAt: at(-48), removalEffectiveAt: at(4) },
  ];
  it.each([
    ['3001234567', T, true],
    ['+57 300 123 4567', T, true],
    ['3109876543', T, false],
    ['3109876543', at(3), true],
    ['3205550000', at(3), true],
    ['3205550000', at(4), false],
    ['3000000000', T, false],
    ['not a phone', T, false],
  ])('%s at %s: %s', (number, now, want) => {
    expect(isBlocked(entries, number, now)).toBe(want);
  });
});

describe('effectiveAfter', () => {
  it('adds the delay in hours', () => {
    expect(effectiveAfter(T, 24).toISOString()).toBe('2026-03-03T15:00:00.000Z');
  });
});
