// gen:check asks for every key a screen names, report sections and their charts included: a
// section's label, its columns, its chart's label and folded series, its totals and empty text.
import { describe, expect, it } from 'vitest';
import { screenKeys } from '../../generators/i18n.ts';

describe('the keys a screen names', () => {
  it('include its report sections, their charts, folded series and totals', () => {
    const keys = screenKeys({
      id: 'probe', kind: 'report', title: 'screens.probe.title',
      chart: { label: 'screens.probe.chart', fold: { fields: ['delivered', 'failed'], key: 'outcome', value: 'count' }, spec: {} },
      totals: { path: 'totals', label: 'screens.probe.totals' },
      sections: [{
        label: 'screens.probe.byOperator', empty: 'screens.probe.noOperators', columns: ['operator', { field: 'messages', label: 'screens.probe.messages' }],
        chart: { label: 'screens.probe.byOperatorChart', spec: {} }, totals: { path: 'totals', label: 'screens.probe.sectionTotals' },
      }],
    } as never);
    expect(keys).toEqual(expect.arrayContaining([
      'screens.probe.chart', 'fields.delivered', 'fields.failed', 'screens.probe.totals', 'screens.probe.byOperator', 'screens.probe.noOperators',
      'fields.operator', 'screens.probe.messages', 'screens.probe.byOperatorChart', 'screens.probe.sectionTotals',
    ]));
  });
});
