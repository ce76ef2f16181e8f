// Browser entry: the HTTP transport for the generated client, chunk-failure reload, and the app —
// the whole console, or, for a first-load route opened directly (the sign-in), that one page
// without the router and the other screens (app/FirstLoadPage.tsx).
import { StrictMode, type ReactElement } from 'react';
import { createRoot } from 'react-dom/client';
import { firstLoadRoutes } from '../generated/first-load.gen.ts';
import { i18n, languageReady } from './app/i18n.ts';
import { installChunkReload, withChunkReload } from './app/chunk-reload.ts';
import { installTransport } from './api/transport.ts';
import type { AppRoute } from './shell/route-info.ts';

installTransport({ baseUrl: import.meta.env.VITE_API_URL ?? '', language: () => i18n.language });
installChunkReload();

const firstLoad = (firstLoadRoutes as readonly AppRoute[]).find((r) => r.path === window.location.pathname);

async function page(): Promise<ReactElement> {
  if (firstLoad) {
    const { default: FirstLoadPage, installPageNavigation } = await withChunkReload(() => import('./app/FirstLoadPage.tsx'))();
    installPageNavigation(firstLoad);
    return <FirstLoadPage route={firstLoad} />;
  }
  const { default: App } = await withChunkReload(() => import('./App.tsx'))();
  return <App />;
}

// A saved language other than the default loads its files first, so no text shows in Spanish first.
void Promise.all([page(), languageReady().catch(() => undefined)]).then(([element]) =>
  createRoot(document.getElementById('root')!).render(<StrictMode>{element}</StrictMode>),
);
