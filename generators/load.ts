// Reads every YAML declaration, keeps line positions so that errors can name file, path and line.
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseDocument, isMap, isSeq, type Node as YamlNode, LineCounter } from 'yaml';

export interface Loaded { file: string; data: unknown; lineOf(path: (string | number)[]): number | undefined }

export class DeclarationError extends Error {
  constructor(readonly file: string, readonly path: string, readonly reason: string, readonly line?: number) {
    super(`${file}${line ? `:${line}` : ''} ${path || '/'}: ${reason}`);
  }
}

export function listYaml(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (name !== '_meta') out.push(...listYaml(p));
    } else if (name.endsWith('.yaml') || name.endsWith('.yml')) out.push(p);
  }
  return out;
}

export function loadYaml(root: string, absPath: string, productKey?: string): Loaded {
  const file = relative(root, absPath);
  let text = readFileSync(absPath, 'utf8');
  // The product key is configuration (config/app.yaml); "{product}" in any declaration takes it.
  if (productKey) text = text.replaceAll('{product}', productKey);
  const lineCounter = new LineCounter();
  // merge: `<<: *anchor` lets one file declare a call once and the same call again under a second
  // path (spec 7's "also under v1/{product}/reportCenter"), overriding only what differs.
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, merge: true });
  if (doc.errors.length > 0) {
    const e = doc.errors[0];
    throw new DeclarationError(file, '', `YAML syntax: ${e.message.split('\n')[0]}`, e.linePos?.[0]?.line);
  }
  const data = doc.toJS({ maxAliasCount: 100 });
  return {
    file,
    data,
    lineOf(path) {
      let node: unknown = doc.contents;
      for (const seg of path) {
        if (isMap(node)) node = node.get(seg, true);
        else if (isSeq(node)) node = node.get(Number(seg), true);
        else break;
      }
      const range = (node as YamlNode | undefined)?.range;
      return range ? lineCounter.linePos(range[0]).line : undefined;
    },
  };
}
