// Every error answer's words name their limits ("at most 10 parts"), filled from the one list the
// console also fills its translations from (core/text-limits.ts): no catalogue text ever reaches a
// person with an unfilled {{placeholder}}, in either language.
import { describe, expect, it } from 'vitest';
import { serverErrors } from '../../src/generated/errors.gen.ts';
import { wordsFor } from '../../src/server/i18n/document-words.ts';
import { catalogueMessage } from '../../src/server/errors/messages.ts';

/** "Variables are written {{name}}" ("se escriben {{nombre}}") shows how to write a variable: the braces are the text. */
const WRITTEN_AS_SHOWN = /\{\{(name|nombre)\}\}/g;

describe('catalogue words', () => {
  it('fill every limit they name, in English and Spanish', () => {
    for (const code of Object.keys(serverErrors)) {
      expect(catalogueMessage(code).replace(WRITTEN_AS_SHOWN, ''), code).not.toMatch(/\{\{/);
      expect((wordsFor('es').errorText(code) ?? '').replace(WRITTEN_AS_SHOWN, ''), code).not.toMatch(/\{\{/);
    }
    expect(catalogueMessage('99903')).toContain('at most 10 parts');
    expect(wordsFor('es').errorText('99903')).toContain('como máximo 10 partes');
  });
});
