// Every story renders inside the app's providers (MUI theme, i18n, a fresh SWR cache) and a
// memory router; `parameters` set the stored session, local storage and a stubbed API (no
// network). A toolbar switches the locale.
import type { Preview } from '@storybook/react-vite';
import { AppProviders } from '../src/console/app/providers.tsx';
import { setLanguage, type Language } from '../src/console/app/i18n.ts';
import { clearExpiredFlag, operationsReady } from '../src/console/api/transport.ts';
import { sessionChanged } from '../src/console/api/session.ts';
import { storageKeys } from '../src/console/api/storage.ts';
import { resetAction, setComponent } from '../src/console/api/component.ts';
import { dismissNotice } from '../src/console/app/notify.tsx';
import { encodeSession } from '../src/core/session-codec.ts';
import type { SessionUser } from '../src/generated/types.gen.ts';
import { installStubApi, type Handlers } from '../src/console/stories/stub-api.ts';
import { StoryRouter, type StoryRoute } from '../src/console/stories/StoryRouter.tsx';
import { provideScreens, type ScreenDef } from '../src/console/runtime/screen-types.ts';
import { screens } from '../src/generated/screens.gen.ts';
import { installNavigation } from '../src/console/runtime/navigation.tsx';
import { routerNavigation } from '../src/console/app/router-navigation.ts';

// Stories render inside a memory router (StoryRouter): the runtime reads it through its seam.
installNavigation(routerNavigation);

// Stories name screens by id; in the product each route hands its screen to the renderer.
provideScreens(screens as unknown as Record<string, ScreenDef>);

export interface ConsoleParameters {
  session?: SessionUser | null;
  storage?: Record<string, string>;
  api?: Handlers;
  route?: StoryRoute;
}

const preview: Preview = {
  parameters: { layout: 'fullscreen' },
  globalTypes: {
    locale: {
      description: 'Language',
      toolbar: { title: 'Idioma', icon: 'globe', items: [{ value: 'es', title: 'Español' }, { value: 'en', title: 'English' }], dynamicTitle: true },
    },
  },
  initialGlobals: { locale: 'es' },
  beforeEach: async ({ parameters, globals }) => {
    const p = parameters as ConsoleParameters;
    localStorage.clear();
    sessionStorage.clear();
    if (p.session) localStorage.setItem(storageKeys.clientToken, encodeSession(p.session));
    for (const [k, v] of Object.entries(p.storage ?? {})) localStorage.setItem(k, v);
    clearExpiredFlag();
    dismissNotice();
    setComponent({ id: null, name: null });
    resetAction();
    sessionChanged();
    installStubApi(p.api ?? {});
    // As a route of the console waits for them: every string and the operation table.
    await Promise.all([setLanguage(((globals.locale as string) ?? 'es') as Language, false), operationsReady()]);
  },
  decorators: [
    (Story, { parameters }) => (
      <AppProviders swr={{ provider: () => new Map(), dedupingInterval: 0 }}>
        <StoryRouter route={(parameters as ConsoleParameters).route}>
          <Story />
        </StoryRouter>
      </AppProviders>
    ),
  ],
};

export default preview;
