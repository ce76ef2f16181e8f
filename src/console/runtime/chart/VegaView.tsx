// The Vega-Lite view itself (vega, vega-lite, vega-embed through react-vega's VegaEmbed). Only
// Chart.tsx imports this file, lazily, so Vega stays out of every first load.
import { VegaEmbed } from 'react-vega';
import type { VisualizationSpec } from 'vega-embed';

export default function VegaView({ spec, label, onError }: { spec: Record<string, unknown>; label: string; onError: (e: unknown) => void }) {
  return <VegaEmbed spec={spec as VisualizationSpec} options={{ actions: false, renderer: 'svg' }} onError={onError} aria-label={label} role="img" style={{ width: '100%' }} />;
}
