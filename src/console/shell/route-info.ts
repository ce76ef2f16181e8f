// The route table entry of the page being shown, as the layouts see it (router `handle`).
import { useRouteHandles } from '../runtime/navigation.tsx';
import { menuNodes } from '../../generated/menu.gen.ts';
import type { routes } from '../../generated/routes.gen.ts';
import type { MenuNode } from './home.ts';

export type AppRoute = (typeof routes)[number];
export interface RouteHandle { route: AppRoute }

export function useCurrentRoute(): AppRoute | undefined {
  const handles = useRouteHandles();
  for (let i = handles.length - 1; i >= 0; i--) {
    const handle = handles[i] as RouteHandle | undefined;
    if (handle?.route) return handle.route;
  }
  return undefined;
}

export function useCurrentNode(): MenuNode | undefined {
  const route = useCurrentRoute();
  return route?.menuKey ? menuNodes.find((n) => n.key === route.menuKey) : undefined;
}
