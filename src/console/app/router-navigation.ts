// The console's navigation: react-router's hooks behind the runtime's seam (runtime/navigation.tsx).
import { Link, useBlocker, useLocation, useMatches, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import type { NavigationHooks } from '../runtime/navigation.tsx';

export const routerNavigation: NavigationHooks = {
  useLocation,
  useParams,
  useSearchParams,
  useNavigate,
  useBlocker,
  useRouteHandles: () => useMatches().map((m) => m.handle),
  Link,
};
