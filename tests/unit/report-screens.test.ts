// Which report screens a schedule can run, and what a run writes: every report screen of the
// console with a table is schedulable; its date range is found in its declared body; a run puts the
// covered days there and writes the screen's columns in the file's language (enums by their label).
import { describe, expect, it } from 'vitest';
import { screens } from '../../src/generated/screens.gen.ts';
import { coveredDays, schedulableScreens, screenBody, screenTable } from '../../src/server/modules/reportCenter/report-screens.ts';

describe('report screens on a schedule', () => {
  it('are every report screen with a table whose operation only reads, each with its date range when its body has one', async () => {
    const schedulable = await schedulableScreens();
    const reports = Object.values(screens).filter((s) => s.kind === 'report' && 'operation' in s && 'columns' in s && (s.columns as readonly unknown[]).length > 0);
    // The block list's "add numbers" writes: scheduling it would add them again at every run. The
    // file processor's validation is one uploaded file's (the staff's, with no permission to
    // schedule under): there is nothing to run again.
    const unschedulable = ['blockListAdd', 'platformFileProcessor'];
    expect([...schedulable.keys()].sort()).toEqual(reports.map((s) => s.id).filter((id) => !unschedulable.includes(id)).sort());
    for (const id of unschedulable) expect(schedulable.has(id)).toBe(false);
    expect(schedulable.get('reportsGeneral')).toMatchObject({ operationId: 'reportCenter.getTransactionsSummary', method: 'POST', range: { start: 'DateStart', end: 'DateEnd' }, itemsPath: 'items' });
    // A year's report has no range: its body runs as saved.
    expect(schedulable.get('reportsMonthSummary')?.range).toBeNull();
  });

  it('puts the covered Bogotá days in the range, and keeps the rest of the body', async () => {
    const general = (await schedulableScreens()).get('reportsGeneral')!;
    // 05:00 UTC is Bogotá midnight: a daily run from the 3rd to the 4th covers the 3rd only.
    const days = coveredDays({ from: '2026-12-03T05:00:00.000Z', to: '2026-12-04T05:00:00.000Z' });
    expect(days).toEqual({ dateStart: '2026-12-03', dateEnd: '2026-12-03' });
    expect(screenBody(general, { ClientId: [4], AggregationLevel: 0, DateStart: '2020-01-01' }, days)).toEqual({ ClientId: [4], AggregationLevel: 0, DateStart: '2026-12-03', DateEnd: '2026-12-03' });
    const year = (await schedulableScreens()).get('reportsMonthSummary')!;
    expect(screenBody(year, { clientId: 4, year: 2026 }, days)).toEqual({ clientId: 4, year: 2026 });
  });

  it('writes the screen\'s columns in the file\'s language, enums by their label, one line per item', async () => {
    const deployments = (await schedulableScreens()).get('reportsDeployments')!;
    const answer = { items: [{ deploymentId: 7, campaign: 'Navidad; "oferta"', deploymentState: 'completed', deployedAt: '2026-12-03 10:00', messages: 3, delivered: 2, failed: 1, pending: 0, blocked: 0, credits: 3 }] };
    const es = screenTable(deployments, answer, 'es');
    expect(es.rows).toBe(1);
    const [header, line] = es.text.replace('\ufeff', '').trim().split('\r\n');
    expect(header.split(';')[0]).toBe('Ejecución');
    // Separators and quotes inside a value are kept inside its cell; the state by its Spanish label.
    expect(line).toContain('"Navidad; ""oferta"""');
    expect(line).not.toContain('completed');
    expect(line).toContain(';2026-12-03 10:00;');
    // An instant (a date-time column) in Bogotá's wall time: 15:00 UTC is 10:00 there.
    const instants = { ...deployments, itemsPath: undefined, columns: [{ field: 'at', label: 'fields.createdAt', schema: { format: 'date-time' } }] };
    expect(screenTable(instants, { at: '2026-12-03T15:00:00.000Z' }, 'es').text).toContain('2026-12-03 10:00:00');
    const en = screenTable(deployments, answer, 'en');
    expect(en.text.replace('\ufeff', '').split('\r\n')[0].split(',')).toContain('Campaign');
    expect(screenTable(deployments, { items: [] }, 'es').rows).toBe(0);
    expect(screenTable(deployments, null, 'es').rows).toBe(0);
  });
});
