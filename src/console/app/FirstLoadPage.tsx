// A first-load page: the sign-in, opened directly, is drawn without the router, the
// route table, the shell or the other screens: the same declaration, form renderer and plain
// layout as in the console, with the browser's own navigation (page-navigation.tsx). Wherever the
// person goes from here — signed in, or a link to register — is a page load into the full console.
import { OfflineIndicator } from '../shell/OfflineIndicator.tsx';
import PlainLayout from '../shell/layouts/PlainLayout.tsx';
import type { AppRoute } from '../shell/route-info.ts';
import { RouteScreen } from '../shell/RouteScreen.tsx';
import { installNavigation } from '../runtime/navigation.tsx';
import { Notifier } from './notify.tsx';
import { pageNavigation } from './page-navigation.tsx';
import { AppProviders } from './providers.tsx';

export default function FirstLoadPage({ route }: { route: AppRoute }) {
  return (
    <AppProviders>
      <PlainLayout>
        <RouteScreen route={route} />
      </PlainLayout>
      <Notifier />
      <OfflineIndicator />
    </AppProviders>
  );
}

/** The page's navigation, installed before its first render. */
export function installPageNavigation(route: AppRoute): void {
  installNavigation(pageNavigation([{ route }]));
}
