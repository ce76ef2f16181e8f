// A `kind: feature` declaration: one of the hand-written screens (src/console/features/registry.ts),
// loaded with its route. The declaration still gives its title, route and menu node.
import { lazy, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import CircularProgress from '@mui/material/CircularProgress';
import { withChunkReload } from '../../app/chunk-reload.ts';
import { features } from '../../features/registry.ts';
import { resolveScreen, type ScreenProps } from '../screen-types.ts';
import NotAvailableScreen from './NotAvailableScreen.tsx';

export default function FeatureScreen(props: ScreenProps) {
  const { t } = useTranslation();
  const screen = resolveScreen(props);
  const name = screen?.kind === 'feature' ? screen.feature : undefined;
  const Feature = useMemo(() => (name ? lazy(withChunkReload(features[name])) : null), [name]);
  if (!screen || !Feature) return <NotAvailableScreen screenId={props.screenId} menuKey={props.menuKey} />;
  return (
    <Suspense fallback={<CircularProgress aria-label={t('common.loading')} />}>
      <Feature {...props} screen={screen} />
    </Suspense>
  );
}
