// The console's screen registry: which renderer draws each kind of screen. The generated route
// table is plain data (it names a route's kind, never a console file); this is the one place that
// maps a kind to its renderer. Each renderer loads lazily, on the first visit to a route of its
// kind, so the first load carries only what the sign-in route needs. The Record is exhaustive:
// a screen kind added to the meta-schema without a renderer here is a type error.
import type { ComponentType } from 'react';
import type { ScreenKind, ScreenProps } from './screen-types.ts';

/** A route's kind: a screen kind, or 'none' for a menu node that names no screen. */
export type RouteKind = ScreenKind | 'none';

export type ScreenRenderer = ComponentType<ScreenProps>;
export type LoadRenderer = () => Promise<{ default: ScreenRenderer }>;

export const screenRenderers: Record<RouteKind, LoadRenderer> = {
  form: () => import('./screens/FormScreen.tsx'),
  message: () => import('./screens/MessageScreen.tsx'),
  list: () => import('./screens/ListScreen.tsx'),
  dashboard: () => import('./screens/DashboardScreen.tsx'),
  detail: () => import('./screens/DetailScreen.tsx'),
  wizard: () => import('./screens/WizardScreen.tsx'),
  report: () => import('./screens/ReportScreen.tsx'),
  feature: () => import('./screens/FeatureScreen.tsx'),
  none: () => import('./screens/NotAvailableScreen.tsx'),
};
