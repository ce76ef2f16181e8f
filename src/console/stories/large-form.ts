// A form of many fields (the benchmark's 200-field form and its story): text, e-mail, numbers,
// choices and yes/no in turn, every tenth one required.
import type { RJSFSchema } from '@rjsf/utils';

export function largeSchema(n: number): RJSFSchema {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (let i = 0; i < n; i++) {
    const name = `field${String(i + 1).padStart(3, '0')}`;
    const title = `Campo ${i + 1}`;
    switch (i % 5) {
      case 0:
        properties[name] = { type: 'string', maxLength: 80, title };
        break;
      case 1:
        properties[name] = { type: 'string', format: 'email', title };
        break;
      case 2:
        properties[name] = { type: 'integer', minimum: 0, title };
        break;
      case 3:
        properties[name] = { type: 'string', enum: ['CC', 'CE', 'NIT'], 'x-enum': 'document-type', title };
        break;
      default:
        properties[name] = { type: 'boolean', title };
    }
    if (i % 10 === 0) required.push(name);
  }
  return { type: 'object', required, properties } as RJSFSchema;
}
