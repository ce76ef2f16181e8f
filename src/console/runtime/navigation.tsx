// The router as the runtime sees it: where the page is, its parameters, how to go elsewhere, how
// to hold a navigation and how to link. The runtime's screens, the features and the plain layout
// read the router through these hooks and never through react-router (lint holds it), so that the
// sign-in's first load does not carry the router.
// The entry installs one implementation before the first render, as it installs the transport:
// react-router's in the console (app/router-navigation.ts), the browser's own on a first-load
// page (app/page-navigation.tsx), where any navigation is a page load into the full console.
import { forwardRef, useEffect, type AnchorHTMLAttributes, type ComponentType, type ReactNode, type Ref } from 'react';

export interface NavigateOptions { replace?: boolean }
export type Navigate = (to: string, options?: NavigateOptions) => void;
/** Replaces the query (react-router's setSearchParams): a navigation to the same path. */
export type SetSearchParams = (next: URLSearchParams | ((previous: URLSearchParams) => URLSearchParams), options?: NavigateOptions) => void;

/** A navigation held by the dirty guard: 'blocked' until the person stays or leaves. */
export type Blocker =
  | { state: 'blocked'; reset(): void; proceed(): void }
  | { state: 'unblocked' | 'proceeding'; reset?: undefined; proceed?: undefined };
export type BlockWhen = (args: { currentLocation: { pathname: string }; nextLocation: { pathname: string } }) => boolean;

export interface RouteLinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  to: string;
  replace?: boolean;
  children?: ReactNode;
}

export interface NavigationHooks {
  useLocation(): { pathname: string; search: string };
  useParams(): Readonly<Record<string, string | undefined>>;
  useSearchParams(): readonly [URLSearchParams, SetSearchParams];
  useNavigate(): Navigate;
  useBlocker(when: BlockWhen): Blocker;
  /** The handles of the matched routes, outermost first (the route table's entry is one). */
  useRouteHandles(): readonly unknown[];
  Link: ComponentType<RouteLinkProps & { ref?: Ref<HTMLAnchorElement> }>;
}

let installed: NavigationHooks | null = null;

export function installNavigation(hooks: NavigationHooks): void {
  installed = hooks;
}

function hooks(): NavigationHooks {
  if (!installed) throw new Error('navigation not installed: call installNavigation() first');
  return installed;
}

export const useLocation = () => hooks().useLocation();
export const useParams = () => hooks().useParams();
export const useSearchParams = () => hooks().useSearchParams();
export const useNavigate = () => hooks().useNavigate();
export const useBlocker = (when: BlockWhen) => hooks().useBlocker(when);
export const useRouteHandles = () => hooks().useRouteHandles();

/** Goes to `to` in place of the current entry once rendered (react-router's <Navigate replace>). */
export function Redirect({ to }: { to: string }) {
  const navigate = useNavigate();
  useEffect(() => {
    navigate(to, { replace: true });
  }, [navigate, to]);
  return null;
}

/** A link to a console path, for MUI's `component` prop (`<Button component={RouteLink} to=…>`). */
export const RouteLink = forwardRef<HTMLAnchorElement, RouteLinkProps>(function RouteLink(props, ref) {
  const Link = hooks().Link;
  return <Link ref={ref} {...props} />;
});
