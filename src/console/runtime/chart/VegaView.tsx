// The Vega-Lite view itself (vega, vega-lite, vega-embed through react-vega's VegaEmbed). Only
// Chart.tsx imports this file, lazily, so Vega stays out of every first load.
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { VegaEmbed } from 'react-vega';
import type { Result, VisualizationSpec } from 'vega-embed';

/** Numbers on the axes as the user's language writes them (1.000 in Spanish, 1,000 in English). */
const numberLocales: Record<string, { decimal: string; thousands: string; grouping: number[]; currency: [string, string] }> = {
  es: { decimal: ',', thousands: '.', grouping: [3], currency: ['$', ''] },
  en: { decimal: '.', thousands: ',', grouping: [3], currency: ['$', ''] },
};

export default function VegaView({ spec, label, onError }: { spec: Record<string, unknown>; label: string; onError: (e: unknown) => void }) {
  const { i18n } = useTranslation();
  const formatLocale = numberLocales[i18n.language] ?? numberLocales.es;
  // ast: Vega's expression interpreter instead of new Function, so the Content-Security-Policy
  // needs no eval for charts (src/server/http/security-headers.ts).
  const options = useMemo(() => ({ actions: false, renderer: 'svg' as const, formatLocale, ast: true }), [formatLocale]);
  // vega-embed names its container "Vega visualization" (in English) and exposes each mark's
  // English description: the chart is one image named by its caption instead.
  const onEmbed = (result: Result) => {
    const container = result.view.container();
    container?.setAttribute('role', 'img');
    container?.setAttribute('aria-label', label);
    container?.removeAttribute('aria-roledescription');
  };
  return <VegaEmbed spec={spec as VisualizationSpec} options={options} onEmbed={onEmbed} onError={onError} aria-label={label} role="img" style={{ width: '100%' }} />;
}
