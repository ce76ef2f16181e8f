// The route table entry of the page being shown, as the layouts see it (router `handle`).
import { useMatches } from 'react-router-dom';
import { menuNodes } from '../../generated/menu.gen.ts';
import type { routes } from '../../generated/routes.gen.ts';
import type { MenuNode } from './home.ts';

export type AppRoute = (typeof routes)[number];
export interface RouteHandle { route: AppRoute }

export function useCurrentRoute(): AppRoute | undefined {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i].handle as RouteHandle | undefined;
    if (handle?.route) return handle.route;
  }
  return undefined;
}

export function useCurrentNode(): MenuNode | undefined {
  const route = useCurrentRoute();
  return route?.menuKey ? menuNodes.find((n) => n.key === route.menuKey) : undefined;
}
