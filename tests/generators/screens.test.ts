// given/want tables for the screen compiler (generators/emit/screens.ts) and the routes a list's
// form and detail get (generators/emit/routes.ts), over the mini project.
import { describe, expect, it, beforeAll } from 'vitest';
import { buildModel, type Model } from '../../generators/model.ts';
import { compileScreen, derefForScreen, nonNull } from '../../generators/emit/screens.ts';
import { emitRoutes } from '../../generators/emit/routes.ts';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fixture, miniProject } from './mini-project.ts';

let model: Model;
const compiled = (id: string) => compileScreen(model, model.screens.find((s) => s.id === id)!) as Record<string, any>;
beforeAll(() => {
  model = buildModel(miniProject());
});

describe('derefForScreen marks inlined enums with their id', () => {
  it.each([
    [{ $ref: 'color#' }, { type: 'string', enum: ['red', 'blue'], 'x-enum': 'color' }],
    [{ type: 'array', items: { $ref: 'color#' } }, { type: 'array', items: { type: 'string', enum: ['red', 'blue'], 'x-enum': 'color' } }],
    [{ type: 'string' }, { type: 'string' }],
  ])('%j', (given, want) => expect(derefForScreen(given, model.entities)).toEqual(want));
});

describe('a nullable object is edited as the object', () => {
  it('drops the null branch of anyOf and keeps the field\'s own keywords', () => {
    const rule = { type: 'object', required: ['every'], properties: { every: { type: 'integer' } } };
    expect(nonNull({ anyOf: [rule, { type: 'null' }], description: 'd' })).toEqual({ ...rule, description: 'd' });
    // Anything else is left alone: a real choice, or a nullable scalar written as a type list.
    const choice = { anyOf: [{ type: 'string' }, { type: 'integer' }] };
    expect(nonNull(choice)).toBe(choice);
    const scalar = { type: ['string', 'null'] };
    expect(nonNull(scalar)).toBe(scalar);
  });
});

describe('list', () => {
  it('takes paging, sorting, filters and search from the operation x-list', () => {
    const s = compiled('things');
    expect(s).toMatchObject({ paged: true, itemsPath: 'items', search: true, pageSize: 50, export: ['csv', 'xlsx'], exportName: 'things', permission: { component: 10, action: 'view' } });
    expect(s.filters).toEqual([{ field: 'color', label: 'fields.color', schema: { type: 'string', enum: ['red', 'blue'], 'x-enum': 'color' } }]);
  });
  it('gives each column its label, display schema, sortability and declared cell', () => {
    expect(compiled('things').columns).toEqual([
      { field: 'name', label: 'fields.name', schema: { type: 'string' }, sortable: true },
      { field: 'color', label: 'fields.color', schema: { type: 'string', enum: ['red', 'blue'], 'x-enum': 'color' }, cell: 'status', colors: { red: 'error' }, sortable: false },
    ]);
  });
  it('carries what it needs of its form: New, Edit and whether rows open', () => {
    expect(compiled('things').formModes).toEqual({ create: { operation: 'things.create' }, edit: { operation: 'things.rename', permission: { component: 10, action: 'create' } }, view: true });
  });
  it('actions carry their method and permission; a DELETE confirms', () => {
    expect(compiled('things').rowActions).toEqual([{ label: 'screens.things.delete', operation: 'things.delete', method: 'DELETE', permission: { component: 10, action: 'delete' }, confirm: true }]);
  });
});

describe('form modes', () => {
  it('create, edit and view with their operations and permissions', () => {
    const s = compiled('newThing');
    // `body`: what each operation's body takes (it refuses others), all the form may send.
    expect(s.create).toEqual({ operation: 'things.create', method: 'POST', body: ['name', 'color'] });
    // The edit operation takes no color: color is read-only when editing.
    expect(s.edit).toEqual({ operation: 'things.rename', params: {}, method: 'PATCH', permission: { component: 10, action: 'create' }, readonly: ['color'], body: ['name'] });
    expect(s).toMatchObject({ view: true, idField: 'id', dirtyGuard: true, load: { operation: 'things.get' } });
    expect(s.schema.properties.color).toEqual({ type: 'string', enum: ['red', 'blue'], 'x-enum': 'color', title: 'fields.color' });
  });
});

describe('detail, wizard, report', () => {
  it('detail tabs are field groups or a nested list (compiled in place)', () => {
    expect(compiled('thing').tabs[1].list).toEqual(compiled('things'));
    expect(compiled('thing').tabs).toMatchObject([
      { label: 'screens.things.general', fields: [{ field: 'name', label: 'fields.name', schema: { type: 'string' }, sortable: false }, { field: 'color', label: 'fields.color', schema: { type: 'string', enum: ['red', 'blue'], 'x-enum': 'color' }, sortable: false }] },
      { label: 'screens.things.title', screen: 'things', params: {} },
    ]);
  });
  it('a wizard is one schema in steps', () => {
    const s = compiled('thingWizard');
    expect(s.steps).toEqual([{ label: 'screens.things.general', fields: ['name'] }, { label: 'screens.things.general', fields: ['color'] }]);
    expect(Object.keys(s.schema.properties)).toEqual(['name', 'color']);
    expect(s.schema.required).toEqual(['name']);
    // Like a form, it sends only what the operation's body takes (it refuses others).
    expect(s.create).toEqual({ operation: 'things.create', method: 'POST', body: ['name', 'color'] });
  });
  it('a report keeps the payload as data, titles its filters and takes top N from the constants', () => {
    const s = compiled('thingReport');
    expect(s.payload).toEqual({ color: '$f.color', pageSize: 200 });
    expect(s.schema.properties.range.title).toBe('fields.range');
    expect(s.uiSchema['ui:order']).toEqual(['color', 'range', '*']);
    expect(s.chart.top).toBe(10);
  });
});

describe('routes of a list with a form and a detail', () => {
  it('…/new and …/:id/edit open the form, …/:id the detail', () => {
    const out = emitRoutes(model);
    const route = (path: string) => new RegExp(`path: "${path.replace(/[/:]/g, (c) => `\\${c}`)}",\\s*screen: "(\\w+)"`).exec(out)?.[1];
    expect(route('/Things')).toBe('things');
    expect(route('/Things/new')).toBe('newThing');
    expect(route('/Things/:id/edit')).toBe('newThing');
    expect(route('/Things/:id')).toBe('thing');
  });
  it('each route loads its own screen module and knows its title', () => {
    const out = emitRoutes(model);
    expect(out).toContain('loadScreen: () => import("./screen.things.gen.ts")');
    expect(out).toMatch(/path: "\/Things\/new",[\s\S]*?title: "screens\.newThing\.title"/);
  });
});

describe('x-options.fill', () => {
  // A picker in the wizard's first step whose choice fills `name` (and so on) from the chosen thing.
  const withPicker = (fill: unknown, extra: Record<string, unknown> = {}) => {
    const base = model.screens.find((x) => x.id === 'thingWizard')!;
    const pick = { type: 'integer', 'x-options': { operation: 'things.list', value: 'id', label: 'name', fill }, ...extra };
    return () => compileScreen(model, { ...base, extraFields: { pick }, steps: [{ label: 'screens.things.general', fields: ['pick', 'name'] }, { label: 'screens.things.general', fields: ['color'] }] } as never) as Record<string, any>;
  };
  it('is carried to the runtime in the field\'s x-options', () => {
    expect(withPicker({ name: 'name', color: 'color' })().schema.properties.pick['x-options'].fill).toEqual({ name: 'name', color: 'color' });
  });
  it.each([
    [{ nope: 'name' }, {}, /"nope" is not another field of this form/],
    [{ pick: 'id' }, {}, /"pick" is not another field of this form/],
    [{ name: 'missing' }, {}, /"missing" is not a property of things\.list's rows/],
    [{ name: '' }, {}, /non-empty string/],
    [['name'], {}, /must be an object/],
    [{ name: 'name' }, { type: 'array', items: { type: 'integer' } }, /needs a single choice/],
  ])('refuses %j (%j)', (fill, extra, reason) => expect(withPicker(fill, extra)).toThrow(reason));
});

describe('screen fields (config/screen-fields): one declaration for a field several screens ask alike', () => {
  const withFiles = (files: Record<string, string>) => {
    const dir = miniProject();
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(dir, dirname(path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return dir;
  };
  const report = (range: string) => readFileSync(join(fixture, 'config/screens/thing-report.yaml'), 'utf8')
    .replace(/ {4}range: .*\n/, `    range: ${range}\n`);
  const dayRange = '$id: day-range\ntype: object\nx-widget: dateRange\nrequired: [start, end]\nproperties:\n  start: { type: string, format: date }\n  end: { type: string, format: date }\n';

  it('is inlined where a screen refers to it, with the screen\'s own keywords over it, and stays out of the API', () => {
    const m = buildModel(withFiles({ 'config/screen-fields/day-range.yaml': dayRange, 'config/screens/thing-report.yaml': report('{ $ref: "day-range#", title: screens.things.title }') }));
    const s = compileScreen(m, m.screens.find((x) => x.id === 'thingReport')!) as Record<string, any>;
    expect(s.schema.properties.range).toEqual({ type: 'object', 'x-widget': 'dateRange', required: ['start', 'end'], properties: { start: { type: 'string', format: 'date' }, end: { type: 'string', format: 'date' } }, title: 'screens.things.title' });
    expect(m.screenFields.has('day-range')).toBe(true);
    // Entities are the API's (OpenAPI components, types): a screen field is not one of them.
    expect(m.entities.has('day-range')).toBe(false);
  });

  it('refuses a reference to nothing, and a screen field that takes an entity\'s id', () => {
    expect(() => buildModel(withFiles({ 'config/screens/thing-report.yaml': report('{ $ref: "day-rnage#" }') }))).toThrow(/unknown \$ref "day-rnage#"/);
    expect(() => buildModel(withFiles({ 'config/screen-fields/color.yaml': dayRange.replace('day-range', 'color') }))).toThrow(/duplicate \$id "color"/);
  });

  it('serves the product\'s reports: the account picker and the date range are declared once', () => {
    const m = buildModel(resolve('.'));
    expect([...m.screenFields.keys()].sort()).toEqual(['date-range', 'report-accounts']);
    const general = compileScreen(m, m.screens.find((x) => x.id === 'reportsGeneral')!) as Record<string, any>;
    expect(general.schema.properties.ClientsIds).toMatchObject({ type: 'array', minItems: 1, maxItems: 200, 'x-widget': 'options', 'x-options': { operation: 'reportCenter.getAccounts' } });
    expect(general.schema.properties.range).toMatchObject({ 'x-widget': 'dateRange', required: ['start', 'end'], title: 'screens.reportsGeneral.range' });
  });
});

describe("an upload's file limit is its operation's", () => {
  const project = (edit?: (dir: string) => void) => {
    const dir = mkdtempSync(join(tmpdir(), 'colibri-upload-'));
    for (const part of ['schemas', 'config', 'locales', 'package.json']) cpSync(resolve(part), join(dir, part), { recursive: true });
    edit?.(dir);
    return buildModel(dir);
  };
  const screen = (m: Model, id: string) => compileScreen(m, m.screens.find((x) => x.id === id)!) as Record<string, any>;

  it('is filled in from the operation (its uploadLimit, else the server default), so the console and the server say one thing', () => {
    const m = project();
    const limitOf = (opId: string) => m.operations.find((o) => o.id === opId)!.uploadLimit ?? 'campaignFileBytes';
    expect(screen(m, 'blockListUpload').schema.properties.file['x-upload'].maxBytes).toBe(limitOf('blockList.upload'));
    expect(limitOf('flows.uploadTraining')).toBe('flowTrainingFileBytes');
    const training = screen(m, 'flowTraining');
    expect([...(training.bulkActions ?? []), ...(training.rowActions ?? [])].find((a: { upload?: unknown }) => a.upload)?.upload.maxBytes).toBe('flowTrainingFileBytes');
    expect(screen(m, 'companyForm').schema.properties.logoUrl['x-upload'].maxBytes).toBe('profilePictureBytes');
  });

  it('refuses a screen that names another limit than its operation', () => {
    const edit = (dir: string) => {
      const file = join(dir, 'config/screens/block-list-upload.yaml');
      writeFileSync(file, readFileSync(file, 'utf8').replace('accept: campaignFileExtensions,', 'accept: campaignFileExtensions, maxBytes: attachmentBytes,'));
    };
    expect(() => screen(project(edit), 'blockListUpload')).toThrow(/maxBytes "attachmentBytes" is not blockList.upload's limit \("campaignFileBytes"\)/);
  });
});
