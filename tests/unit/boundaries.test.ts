// The import boundaries of ARCHITECTURE.md §2 are enforced by lint; this proves the rule fires.
import { describe, it, expect } from 'vitest';
import { ESLint } from 'eslint';

const eslint = new ESLint();
async function ruleIds(code: string, filePath: string) {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.map((m) => m.ruleId);
}

describe('import boundaries', () => {
  it('the console may not import the server', async () => {
    expect(await ruleIds("import { buildServer } from '../server/app.ts';\nexport const x = buildServer;\n", 'src/console/x.ts')).toContain('no-restricted-imports');
  });
  it('the server may not import React', async () => {
    expect(await ruleIds("import { useState } from 'react';\nexport const x = useState;\n", 'src/server/x.ts')).toContain('no-restricted-imports');
  });
  it('core may not do I/O', async () => {
    expect(await ruleIds("import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n", 'src/core/x.ts')).toContain('no-restricted-imports');
  });
  it('only the composition root of the server imports the sandbox', async () => {
    const code = "import { sandboxCaptchaVerifier } from '../sandbox/captcha.ts';\nexport const x = sandboxCaptchaVerifier;\n";
    expect(await ruleIds(code, 'src/server/app.ts')).toContain('no-restricted-imports');
    expect(await ruleIds(code, 'src/server/composition.ts')).not.toContain('no-restricted-imports');
  });
  it('the console may import core and generated code', async () => {
    expect(await ruleIds("import { can } from '../core/permissions.ts';\nexport const x = can;\n", 'src/console/x.ts')).not.toContain('no-restricted-imports');
  });
});
