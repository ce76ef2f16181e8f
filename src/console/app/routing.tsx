// The router: built from the generated route table (src/generated/routes.gen.ts), grouped by
// layout, each group behind its access gate. The shell layouts load lazily so the first load
// for /signin carries only the plain layout and the form runtime.
import { lazy, Suspense, useEffect, type ReactElement } from 'react';
import { Outlet, useNavigate, type RouteObject } from 'react-router-dom';
import { routes } from '../../generated/routes.gen.ts';
import { appSettings } from '../../generated/app.gen.ts';
import { onSessionExpired } from '../api/transport.ts';
import { HomeRedirect, SessionGate } from '../shell/guards.tsx';
import PlainLayout from '../shell/layouts/PlainLayout.tsx';
import { Loading } from '../shell/Loading.tsx';
import { NotFound } from '../shell/NotFound.tsx';
import { OfflineIndicator } from '../shell/OfflineIndicator.tsx';
import type { AppRoute, RouteHandle } from '../shell/route-info.ts';
import { RouteScreen } from '../shell/RouteScreen.tsx';
import { withChunkReload } from './chunk-reload.ts';
import { stringsReady } from './i18n.ts';
import { Notifier } from './notify.tsx';

// The session layouts show the menu and the screens' strings, which the sign-in's first load does
// not carry: each waits for every string of the language (stringsReady) as its screens do.
const DefaultLayout = lazy(withChunkReload(() => Promise.all([import('../shell/layouts/DefaultLayout.tsx'), stringsReady()]).then(([layout]) => layout)));
const ReducedLayout = lazy(withChunkReload(() => Promise.all([import('../shell/layouts/ReducedLayout.tsx'), stringsReady()]).then(([layout]) => layout)));

/** Registers the router's navigation for the 401 rule, and hosts app-wide notices. */
export function AppFrame() {
  const navigate = useNavigate();
  useEffect(() => onSessionExpired(() => void navigate('/signin?expired=true', { replace: true })), [navigate]);
  return (
    <>
      <Outlet />
      <Notifier />
      <OfflineIndicator />
    </>
  );
}

// Keyed by path: another route mounts its own loading boundary, so while its screen loads the
// progress bar shows, not the previous screen (whose buttons would still take clicks).
const leaf = (route: AppRoute): RouteObject => ({ path: route.path, element: <RouteScreen key={route.path} route={route} />, handle: { route } satisfies RouteHandle });

/** A lazily loaded layout behind its session gate, holding its group of routes. */
function gated(mode: 'full' | 'reduced', layout: ReactElement, children: RouteObject[]): RouteObject {
  return {
    element: (
      <SessionGate mode={mode}>
        <Suspense fallback={<Loading />}>{layout}</Suspense>
      </SessionGate>
    ),
    children,
  };
}

export function appRoutes(table: readonly AppRoute[] = routes): RouteObject[] {
  const group = (pred: (r: AppRoute) => boolean) => table.filter(pred).map(leaf);
  const isPublic = (r: AppRoute) => r.access === 'public';
  const session = (layout: string) => (r: AppRoute) => r.access === 'session' && r.layout === layout;
  return [
    {
      element: <AppFrame />,
      children: [
        { index: true, element: <HomeRedirect /> },
        { element: <PlainLayout><Outlet /></PlainLayout>, children: group(isPublic) },
        {
          element: (
            <SessionGate mode="full">
              <PlainLayout>
                <Outlet />
              </PlainLayout>
            </SessionGate>
          ),
          children: group(session('plain')),
        },
        gated('reduced', <ReducedLayout />, group(session('reduced'))),
        gated('full', <DefaultLayout menuWidth={appSettings.layouts.default.menuWidth} />, group(session('default'))),
        gated('full', <DefaultLayout menuWidth={appSettings.layouts.second.menuWidth} />, group(session('second'))),
        { path: '*', element: <NotFound /> },
      ],
    },
  ];
}
