// Every import boundary of ARCHITECTURE.md §2 is a lint rule (eslint.config.js): for each part,
// a forbidden import is reported and an allowed one is not, through ESLint's own API and the
// project's config, so loosening or dropping a rule fails here.
import { describe, it, expect, beforeAll } from 'vitest';
import { ESLint } from 'eslint';

const BOUNDARY_RULES = new Set(['no-restricted-imports', 'no-restricted-syntax']);

interface Boundary {
  part: string;
  /** A file of that part (it need not exist: lintText only names it). */
  file: string;
  forbidden: string[];
  allowed: string[];
}

const staticImport = (from: string) => `import { x } from '${from}';\nexport const y = x;\n`;
const dynamicImport = (from: string) => `export const load = () => import('${from}');\n`;

const boundaries: Boundary[] = [
  {
    part: 'console (core, generated)',
    file: 'src/console/runtime/Probe.tsx',
    forbidden: ['../../server/app.ts', '../../engine/dispatcher.ts', '../../sandbox/smsc/server.ts', '../../../generators/model.ts', 'node:fs', 'kysely'],
    allowed: ['../../core/sms.ts', '../../generated/routes.gen.ts', 'react'],
  },
  {
    part: 'server (core, generated, engine; never React or the console)',
    file: 'src/server/modules/probe/index.ts',
    forbidden: ['../../../console/App.tsx', 'react', '@mui/material/Button', '../../../generated/routes.gen.ts', '../../../sandbox/smsc/server.ts'],
    allowed: ['../../../core/sms.ts', '../../../generated/types.gen.ts', '../../../engine/dispatcher.ts', 'fastify'],
  },
  {
    part: 'server reaches an engine room (a folder of src/engine) only through its index.ts',
    file: 'src/server/messaging/probe.ts',
    forbidden: ['../../engine/lifecycle/rollups.ts', '../../engine/channels/registry.ts', '../../engine/channels/whatsapp/index.ts'],
    allowed: ['../../engine/lifecycle/index.ts', '../../engine/channels/index.ts', '../../engine/credits.ts'],
  },
  {
    part: 'server composition root (may wire the sandbox)',
    file: 'src/server/composition.ts',
    forbidden: ['../console/App.tsx', 'react', '../engine/payments/epayco.ts'],
    allowed: ['../sandbox/smsc/server.ts', './context.ts', '../engine/payments/index.ts'],
  },
  {
    part: 'engine (core, generated; never the server, the console or the sandbox)',
    file: 'src/engine/probe.ts',
    forbidden: ['../server/app.ts', '../server/db/schema.ts', '../sandbox/smsc/server.ts', '../console/App.tsx', 'react'],
    allowed: ['../core/sms.ts', '../generated/types.gen.ts', './message-states.ts', 'kysely'],
  },
  {
    part: 'sandbox (core, the engine\'s protocol codecs)',
    file: 'src/sandbox/smsc/probe.ts',
    forbidden: ['../../server/app.ts', '../../console/App.tsx', '../../engine/dispatcher.ts', '../../engine/channels/sms/adapter.ts', 'react'],
    allowed: ['../../core/sms.ts', '../../engine/channels/sms/wire.ts', '../../engine/channels/shared/meta-signature.ts', '../../engine/channels/rcs/webhook.ts', 'node:net'],
  },
  {
    part: 'core (nothing with I/O)',
    file: 'src/core/probe.ts',
    forbidden: ['node:fs', 'pg', 'kysely', 'react', '../server/app.ts', '../engine/dispatcher.ts', '../console/App.tsx', '../sandbox/smsc/server.ts'],
    allowed: ['./sms.ts', '../generated/types.gen.ts'],
  },
  {
    part: 'generated (core and itself)',
    file: 'src/generated/probe.gen.ts',
    forbidden: ['../console/runtime/screens/FormScreen.tsx', '../server/app.ts', '../engine/dispatcher.ts', '../sandbox/smsc/server.ts', '../../generators/model.ts'],
    allowed: ['../core/sms.ts', './types.gen.ts', './screen.signin.gen.ts'],
  },
  {
    part: 'generators (nothing under src/)',
    file: 'generators/emit/probe.ts',
    forbidden: ['../../src/core/sms.ts', '../../src/generated/types.gen.ts', '../../src/console/App.tsx'],
    allowed: ['../model.ts', '../ts.ts', 'typescript'],
  },
];

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ overrideConfigFile: 'eslint.config.js' });
});

async function boundaryMessages(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.ruleId !== null && BOUNDARY_RULES.has(m.ruleId)).map((m) => m.message);
}

describe('import boundaries (ARCHITECTURE §2) are lint rules', () => {
  describe.each(boundaries)('$part', ({ file, forbidden, allowed }) => {
    it.each(forbidden)('reports an import of %s', async (from) => {
      expect(await boundaryMessages(staticImport(from), file)).not.toEqual([]);
    });
    it.each(allowed)('allows an import of %s', async (from) => {
      expect(await boundaryMessages(staticImport(from), file)).toEqual([]);
    });
  });

  // The route table used to import console renderers lazily; import() is checked too.
  it('reports a dynamic import that leaves src/generated for anything but src/core', async () => {
    expect(await boundaryMessages(dynamicImport('../console/runtime/screens/FormScreen.tsx'), 'src/generated/routes.gen.ts')).not.toEqual([]);
    expect(await boundaryMessages(dynamicImport('./screen.signin.gen.ts'), 'src/generated/routes.gen.ts')).toEqual([]);
  });

  it('reports a dynamic import from the server into an engine room other than its index.ts', async () => {
    expect(await boundaryMessages(dynamicImport('../../engine/lifecycle/rollups.ts'), 'src/server/messaging/probe.ts')).not.toEqual([]);
    expect(await boundaryMessages(dynamicImport('../../engine/lifecycle/index.ts'), 'src/server/messaging/probe.ts')).toEqual([]);
    expect(await boundaryMessages(dynamicImport('../../engine/credits.ts'), 'src/server/messaging/probe.ts')).toEqual([]);
  });
});
