// Each YAML vocabulary is typed once, by the generator (src/generated/enums.gen.ts): no
// hand-written source lists all the values of an enum again, as a union ('sms' | 'rcs' | …) or
// an array (['sms', 'rcs', …]). A subset is a rule (the states a cancel reaches) and stays.
// Not scanned: src/generated (the one derivation), migrations (frozen history: a migration
// keeps the values it was written with) and stories (sample data).
import { describe, it, expect } from 'vitest';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parse } from 'yaml';

const root = resolve('.');
const enums = readdirSync(join(root, 'schemas/enums'))
  .map((n) => parse(readFileSync(join(root, 'schemas/enums', n), 'utf8')) as { $id: string; type: string; enum: string[] })
  .filter((e) => e.type === 'string');

const walk = (dir: string): string[] => readdirSync(dir).flatMap((n) => {
  const p = join(dir, n);
  return statSync(p).isDirectory() ? walk(p) : [p];
});
const sources = walk(join(root, 'src'))
  .map((p) => relative(root, p))
  .filter((p) => /\.tsx?$/.test(p) && !p.startsWith('src/generated/') && !p.includes('/migrations/') && !p.includes('.stories.') && !p.startsWith('src/console/stories/'));

/** Runs of quoted words separated by | or , (comments and line breaks between them allowed). */
const LIST = /(['"`][\w{}$]+['"`](?:\s*(?:\/\/[^\n]*)?\s*[|,]\s*(?:\/\/[^\n]*)?\s*['"`][\w{}$]+['"`])+)/g;

/** Every hand-written list that holds all the values of some enum: "file: enum-id: the list". */
function enumCopies(files: { path: string; text: string }[]): string[] {
  const out: string[] = [];
  for (const { path, text } of files) {
    for (const m of text.matchAll(LIST)) {
      const words = new Set([...m[1].matchAll(/['"`]([\w{}$]+)['"`]/g)].map((x) => x[1]));
      for (const e of enums) {
        const all = e.enum.every((v) => words.has(v) || words.has(v.replace('{product}', '${productKey}')));
        if (all) out.push(`${path}: ${e.$id}: ${m[1].replace(/\s+/g, ' ').slice(0, 100)}`);
      }
    }
  }
  return out;
}

describe('no hand-written copy of a YAML enum', () => {
  it('finds a copy when there is one', () => {
    expect(enumCopies([{ path: 'x.ts', text: "export type ChannelPlatform =\n  | 'sms' // text\n  | 'rcs'\n  | 'whatsapp'\n  | 'fbMessenger';" }]))
      .toEqual(["x.ts: channel-platform: 'sms' // text | 'rcs' | 'whatsapp' | 'fbMessenger'"]);
    expect(enumCopies([{ path: 'y.ts', text: "const order = ['sms', 'rcs', 'whatsapp', 'fbMessenger'];" }])).toHaveLength(1);
    expect(enumCopies([{ path: 'z.ts', text: "const unsent = ['queued', 'paused'];" }])).toEqual([]);
  });

  it('finds none in src/', () => {
    expect(enumCopies(sources.map((path) => ({ path, text: readFileSync(join(root, path), 'utf8') })))).toEqual([]);
  });
});
