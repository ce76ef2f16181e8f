// The navigation of a first-load page (the sign-in, app/FirstLoadPage.tsx): the page is the one route
// it was opened at, so its location is the browser's, its parameters none, and going anywhere else
// is a page load into the full console (which then brings the router and the other screens).
// Nothing is ever held: a first-load page has no unsaved work to lose but what the person typed,
// and the browser asks before leaving a dirty form (the dirty guard's beforeunload).
import { forwardRef } from 'react';
import type { Blocker, NavigationHooks, RouteLinkProps, SetSearchParams } from '../runtime/navigation.tsx';

const NOTHING_HELD: Blocker = { state: 'unblocked' };
const NO_PARAMS = Object.freeze({});
let searched: [string, URLSearchParams] = ['', new URLSearchParams()];

/** The query, one object while it does not change (as react-router's). */
function searchParams(): URLSearchParams {
  if (searched[0] !== window.location.search) searched = [window.location.search, new URLSearchParams(window.location.search)];
  return searched[1];
}

const go = (to: string, options?: { replace?: boolean }) => (options?.replace ? window.location.replace(to) : window.location.assign(to));

const setSearchParams: SetSearchParams = (next, options) => {
  const query = typeof next === 'function' ? next(searchParams()) : next;
  go(`${window.location.pathname}?${query.toString()}`, options);
};

const PageLink = forwardRef<HTMLAnchorElement, RouteLinkProps>(function PageLink({ to, replace: _replace, ...props }, ref) {
  return <a ref={ref} href={to} {...props} />;
});

export function pageNavigation(handles: readonly unknown[]): NavigationHooks {
  return {
    useLocation: () => ({ pathname: window.location.pathname, search: window.location.search }),
    useParams: () => NO_PARAMS,
    useSearchParams: () => [searchParams(), setSearchParams] as const,
    useNavigate: () => go,
    useBlocker: () => NOTHING_HELD,
    useRouteHandles: () => handles,
    Link: PageLink,
  };
}
