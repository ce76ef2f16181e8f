// Builds the model and every artefact in memory; the CLI writes them or checks them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildModel } from './model.ts';
import { emitTypes } from './emit/types.ts';
import { emitEnums } from './emit/enums.ts';
import { emitOperations, emitServerOperations, emitMenu, emitErrors, emitConstants, emitApp, emitI18nKeys, emitOpenApi } from './emit/tables.ts';
import { emitScreens, emitScreenModules } from './emit/screens.ts';
import { emitFirstLoad, emitRoutes } from './emit/routes.ts';
import { emitScreenTypes } from './emit/screen-types.ts';
import { emitClient } from './emit/client.ts';
import { checkLocales, firstLoadStrings } from './i18n.ts';

export interface Output { files: Map<string, string>; localeProblems: string[] }

export async function generate(root: string): Promise<Output> {
  const model = buildModel(root);
  const { problems, keys } = checkLocales(model);
  const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: string }).version ?? '0.0.0';
  const files = new Map<string, string>([
    ['enums.gen.ts', emitEnums(model)],
    ['types.gen.ts', await emitTypes(model)],
    ['operations.gen.ts', emitOperations(model)],
    ['server-operations.gen.ts', emitServerOperations(model)],
    ['client.gen.ts', emitClient(model)],
    ['menu.gen.ts', emitMenu(model)],
    ['routes.gen.ts', emitRoutes(model)],
    ['screens.gen.ts', emitScreens(model)],
    ['screen-types.gen.ts', emitScreenTypes(model)],
    ['errors.gen.ts', emitErrors(model)],
    ['constants.gen.ts', emitConstants(model)],
    ['app.gen.ts', emitApp(model)],
    ['i18n-keys.gen.ts', emitI18nKeys(keys)],
    ['first-load.gen.ts', emitFirstLoad(model, firstLoadStrings(model))],
    ['openapi.gen.json', emitOpenApi(model, version)],
  ]);
  for (const [name, content] of emitScreenModules(model)) files.set(name, content);
  return { files, localeProblems: problems };
}
