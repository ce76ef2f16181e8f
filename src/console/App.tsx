// The console: providers and the history-mode router built from the route table.
import { useState } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { AppProviders } from './app/providers.tsx';
import { appRoutes } from './app/routing.tsx';
import { routerNavigation } from './app/router-navigation.ts';
import { installNavigation } from './runtime/navigation.tsx';

// The runtime reads the router through its navigation seam: here, react-router's.
installNavigation(routerNavigation);

export default function App() {
  const [router] = useState(() => createBrowserRouter(appRoutes()));
  return (
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
