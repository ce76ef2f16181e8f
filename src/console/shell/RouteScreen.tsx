// One route of the table: records the component for the request headers, checks the menu
// permission and renders the lazily loaded screen renderer for the route's kind.
import { Component, lazy, Suspense, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import { useTranslation } from 'react-i18next';
import { routes } from '../../generated/routes.gen.ts';
import { getComponent, setComponent } from '../api/component.ts';
import { withChunkReload } from '../app/chunk-reload.ts';
import type { ScreenProps } from '../runtime/screen-types.ts';
import { MenuGate } from './guards.tsx';
import type { AppRoute } from './route-info.ts';

const screensByKind = new Map<string, LazyExoticComponent<ComponentType<ScreenProps>>>();
for (const r of routes) {
  if (!screensByKind.has(r.kind)) screensByKind.set(r.kind, lazy(withChunkReload(r.load as () => Promise<{ default: ComponentType<ScreenProps> }>)));
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
  const Screen = screensByKind.get(route.kind)!;
  return (
    <MenuGate menuKey={route.access === 'session' ? route.menuKey : null}>
      <ScreenBoundary>
        <Suspense fallback={<LinearProgress />}>
          <Screen screenId={route.screen} menuKey={route.menuKey} />
        </Suspense>
      </ScreenBoundary>
    </MenuGate>
  );
}
