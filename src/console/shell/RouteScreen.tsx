// One route of the table: records the component for the request headers, checks the menu
// permission and renders the lazily loaded screen renderer for the route's kind (from the
// console's screen registry) with the route's compiled screen (its own module, loaded with it) and,
// but for the sign-in page, the deferred strings and the operation table.
import { Component, createElement, lazy, Suspense, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { getComponent, setComponent } from '../api/component.ts';
import { withChunkReload } from '../app/chunk-reload.ts';
import { stringsReady } from '../app/i18n.ts';
import { operationsReady } from '../api/transport.ts';
import { screenRenderers } from '../runtime/screen-registry.ts';
import type { ScreenDef, ScreenProps } from '../runtime/screen-types.ts';
import { MenuGate } from './guards.tsx';
import { Loading } from './Loading.tsx';
import type { AppRoute } from './route-info.ts';

const screensByRoute = new Map<string, LazyExoticComponent<ComponentType<ScreenProps>>>();

/** The renderer for a route with its screen handed in; both load on the route's first visit. */
function screenFor(route: AppRoute): LazyExoticComponent<ComponentType<ScreenProps>> {
  const key = `${route.kind}|${route.screen ?? ''}`;
  let screen = screensByRoute.get(key);
  if (!screen) {
    const loadScreen = route.loadScreen as (() => Promise<{ screen: unknown }>) | null;
    const load = () =>
      Promise.all([screenRenderers[route.kind](), loadScreen ? loadScreen() : null, route.firstLoad ? null : stringsReady(), route.firstLoad ? null : operationsReady()]).then(([renderer, compiled]) => ({
        default: (props: ScreenProps) => createElement(renderer.default, { ...props, screen: compiled?.screen as ScreenDef | undefined }),
      }));
    screen = lazy(withChunkReload(load));
    screensByRoute.set(key, screen);
  }
  return screen;
}

function ScreenError({ error }: { error: Error }) {
  const { t } = useTranslation();
  return (
    <Alert severity="error" action={<Button color="inherit" onClick={() => window.location.reload()}>{t('common.reload')}</Button>}>
      {t('shell.screenError')} {error.message}
    </Alert>
  );
}

class ScreenBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override render() {
    return this.state.error ? <ScreenError error={this.state.error} /> : this.props.children;
  }
}

export function RouteScreen({ route }: { route: AppRoute }) {
  const current = getComponent();
  if (current.id !== route.componentId || current.name !== route.menuKey) setComponent({ id: route.componentId, name: route.menuKey, action: 'view' });
  const Screen = screenFor(route);
  return (
    <MenuGate menuKey={route.access === 'session' ? route.menuKey : null} screenless={!route.screen}>
      <ScreenBoundary>
        <Suspense fallback={<Loading />}>
          <Screen screenId={route.screen} menuKey={route.menuKey} />
        </Suspense>
      </ScreenBoundary>
    </MenuGate>
  );
}
