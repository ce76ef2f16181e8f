// given/want tables for the runtime's pure rules: list state in the URL, expressions, form modes,
// cascades, uploads, chips, amounts, charts, cells and the export's values.
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../src/console/app/i18n.ts';
import { cellKey } from '../../src/console/runtime/cells/registry.ts';
import { maskedSecret } from '../../src/console/runtime/cells/cells.tsx';
import { quantitativeField, topN } from '../../src/console/runtime/chart/top-n.ts';
import { formRefs, navigationTarget, resolveObject, resolveValue, rowApplies } from '../../src/console/runtime/expressions.ts';
import { lostToShift } from '../../src/console/runtime/form/landing-click.ts';
import { readsAffectedBy } from '../../src/console/runtime/cache.ts';
import { columnMinWidth, tableMinWidth } from '../../src/console/runtime/list/VirtualTable.tsx';
import { screens as generatedScreens } from '../../src/generated/screens.gen.ts';
import { clearDependents } from '../../src/console/runtime/form/SchemaForm.tsx';
import { formUiSchema } from '../../src/console/runtime/form/ui-schema.ts';
import { listItemOwner } from '../../src/console/runtime/form/validation.ts';
import { deferredFields, fileProblem, uploadedValue } from '../../src/console/runtime/form/upload.ts';
import { addChips } from '../../src/console/runtime/form/widgets/ChipsInputWidget.tsx';
import { parseCopInput, formatCopInput } from '../../src/console/runtime/form/widgets/CopWidget.tsx';
import { formatCop, formatInteger, formatPercent, setNumberLanguage } from '../../src/console/runtime/format.ts';
import { meaningScale, withMeaningColors } from '../../src/console/runtime/chart/meaning-colors.ts';
import { theme } from '../../src/console/app/theme.ts';
import { applyPatch, parseListState, writeListState, type ListStateDefaults } from '../../src/console/runtime/list/list-state.ts';
import { exportValue } from '../../src/console/runtime/list/export.ts';
import { editBody, formBase, modeFor } from '../../src/console/runtime/screens/FormScreen.tsx';
import { reportPayload } from '../../src/console/runtime/screens/ReportScreen.tsx';
import type { ScreenColumn } from '../../src/console/runtime/screen-types.ts';

const defaults: ListStateDefaults = { pageSize: 50, sort: 'createdAt', order: 'desc', filters: ['state', 'roleId'] };

describe('list state in the URL', () => {
  it.each([
    ['', { page: 1, pageSize: 50, sort: 'createdAt', order: 'desc', q: '', filters: {} }],
    ['page=3&pageSize=100&sort=name&order=asc&q=ana&state=active&other=x', { page: 3, pageSize: 100, sort: 'name', order: 'asc', q: 'ana', filters: { state: 'active' } }],
    ['page=0&pageSize=500&order=sideways', { page: 1, pageSize: 50, sort: 'createdAt', order: 'desc', q: '', filters: {} }],
  ])('parses %j', (query, want) => expect(parseListState(new URLSearchParams(query), defaults)).toEqual(want));

  it.each([
    [{ page: 1, pageSize: 50, sort: 'createdAt', order: 'desc', q: '', filters: {} }, ''],
    [{ page: 4, pageSize: 50, sort: 'createdAt', order: 'asc', q: '', filters: {} }, 'page=4&order=asc'],
    [{ page: 1, pageSize: 200, sort: 'name', order: 'desc', q: 'josé', filters: { state: 'pending' } }, 'pageSize=200&sort=name&order=desc&q=jos%C3%A9&state=pending'],
  ] as const)('writes %j as %s, keeping unrelated params', (state, want) => {
    const out = writeListState(new URLSearchParams('tab=2&state=old'), { ...state, filters: { ...state.filters } }, defaults);
    expect(out.toString()).toBe(['tab=2', want].filter(Boolean).join('&'));
  });

  it('narrowing the list starts at page 1; moving the page does not', () => {
    const s = parseListState(new URLSearchParams('page=7'), defaults);
    expect(applyPatch(s, { q: 'x' }).page).toBe(1);
    expect(applyPatch(s, { filters: { state: 'active' } })).toMatchObject({ page: 1, filters: { state: 'active' } });
    expect(applyPatch({ ...s, filters: { state: 'active' } }, { filters: { state: '' } }).filters).toEqual({});
    expect(applyPatch(s, { page: 9 }).page).toBe(9);
  });
});

describe('expressions', () => {
  it('$today and $daysAgo.N are Bogotá calendar days', () => {
    // 03:00 UTC on 1 March is still 28 February in Bogotá (UTC-5).
    const now = new Date('2028-03-01T03:00:00Z');
    expect(resolveValue('$today', { now })).toBe('2028-02-29');
    expect(resolveValue('$daysAgo.30', { now })).toBe('2028-01-30');
    expect(resolveValue('$daysAgo.0', { now })).toBe('2028-02-29');
    expect(resolveValue('$daysAgo.x', { now })).toBeUndefined();
    expect(resolveObject({ range: { start: '$daysAgo.1', end: '$today' } }, { now })).toEqual({ range: { start: '2028-02-28', end: '2028-02-29' } });
  });

  const ctx = { session: { idUser: 4 }, route: { id: '7' }, row: { id: 3, email: 'a@b.co' }, record: { id: 9 }, form: { range: { start: '2025-01-01' }, ids: [1, 2] }, selected: [5, 6] };
  it('resolves $f, $record, $selected beside the rest', () => {
    expect(resolveObject({ a: '$f.range.start', b: '$record.id', c: '$selected', d: '$f.ids', e: '$route.id', f: '$session.idUser', g: 'plain' }, ctx)).toEqual({ a: '2025-01-01', b: 9, c: [5, 6], d: [1, 2], e: '7', f: 4, g: 'plain' });
    expect(resolveValue({ ids: ['$row.id'] }, ctx)).toEqual({ ids: [3] });
  });
  it.each([
    ['{id}/edit', '/profile/management', '/profile/management/3/edit'],
    ['edit', '/profile/management/3/', '/profile/management/3/edit'],
    ['/Campaigns?to={email}', '/x', '/Campaigns?to=a%40b.co'],
  ])('navigates %s from %s', (to, base, want) => expect(navigationTarget(to, ctx.row, base)).toBe(want));
  it.each([
    // a nested list's row reaches its parent's id: params fill their {name}, the rest is the query
    ['/profile/management/AssociationsUpdateForm/{id}', { userId: '7' }, '/profile/management/AssociationsUpdateForm/3?userId=7'],
    ['/profile/management/AssociationsAddForm/{userId}', { userId: '7' }, '/profile/management/AssociationsAddForm/7'],
    ['/Campaigns?to={email}', { page: 2, none: undefined }, '/Campaigns?to=a%40b.co&page=2'],
    ['{id}', { id: 12 }, '/x/12'],
  ])('navigates %s with params %j', (to, params, want) => expect(navigationTarget(to, ctx.row, '/x', params)).toBe(want));
  it.each([
    [{ field: 'readOnly', equals: false }, { readOnly: false }, true],
    [{ field: 'readOnly', equals: false }, { readOnly: true }, false],
    [{ field: 'id', notEquals: '$session.idUser' }, { id: 4 }, true],
    [{ field: 'id', notEquals: '$session.idUser' }, { id: 3 }, false],
    [{ field: 'status', in: ['active', 'pending'] }, { status: 'pending' }, true],
    [{ field: 'status', notIn: ['revoked'] }, { status: 'revoked' }, false],
    [{ field: 'screen', present: false }, {}, true],
    [{ field: 'screen', present: false }, { screen: '' }, true],
    [{ field: 'screen', present: false }, { screen: 'reportsMt' }, false],
    [{ field: 'screen', present: true }, { screen: 'reportsMt' }, true],
    [{ field: 'ids', present: true }, { ids: [] }, false],
    [undefined, {}, true],
  ])('row condition %j on %j → %s', (when, row, want) => expect(rowApplies(when, row, { session: { idUser: 3 } })).toBe(want));
  it('$queryJson reads a query parameter holding a JSON object, and nothing else', () => {
    const query = new URLSearchParams({ payload: JSON.stringify({ ClientsIds: [4], AggregationLevel: 1 }), list: '[1]', broken: '{"a":', text: 'hola' });
    expect(resolveValue('$queryJson.payload', { query })).toEqual({ ClientsIds: [4], AggregationLevel: 1 });
    for (const name of ['list', 'broken', 'text', 'absent']) expect(resolveValue(`$queryJson.${name}`, { query })).toBeUndefined();
    expect(resolveValue('$queryJson.big', { query: new URLSearchParams({ big: JSON.stringify({ x: 'a'.repeat(20_000) }) }) })).toBeUndefined();
  });
  it('finds the form fields an options source depends on', () => expect(formRefs({ country: '$f.country', region: '$f.region.code', x: 1 })).toEqual(['country', 'region']));
});

describe('form modes', () => {
  const withModes = { edit: { operation: 'team.update' }, view: true };
  it.each([
    [withModes, '/profile/management/new', 'create'],
    [withModes, '/profile/management/5/edit', 'edit'],
    [withModes, '/profile/management/5', 'view'],
    [{ edit: { operation: 'company.patch' } }, '/profile/company', 'edit'],
    [{}, '/profile/apiPermissions/new', 'create'],
    [{}, '/profile/User/edit', 'single'],
  ] as const)('%j at %s is %s', (screen, path, want) => expect(modeFor(screen, path)).toBe(want));
  // The spec's own create and edit entries open the form in their mode, not as a record named "createAgent".
  const createAgent = { path: '/Agents/agentManagement/createAgent', actions: ['create'] };
  const editAgent = { path: '/Agents/agentManagement/editAgent', actions: ['edit'] };
  it.each([
    [createAgent, '/Agents/agentManagement/createAgent', 'create'],
    [createAgent, '/Agents/agentManagement/createAgent/', 'create'],
    [createAgent, '/Agents/agentManagement/createAgent/7', 'view'],
    [editAgent, '/Agents/agentManagement/editAgent/7', 'edit'],
    [{ path: '/Agents/agentManagement', actions: ['view', 'create', 'edit'] }, '/Agents/agentManagement/7', 'view'],
  ] as const)('the menu entry %j at %s is %s', (entry, path, want) => expect(modeFor(withModes, path, entry)).toBe(want));
  it.each([
    ['/profile/management/new', undefined, '/profile/management'],
    ['/profile/management/5/edit', '5', '/profile/management'],
    ['/profile/management/5', '5', '/profile/management'],
    ['/profile/company', undefined, '/profile/company'],
  ])('the base of %s is %s', (path, id, want) => expect(formBase(path, id)).toBe(want));
  it('a PATCH sends what changed; other methods send everything', () => {
    expect(editBody('PATCH', { name: 'B', roleIds: [1, 2], email: 'a@b.co' }, { name: 'A', roleIds: [1, 2], email: 'a@b.co' })).toEqual({ name: 'B' });
    expect(editBody('PUT', { name: 'B', code: 'X' }, { name: 'A', code: 'X' })).toEqual({ name: 'B', code: 'X' });
  });
});

describe('a Save press moved away by a layout shift', () => {
  const at = (top: number) => ({ top, left: 20, bottom: top + 36, right: 120 });
  it.each([
    ['moved up, released where it was', at(300), at(276), [60, 330], true],
    ['moved, but still under the pointer (the browser clicks)', at(300), at(290), [60, 310], false],
    ['did not move (the browser clicks)', at(300), at(300), [60, 310], false],
    ['released elsewhere (dragged away to cancel)', at(300), at(276), [400, 600], false],
  ])('%s → %s', (_what, before, after, [x, y], want) => expect(lostToShift(before, after, x, y)).toBe(want));
});

describe('a save refreshes the reads it changed', () => {
  it.each([
    ['associations.updateOne', 'associations.getUser', true],
    ['associations.addUser', 'associations.getUser', true],
    ['account.create', 'account.page', true],
    ['account.create', 'account.list', true],
    ['team.update', 'team.list', true],
    ['associations.updateOne', 'associations.listResponsible', false],
    ['account.create', 'team.list', false],
    ['team.list', 'team.list', false],
  ])('%s → %s: %s', (write, read, want) => expect(readsAffectedBy(write)([read, '{}'])).toBe(want));
});

describe('list columns keep their width', () => {
  it('the team list at 1280 px scrolls sideways rather than cutting the e-mail', () => {
    const columns = generatedScreens.teamMembers.columns!;
    const email = columns.find((c) => c.field === 'email')!;
    expect(columnMinWidth(email)).toBe(240);
    expect(columnMinWidth(columns.find((c) => c.field === 'createdAt')!)).toBe(180);
    // 1280 minus the 200 px side menu and the page's padding is less than the table needs.
    expect(tableMinWidth(columns, false, 200)).toBeGreaterThan(1280 - 200 - 48);
  });
});

describe('cascades empty what depends on a changed field', () => {
  const schema = { type: 'object', properties: { country: { type: 'string', 'x-widget': 'country' }, region: { type: 'string', 'x-widget': 'region' }, city: { type: 'string', 'x-widget': 'city' }, name: { type: 'string' } } } as never;
  it.each([
    [{ country: 'CO', region: '5', city: '5001' }, { country: 'US', region: '5', city: '5001' }, { country: 'US', region: undefined, city: undefined }],
    [{ country: 'CO', region: '5', city: '5001' }, { country: 'CO', region: '11', city: '5001' }, { country: 'CO', region: '11', city: undefined }],
    [{ country: 'CO', name: 'a' }, { country: 'CO', name: 'b' }, { country: 'CO', name: 'b' }],
  ])('%j → %j', (prev, next, want) => expect(clearDependents(prev, next, schema)).toEqual(want));
});

describe('validation helpers', () => {
  const schema = { type: 'object', properties: { keywords: { type: 'array', items: { type: 'string' } }, sids: { type: 'array', items: { type: 'object' } }, name: { type: 'string' } } } as never;
  it.each([
    ['.keywords.1', 'keywords'],
    ['.keywords[0]', 'keywords'],
    ['.sids.0', null],
    ['.name', null],
  ])('an error at %s belongs to %s', (property, want) => expect(listItemOwner(property, schema)).toBe(want));
});

describe('uploads are refused before sending', () => {
  const spec = { accept: 'campaignFileExtensions', maxBytes: 'campaignFileBytes' };
  it.each([
    [{ name: 'numeros.csv', size: 1000, type: 'text/csv' }, null],
    [{ name: 'NUMEROS.XLSX', size: 1000, type: '' }, null],
    [{ name: 'números de julio.xls', size: 1000, type: '' }, null],
    [{ name: 'numeros.pdf', size: 1000, type: 'application/pdf' }, 'type'],
    [{ name: 'numeros.csv', size: 20971521, type: 'text/csv' }, 'size'],
    [{ name: 'lista;rm.csv', size: 10, type: 'text/csv' }, 'name'],
  ])('%j → %s', (file, want) => expect(fileProblem(file, spec)?.reason ?? null).toBe(want));
  it('images take the picture types and size', () => {
    expect(fileProblem({ name: 'a.png', size: 10, type: 'image/png' }, { accept: 'pictureTypes', maxBytes: 'profilePictureBytes' })).toBeNull();
    expect(fileProblem({ name: 'a.svg', size: 10, type: 'image/svg+xml' }, { accept: 'pictureTypes', maxBytes: 'profilePictureBytes' })?.reason).toBe('type');
  });
  it.each([
    [{ url: 'https://x/1.png', id: 3 }, {}, 'https://x/1.png'],
    [{ id: 3 }, {}, 3],
    [{ fileId: 'f1' }, { value: 'fileId' }, 'f1'],
    [{}, {}, 'name.csv'],
  ])('the value of %j (%j) is %j', (answer, spec, want) => expect(uploadedValue(answer, spec, 'name.csv')).toEqual(want));
  it.each([
    // the body takes name only: the picture waits for the Save and goes through its own operation
    [['name'], ['picture']],
    // the body takes the upload's value (a file id the record refers to): uploaded at once, sent with the body
    [['name', 'picture'], []],
    // no declared body list: every field is sent, nothing waits (forms before the list existed)
    [undefined, []],
  ])('with body %j the uploads waiting for the Save are %j', (body, want) => {
    const properties = { name: { type: 'string' }, picture: { type: 'string', 'x-widget': 'image', 'x-upload': { operation: 'account.uploadPicture' } }, note: { type: 'string', 'x-widget': 'file' } };
    expect(deferredFields(properties, body)).toEqual(want);
  });
});

describe('chips, amounts, secrets', () => {
  it.each([
    [[], 'promo', ['promo']],
    [['promo'], 'ventas, promo ,; ', ['promo', 'ventas']],
    [['a'], '', ['a']],
  ])('%j + %j', (current, typed, want) => expect(addChips(current, typed)).toEqual(want));
  it.each([['1.250.000', 1250000], ['$ 9500', 9500], ['', undefined], ['abc', undefined]])('COP %j → %j', (text, want) => expect(parseCopInput(text)).toBe(want));
  it('shows pesos grouped es-CO', () => expect(formatCopInput(1250000)).toBe('1.250.000'));
  it.each([['••••9f3a', '••••9f3a'], ['sk-live-000000000000abcd', '••••abcd'], ['short', '••••']])('masks %s', (v, want) => expect(maskedSecret(v)).toBe(want));
});

describe('numbers in the reader\'s language', () => {
  afterEach(() => setNumberLanguage('es'));
  it('writes integers, pesos and percentages the Spanish way, then the English way', () => {
    setNumberLanguage('es');
    expect([formatInteger(1006480), formatPercent(0.955)]).toEqual(['1.006.480', '95,5%']);
    expect(formatCop(1006480).replace(/\s/g, ' ')).toBe('$ 1.006.480');
    setNumberLanguage('en');
    expect([formatInteger(1006480), formatPercent(0.955)]).toEqual(['1,006,480', '95.5%']);
    expect(formatCop(1006480).replace(/\s/g, ' ')).toBe('COP 1,006,480');
  });
  it('never reads a fraction strictly between 0 and 1 as 0 % or 100 %', () => {
    setNumberLanguage('en');
    // 16 failures among 50,000 deliveries.
    expect(formatPercent(50000 / 50016)).toBe('99.9%');
    expect(formatPercent(1 / 50016)).toBe('0.1%');
    expect([formatPercent(1), formatPercent(0), formatPercent(null)]).toEqual(['100%', '0%', '—']);
  });
});

describe('chart colours follow meaning', () => {
  const t = i18n.getFixedT('es');
  const spec = { mark: 'bar', encoding: { x: { field: 'period' }, y: { field: 'count' }, color: { field: 'outcome', type: 'nominal' } } };
  it('a report\'s folded outcomes: delivered green, failed red, pending amber, in the legend\'s words', () => {
    const scale = meaningScale({ spec, fold: { fields: ['delivered', 'failed', 'pending', 'sent'], key: 'outcome', value: 'count' } }, [], t, theme);
    expect(scale?.domain).toEqual([t('fields.delivered'), t('fields.failed'), t('fields.pending'), t('fields.sent')]);
    expect(scale?.range).toEqual([theme.palette.success.main, theme.palette.error.main, theme.palette.warning.main, theme.palette.info.main]);
    expect((withMeaningColors(spec, scale).encoding as { color: { scale: unknown } }).color.scale).toBe(scale);
  });
  it('a translated enum\'s values the same way; series without a meaning, or a scale the YAML writes, keep theirs', () => {
    const rows = [{ outcome: 'failed' }, { outcome: 'delivered' }, { outcome: 'failed' }];
    expect(meaningScale({ spec, translate: { outcome: 'enums.message-outcome' } }, rows, t, theme)).toEqual({
      domain: [t('enums.message-outcome.failed'), t('enums.message-outcome.delivered')], range: [theme.palette.error.main, theme.palette.success.main],
    });
    expect(meaningScale({ spec: { ...spec, encoding: { color: { field: 'platform' } } }, translate: { platform: 'enums.channel-platform' } }, [{ platform: 'sms' }], t, theme)).toBeNull();
    expect(meaningScale({ spec: { ...spec, encoding: { color: { field: 'outcome', scale: { scheme: 'set2' } } } }, translate: { outcome: 'enums.message-outcome' } }, rows, t, theme)).toBeNull();
  });
});

describe('charts', () => {
  const rows = [{ n: 'a', v: 3 }, { n: 'b', v: 9 }, { n: 'c', v: null }, { n: 'd', v: 5 }];
  it('top N by the quantitative field, largest first', () => expect(topN(rows, 2, 'v').map((r) => r.n)).toEqual(['b', 'd']));
  it('an aggregate keeps every row', () => expect(topN(rows, 2, undefined)).toHaveLength(4));
  it('finds the field to rank by', () => {
    expect(quantitativeField({ encoding: { x: { field: 'n', type: 'nominal' }, y: { field: 'v', type: 'quantitative' } } })).toBe('v');
    expect(quantitativeField({ encoding: { y: { aggregate: 'count', type: 'quantitative' } } })).toBeUndefined();
  });
});

describe('report payload', () => {
  it('maps the filter values and drops what is empty', () => {
    expect(reportPayload({ payload: { ClientsIds: '$f.ClientsIds', DateStart: '$f.range.start', DateEnd: '$f.range.end', pOption: 1 } }, { ClientsIds: [3], range: { start: '2025-01-01' } })).toEqual({ ClientsIds: [3], DateStart: '2025-01-01', pOption: 1 });
  });
});

describe('cells and export values', () => {
  const col = (field: string, schema: Record<string, unknown>, cell?: ScreenColumn['cell']): ScreenColumn => ({ field, label: `fields.${field}`, schema, ...(cell ? { cell } : {}) });
  it.each([
    [col('name', { type: 'string' }), 'text'],
    [col('total', { type: ['integer', 'null'] }), 'integer'],
    [col('amount', { type: 'integer', 'x-display': 'cop' }), 'cop'],
    [col('day', { type: 'string', format: 'date' }), 'date'],
    [col('state', { type: 'string', enum: ['active'] }), 'status'],
    [col('documentType', { type: 'string', enum: ['CC'] }), 'enum'],
    [col('roles', { type: 'array', items: { type: 'string' } }), 'roles'],
    [col('tags', { type: 'array', items: { type: 'string' } }), 'chips'],
    [col('token', { type: 'string', writeOnly: true }), 'secret'],
    [col('name', { type: 'string' }, 'status'), 'status'],
  ])('%j → %s', (column, want) => expect(cellKey(column)).toBe(want));

  it('exports numbers as numbers and everything else as the screen shows it', () => {
    const t = i18n.getFixedT('es');
    const exists = (k: string) => i18n.exists(k, { lng: 'es' });
    expect(exportValue(t, exists, col('amount', { type: 'integer', 'x-display': 'cop' }), { amount: 1250000 })).toBe(1250000);
    expect(exportValue(t, exists, col('state', { type: 'string', enum: ['active'], 'x-enum': 'user-state' }), { state: 'active' })).toBe(i18n.t('enums.user-state.active', { lng: 'es' }));
    expect(exportValue(t, exists, col('roles', { type: 'array', items: { type: 'string' } }), { roles: ['manager', 'analista'] })).toBe(`${i18n.t('enums.role.manager', { lng: 'es' })}, ${i18n.t('enums.role.analista', { lng: 'es' })}`);
    expect(exportValue(t, exists, col('createdAt', { type: 'string', format: 'date-time' }), { createdAt: new Date(2025, 5, 2, 15, 4).toISOString() })).toBe('2025/06/02 3:04pm');
    expect(exportValue(t, exists, col('token', { type: 'string', 'x-widget': 'secret' }), { token: 'sk-live-000000000000abcd' })).toBe('••••abcd');
    expect(exportValue(t, exists, col('name', { type: 'string' }), { name: null })).toBeNull();
  });
});

describe('form labels (no i18n key reaches a person)', () => {
  it("heads each item of a list of objects with the list's translated label, not its key and number", () => {
    const form = generatedScreens.channelForm!;
    const t = i18n.getFixedT('es');
    const ui = formUiSchema(form.schema as never, form.uiSchema as never, { cacheKey: 'rules-accountSids', language: 'es', t, exists: (k) => i18n.exists(k, { lng: 'es' }) });
    const items = (ui.accountSids as { items: Record<string, unknown> }).items;
    expect(items['ui:title']).toBe(t('fields.accountSids'));
    expect(items['ui:title']).not.toMatch(/fields\./);
  });
});
