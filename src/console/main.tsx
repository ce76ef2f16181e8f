// Browser entry: the HTTP transport for the generated client, chunk-failure reload, and the app.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { i18n, languageReady } from './app/i18n.ts';
import { installChunkReload } from './app/chunk-reload.ts';
import { installTransport } from './api/transport.ts';
import App from './App.tsx';

installTransport({ baseUrl: import.meta.env.VITE_API_URL ?? '', language: () => i18n.language });
installChunkReload();

// A saved language other than the default loads its files first, so no text shows in Spanish first.
void languageReady().finally(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
