// The route table: each path points to its screen and a lazily imported renderer for the
// screen's kind, so the first load carries only the sign-in path.
import type { Model } from '../model.ts';
import { f, ts, printFile, toExpr, raw, exportConst } from '../ts.ts';

const RENDERERS: Record<string, string> = {
  form: '../console/runtime/screens/FormScreen.tsx',
  message: '../console/runtime/screens/MessageScreen.tsx',
  list: '../console/runtime/screens/ListScreen.tsx',
  dashboard: '../console/runtime/screens/DashboardScreen.tsx',
  none: '../console/runtime/screens/NotAvailableScreen.tsx',
};

const lazy = (kind: string) => raw(f.createArrowFunction(undefined, undefined, [], undefined, f.createToken(ts.SyntaxKind.EqualsGreaterThanToken),
  f.createCallExpression(f.createToken(ts.SyntaxKind.ImportKeyword) as unknown as ts.Expression, undefined, [f.createStringLiteral(RENDERERS[kind])])));

export function emitRoutes(model: Model): string {
  const kindOf = (screenId: string | null) => (screenId ? (model.screens.find((s) => s.id === screenId)!.kind as string) : 'none');
  const routes: Record<string, unknown>[] = [];
  for (const s of model.screens) {
    if (!s.route) continue;
    routes.push({ path: s.route, screen: s.id, kind: s.kind, access: s.access ?? 'session', layout: s.layout ?? 'default', menuKey: null, componentId: null, load: lazy(s.kind as string) });
  }
  for (const n of model.menu) {
    const kind = kindOf(n.screen);
    routes.push({ path: n.path, screen: n.screen, kind, access: 'session', layout: 'default', menuKey: n.key, componentId: n.componentId, load: lazy(kind) });
    if (!n.noId) routes.push({ path: `${n.path}/:id`, screen: n.screen, kind, access: 'session', layout: 'default', menuKey: n.key, componentId: n.componentId, load: lazy(kind) });
  }
  return printFile([exportConst('routes', toExpr(routes))]);
}
