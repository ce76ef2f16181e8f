// Each YAML vocabulary is typed once, by the generator: schemas/enums/<id>.yaml becomes an
// `as const` table of its values (and of the facts x-meta declares about each value) and the
// type derived from it, in src/generated/enums.gen.ts; types.gen.ts re-exports the types.
// The type-level checks below run under `npm run typecheck` (expectTypeOf is inert at run time).
import { describe, it, expect, expectTypeOf } from 'vitest';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { generate } from '../../generators/run.ts';
import { miniProject } from './mini-project.ts';
import * as mini from '../fixtures/mini-project/expected/enums.gen.ts';
import {
  enumValues, channelPlatforms, deliveryStatusMeta, smsStateByName, smsStateMeta,
  type ChannelPlatform, type DeliveryStatus, type MessageState, type SmsState,
} from '../../src/generated/enums.gen.ts';
import type { Thing } from '../fixtures/mini-project/expected/types.gen.ts';
import { enableRequirements, platformFields } from '../../src/core/channel-rules.ts';
import { stateForDelivery } from '../../src/engine/lifecycle/message-states.ts';

describe('a new enum value flows from YAML into the table and the type', () => {
  it('emits the value, its facts and the derived type', async () => {
    const dir = miniProject();
    const file = join(dir, 'schemas/enums/color.yaml');
    writeFileSync(file, readFileSync(file, 'utf8')
      .replace('enum: [red, blue]', 'enum: [red, blue, green]')
      .replace('  blue: { name: navy, warm: false }', '  blue: { name: navy, warm: false }\n  green: { name: olive, warm: false }'));
    for (const lang of ['es', 'en']) {
      const p = join(dir, `locales/${lang}/enums.json`);
      writeFileSync(p, JSON.stringify({ ...JSON.parse(readFileSync(p, 'utf8')), 'color.green': 'Green' }));
    }
    const out = await generate(dir);
    expect(out.localeProblems).toEqual([]);
    const enums = out.files.get('enums.gen.ts')!;
    expect(enums).toContain('export const colors = ["red", "blue", "green"] as const;');
    expect(enums).toContain('export type Color = (typeof colors)[number];');
    expect(enums).toMatch(/green: \{\s+name: "olive",\s+warm: false\s+\}/);
    expect(enums).toMatch(/olive: "green"/);
    // The entity types use the one derived type rather than a second union.
    const types = out.files.get('types.gen.ts')!;
    expect(types).toContain('import type { Color } from "./enums.gen.ts";');
    expect(types).toContain('color?: Color');
    expect(types).not.toContain('"red" | "blue"');
  });

  it('emits a file that imports nothing, so every part may read it', async () => {
    const enums = (await generate(miniProject())).files.get('enums.gen.ts')!;
    expect(enums).not.toMatch(/^\s*import\b/m);
    expect(readFileSync(resolve('src/generated/enums.gen.ts'), 'utf8')).not.toMatch(/^\s*import\b/m);
  });

  it('asks for the locale key of the new value', async () => {
    const dir = miniProject();
    const file = join(dir, 'schemas/enums/color.yaml');
    writeFileSync(file, readFileSync(file, 'utf8')
      .replace('enum: [red, blue]', 'enum: [red, blue, green]')
      .replace('  blue: { name: navy, warm: false }', '  blue: { name: navy, warm: false }\n  green: { name: olive, warm: false }'));
    const out = await generate(dir);
    expect(out.localeProblems).toContain('locales/es: missing key "enums.color.green"');
  });

  it('types the golden table as the fixture YAML declares it', () => {
    expectTypeOf<mini.Color>().toEqualTypeOf<'red' | 'blue'>();
    expectTypeOf(mini.colors).toEqualTypeOf<readonly ['red', 'blue']>();
    expectTypeOf(mini.colorMeta.red.warm).toEqualTypeOf<true>();
    expectTypeOf(mini.colorByName.navy).toEqualTypeOf<'blue'>();
    expectTypeOf<NonNullable<Thing['color']>>().toEqualTypeOf<mini.Color>();
    expect(mini.colors).toEqual(['red', 'blue']);
  });
});

describe('the project\'s enum tables agree with schemas/enums', () => {
  const dir = resolve('schemas/enums');
  const productKey = (parse(readFileSync(resolve('config/app.yaml'), 'utf8')) as { product: { key: string } }).product.key;
  const declared = readdirSync(dir).filter((n) => n.endsWith('.yaml')).map((n) => parse(readFileSync(join(dir, n), 'utf8').replaceAll('{product}', productKey)) as {
    $id: string; enum: (string | number)[]; 'x-values'?: Record<string, unknown>;
  });

  it.each(declared.map((d) => [d.$id, d] as const))('%s', (id, d) => {
    expect(enumValues[id as keyof typeof enumValues]).toEqual(d.enum);
  });

  it('emits the facts of x-values', () => {
    const sms = declared.find((d) => d.$id === 'sms-state')!;
    const delivery = declared.find((d) => d.$id === 'delivery-status')!;
    expect(smsStateMeta).toEqual(sms['x-values']);
    expect(deliveryStatusMeta).toEqual(delivery['x-values']);
    expect(Object.keys(enumValues).sort()).toEqual(declared.map((d) => d.$id).sort());
  });

  it('keeps literal types, so an exhaustive Record over them is checked by the compiler', () => {
    expectTypeOf(smsStateByName.success).toEqualTypeOf<3>();
    expectTypeOf<SmsState>().not.toEqualTypeOf<number>();
    expectTypeOf<ChannelPlatform>().toEqualTypeOf<(typeof channelPlatforms)[number]>();
    expectTypeOf<keyof typeof platformFields>().toEqualTypeOf<ChannelPlatform>();
    expectTypeOf<keyof typeof enableRequirements>().toEqualTypeOf<ChannelPlatform>();
    expectTypeOf(stateForDelivery).parameter(0).toEqualTypeOf<DeliveryStatus>();
    expectTypeOf(stateForDelivery).returns.toEqualTypeOf<MessageState>();
  });
});
