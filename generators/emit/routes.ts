// The route table, plain data: each path names its screen, the screen's kind ('none' for a menu
// node without a screen) and a loader for the screen's own compiled module (generated code, so
// the table imports nothing outside src/generated). The console's screen registry
// (src/console/runtime/screen-registry.ts) maps the kind to its lazily loaded renderer, so the
// first load carries only the sign-in path and its screen. A list that names a `form`
// gets `…/new` and `…/:id/edit` (the form's create and edit modes); a list that names a `detail`
// (or a form with `view: true`) gets `…/:id` for the read-only record. `firstLoad`: the route's
// screen renders without waiting for the deferred strings (src/console/app/i18n.ts).
import type { Model, Screen } from '../model.ts';
import { f, ts, printFile, toExpr, raw, exportConst } from '../ts.ts';

/** `() => import('./screen.<id>.gen.ts')`, or null for a menu node without a screen. */
const screenModule = (id: string | null) => (id ? raw(f.createArrowFunction(undefined, undefined, [], undefined, f.createToken(ts.SyntaxKind.EqualsGreaterThanToken),
  f.createCallExpression(f.createToken(ts.SyntaxKind.ImportKeyword) as unknown as ts.Expression, undefined, [f.createStringLiteral(`./screen.${id}.gen.ts`)]))) : null);

function routeEntries(model: Model): Record<string, unknown>[] {
  const byId = new Map<string, Screen>(model.screens.map((s) => [s.id, s]));
  const kindOf = (screenId: string | null) => (screenId ? (byId.get(screenId)!.kind as string) : 'none');
  const routes: Record<string, unknown>[] = [];
  for (const s of model.screens) {
    if (!s.route) continue;
    routes.push({ path: s.route, screen: s.id, kind: s.kind, access: s.access ?? 'session', layout: s.layout ?? 'default', menuKey: null, componentId: null, title: s.title, firstLoad: s.firstLoad === true, loadScreen: screenModule(s.id) });
  }
  for (const n of model.menu) {
    const at = (path: string, screen: string | null) => ({
      path, screen, kind: kindOf(screen), access: 'session', layout: 'default', menuKey: n.key, componentId: n.componentId,
      title: screen ? (byId.get(screen)!.title as string) : null, firstLoad: false, loadScreen: screenModule(screen),
    });
    routes.push(at(n.path, n.screen));
    const screen = n.screen ? byId.get(n.screen) : undefined;
    const form = screen?.kind === 'list' && typeof screen.form === 'string' ? byId.get(screen.form) : undefined;
    const detail = screen?.kind === 'list' && typeof screen.detail === 'string' ? (screen.detail as string) : form?.view ? form.id : undefined;
    if (form) {
      routes.push(at(`${n.path}/new`, form.id));
      if (form.edit) routes.push(at(`${n.path}/:id/edit`, form.id));
    }
    if (detail) routes.push(at(`${n.path}/:id`, detail));
    else if (!n.noId) routes.push(at(`${n.path}/:id`, n.screen));
  }
  return routes;
}

export function emitRoutes(model: Model): string {
  return printFile([exportConst('routes', toExpr(routeEntries(model)))]);
}

/**
 * What a first-load page needs: the routes drawn without the rest of the console (the
 * sign-in: src/console/app/FirstLoadPage.tsx) and their default-language strings
 * (generators/i18n.ts firstLoadStrings), so the page carries neither the route table nor whole
 * locale namespaces.
 */
export function emitFirstLoad(model: Model, strings: Record<string, Record<string, string>>): string {
  return printFile([
    exportConst('firstLoadRoutes', toExpr(routeEntries(model).filter((r) => r.firstLoad === true))),
    exportConst('firstLoadStrings', toExpr(strings)),
  ]);
}
