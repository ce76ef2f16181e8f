// The console: providers and the history-mode router built from the route table.
import { useState } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { AppProviders } from './app/providers.tsx';
import { appRoutes } from './app/routing.tsx';

export default function App() {
  const [router] = useState(() => createBrowserRouter(appRoutes()));
  return (
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
