// The router a story renders in: the whole app's routes (`app: true`) or just the story at a
// path, plus a probe that shows where navigation went (for play functions and tests).
import { useState, type ReactNode } from 'react';
import { createMemoryRouter, Outlet, RouterProvider, useLocation, type RouteObject } from 'react-router-dom';
import { routes } from '../../generated/routes.gen.ts';
import { Notifier } from '../app/notify.tsx';
import { appRoutes } from '../app/routing.tsx';

export interface StoryRoute {
  /** Initial URL. */
  path?: string;
  /** The route pattern the story is mounted at (gives layouts their route handle). */
  pattern?: string;
  /** Render the real app routes (guards, layouts, lazy screens) instead of the story. */
  app?: boolean;
}

export function LocationProbe() {
  const { pathname, search } = useLocation();
  return (
    <output data-testid="location" hidden>
      {pathname + search}
    </output>
  );
}

export function StoryRouter({ route = {}, children }: { route?: StoryRoute; children: ReactNode }) {
  const [router] = useState(() => {
    const initialEntries = [route.path ?? route.pattern ?? '/'];
    const probe = (
      <>
        <Outlet />
        <LocationProbe />
      </>
    );
    if (route.app) return createMemoryRouter([{ element: probe, children: appRoutes() }], { initialEntries });
    const withNotices = (
      <>
        {probe}
        <Notifier />
      </>
    );
    const table = routes.find((r) => r.path === route.pattern);
    const objects: RouteObject[] = [
      { path: route.pattern ?? '*', element: children, handle: table ? { route: table } : undefined },
      ...(route.pattern ? [{ path: '*', element: null }] : []),
    ];
    return createMemoryRouter([{ element: withNotices, children: objects }], { initialEntries });
  });
  return <RouterProvider router={router} />;
}
