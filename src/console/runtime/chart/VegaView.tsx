// The Vega-Lite view itself (vega, vega-lite, vega-embed through react-vega's VegaEmbed). Only
// Chart.tsx imports this file, lazily, so Vega stays out of every first load.
import { VegaEmbed } from 'react-vega';
import type { Result, VisualizationSpec } from 'vega-embed';

export default function VegaView({ spec, label, onError }: { spec: Record<string, unknown>; label: string; onError: (e: unknown) => void }) {
  // vega-embed names its container "Vega visualization" (in English) and exposes each mark's
  // English description: the chart is one image named by its caption instead (issue 12).
  const onEmbed = (result: Result) => {
    const container = result.view.container();
    container?.setAttribute('role', 'img');
    container?.setAttribute('aria-label', label);
    container?.removeAttribute('aria-roledescription');
  };
  return <VegaEmbed spec={spec as VisualizationSpec} options={{ actions: false, renderer: 'svg' }} onEmbed={onEmbed} onError={onError} aria-label={label} role="img" style={{ width: '100%' }} />;
}
