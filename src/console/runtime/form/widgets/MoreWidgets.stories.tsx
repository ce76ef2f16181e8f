import type { Meta, StoryObj } from '@storybook/react-vite';
import type { RJSFSchema } from '@rjsf/utils';
import { expect, fireEvent, screen, userEvent, waitFor, within } from 'storybook/test';
import { areas, users } from '../../../stories/fixtures.ts';
import { text } from '../../../stories/helpers.ts';
import { callsTo, type StubRequest } from '../../../stories/stub-api.ts';
import { cities, costCenters, countries, regions, roles } from '../../../stories/data.ts';
import { listHandler } from '../../../stories/list-stub.ts';
import { WidgetDemo } from '../../../stories/WidgetDemo.tsx';
import { SecretOnce } from '../SecretOnce.tsx';
import { today } from '../date-rules.ts';

const meta = {
  title: 'Runtime/Widgets (pickers, amounts, dates, files, chips, secrets)',
  component: WidgetDemo,
  args: { schema: { type: 'object', properties: {} } },
  parameters: {
    session: users.manager,
    api: {
      'roles.list': roles,
      'account.list': areas,
      'costCenters.list': listHandler(() => costCenters, ['name', 'code']),
      'geography.countries': countries,
      'geography.regions': (req: StubRequest) => regions[req.params.country] ?? [],
      'geography.cities': (req: StubRequest) => cities[req.params.region] ?? [],
      'blockList.upload': { added: 2, rejected: [], rejectedTotal: 0, url: 'https://files.colibri.test/u/numeros.csv' },
      'company.uploadLogo': { url: 'https://files.colibri.test/p/logo.png' },
    },
  },
} satisfies Meta<typeof WidgetDemo>;
export default meta;
type Story = StoryObj<typeof meta>;

const schemaOf = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', required, properties }) as RJSFSchema;
const ok = () => userEvent.click(screen.getByRole('button', { name: 'OK' }));
const submitted = () => JSON.parse(screen.getByTestId('submitted').textContent || '{}') as Record<string, unknown>;
const combo = (label: RegExp) => screen.findByRole('combobox', { name: label });

export const RoleChips: Story = {
  args: { schema: schemaOf({ roleIds: { type: 'array', minItems: 1, items: { type: 'integer' }, 'x-source': { operation: 'roles.list', value: 'id', label: 'name' }, title: 'fields.roleIds' } }, ['roleIds']) },
  play: async () => {
    await ok();
    await expect(await screen.findByText(text('validation.required.roleIds', 'es'))).toBeInTheDocument();
    const box = await combo(/roles/i);
    await userEvent.click(box);
    // System role names read in the user's language; a custom role keeps its name.
    await userEvent.click(await screen.findByRole('option', { name: text('enums.role.manager', 'es') }));
    await userEvent.click(box);
    await userEvent.click(await screen.findByRole('option', { name: 'Supervisores' }));
    await expect(screen.getByRole('button', { name: text('enums.role.manager', 'es') })).toBeInTheDocument();
    await ok();
    await waitFor(() => expect(submitted()).toEqual({ roleIds: [4, 9] }));
  },
};

export const AreaAndCostCenterPickers: Story = {
  args: {
    schema: schemaOf({
      areaId: { type: 'integer', 'x-widget': 'area', title: 'fields.areaId' },
      costCenterId: { type: ['integer', 'null'], 'x-source': { operation: 'costCenters.list', value: 'id', label: 'name' }, title: 'fields.costCenterId' },
    }),
  },
  play: async () => {
    await userEvent.click(await combo(/área/i));
    await userEvent.click(await screen.findByRole('option', { name: 'Medellín' }));
    // A paged source is searched on the server as the user types.
    const cc = await combo(/centro de costo/i);
    await userEvent.type(cc, 'Vent');
    await waitFor(() => expect(callsTo('costCenters.list').some((c) => c.query.q === 'Vent')).toBe(true));
    await userEvent.click(await screen.findByRole('option', { name: 'Ventas' }));
    await ok();
    await waitFor(() => expect(submitted()).toEqual({ areaId: 2, costCenterId: 2 }));
  },
};

export const CountryRegionCityCascade: Story = {
  args: {
    schema: schemaOf({
      country: { type: 'string', 'x-widget': 'country', title: 'fields.countryCode' },
      region: { type: 'string', 'x-widget': 'region', title: 'fields.regionCode' },
      city: { type: 'string', 'x-widget': 'city', title: 'fields.cityCode' },
    }),
  },
  play: async () => {
    const region = await combo(new RegExp(text('fields.regionCode', 'es'), 'i'));
    // A region waits for its country.
    await expect(region).toBeDisabled();
    await userEvent.click(await combo(new RegExp(text('fields.countryCode', 'es'), 'i')));
    await userEvent.click(await screen.findByRole('option', { name: 'Colombia' }));
    await waitFor(() => expect(region).not.toBeDisabled());
    await userEvent.click(region);
    await userEvent.click(await screen.findByRole('option', { name: 'Antioquia' }));
    const city = await combo(new RegExp(text('fields.cityCode', 'es'), 'i'));
    await userEvent.click(city);
    await userEvent.click(await screen.findByRole('option', { name: 'Medellín' }));
    await expect(callsTo('geography.cities')[0].params).toEqual({ country: 'CO', region: '5' });
    // Changing the region empties the city.
    await userEvent.click(region);
    await userEvent.click(await screen.findByRole('option', { name: 'Bogotá, D.C.' }));
    await waitFor(() => expect(JSON.parse(screen.getByTestId('live').textContent!)).toEqual({ country: 'CO', region: '11' }));
  },
};

export const CopAmount: Story = {
  args: { schema: schemaOf({ amount: { type: 'integer', minimum: 10000, 'x-widget': 'cop', title: 'fields.total' } }, ['amount']) },
  play: async () => {
    const input = await screen.findByLabelText(/total/i, { selector: 'input' });
    await userEvent.type(input, '9500');
    await userEvent.tab();
    // es-CO grouping once the field is left; the value is an integer.
    await expect(input).toHaveValue('9.500');
    await ok();
    await expect(await screen.findByText('El valor mínimo es 10000.')).toBeInTheDocument();
    await userEvent.click(input);
    await userEvent.clear(input);
    await userEvent.type(input, '1250000');
    await userEvent.tab();
    await expect(input).toHaveValue('1.250.000');
    await ok();
    await waitFor(() => expect(submitted()).toEqual({ amount: 1250000 }));
  },
};

export const DateUpToToday: Story = {
  args: { schema: schemaOf({ day: { type: 'string', format: 'date', 'x-max': 'today', title: 'fields.dateStart' } }) },
  play: async () => {
    const input = await screen.findByLabelText(/fecha inicial/i, { selector: 'input' });
    await expect(input).toHaveAttribute('max', today());
    fireEvent.change(input, { target: { value: '2999-12-31' } });
    await ok();
    await expect(await screen.findByText(text('validation.dateRange.afterToday', 'es'))).toBeInTheDocument();
  },
};

export const DateRange: Story = {
  args: {
    schema: schemaOf({ range: { type: 'object', 'x-widget': 'dateRange', title: 'fields.dateStart', required: ['start', 'end'], properties: { start: { type: 'string', format: 'date' }, end: { type: 'string', format: 'date' } } } }, ['range']),
  },
  play: async () => {
    const start = await screen.findByLabelText(text('common.dateRange.start', 'es'));
    const end = screen.getByLabelText(text('common.dateRange.end', 'es'));
    fireEvent.change(start, { target: { value: '2025-03-10' } });
    fireEvent.change(end, { target: { value: '2025-03-01' } });
    await ok();
    await expect(await screen.findByText(text('validation.dateRange.endBeforeStart', 'es'))).toBeInTheDocument();
    fireEvent.change(end, { target: { value: '2025-03-31' } });
    await ok();
    await waitFor(() => expect(submitted()).toEqual({ range: { start: '2025-03-10', end: '2025-03-31' } }));
  },
};

const fileField = { type: 'string', 'x-widget': 'file', title: 'fields.file', 'x-upload': { operation: 'blockList.upload', accept: 'campaignFileExtensions', maxBytes: 'campaignFileBytes' } };

export const FileUploadWithProgress: Story = {
  args: { schema: schemaOf({ file: fileField }, ['file']) },
  play: async () => {
    const input = (await screen.findByLabelText(/archivo/i, { selector: 'input[type=file]' })) as HTMLInputElement;
    await expect(input).toHaveAttribute('accept', '.csv,.xls,.xlsx');
    await expect(screen.getByText(text('validation.file.rules', 'es', { types: 'CSV, XLS, XLSX', mb: 20 }))).toBeInTheDocument();
    // Refused before any byte is sent: the type, the size, the name.
    await userEvent.upload(input, new File(['x'], 'numeros.pdf', { type: 'application/pdf' }), { applyAccept: false });
    await expect(await screen.findByRole('alert')).toHaveTextContent(text('errors.server.invalidFile', 'es'));
    await expect(screen.getByRole('alert')).toHaveTextContent(text('validation.file.type', 'es', { types: 'CSV, XLS, XLSX' }));
    const big = new File(['x'], 'grande.csv', { type: 'text/csv' });
    Object.defineProperty(big, 'size', { value: 21 * 1048576 });
    await userEvent.upload(input, big);
    await expect(await screen.findByText(text('validation.file.size', 'es', { mb: 20 }), { exact: false })).toBeInTheDocument();
    await userEvent.upload(input, new File(['x'], 'lista<1>.csv', { type: 'text/csv' }));
    await expect(await screen.findByText(text('validation.file.name', 'es'), { exact: false })).toBeInTheDocument();
    await expect(callsTo('blockList.upload')).toHaveLength(0);
    await userEvent.upload(input, new File(['3001234567\n3109876543\n'], 'numeros.csv', { type: 'text/csv' }));
    await waitFor(() => expect(callsTo('blockList.upload')).toHaveLength(1));
    await expect(await screen.findByTestId('root_file-file')).toHaveTextContent('numeros.csv');
    await ok();
    await waitFor(() => expect(submitted()).toEqual({ file: 'https://files.colibri.test/u/numeros.csv' }));
  },
};

export const ImageUploadWithPreview: Story = {
  args: { schema: schemaOf({ logo: { type: 'string', 'x-widget': 'image', title: 'fields.logoUrl', 'x-upload': { operation: 'company.uploadLogo' } } }) },
  play: async () => {
    const input = await screen.findByLabelText(/logo/i, { selector: 'input[type=file]' });
    await expect(input).toHaveAttribute('accept', 'image/png,image/jpeg,image/gif,image/webp');
    await userEvent.upload(input, new File(['png'], 'logo.png', { type: 'image/png' }));
    await waitFor(() => expect(callsTo('company.uploadLogo')).toHaveLength(1));
    await ok();
    await waitFor(() => expect(submitted()).toEqual({ logo: 'https://files.colibri.test/p/logo.png' }));
    await expect(screen.getByRole('img', { name: text('common.upload.preview', 'es') })).toBeInTheDocument();
  },
};

export const TagsAndKeywords: Story = {
  args: {
    schema: schemaOf({
      tags: { type: 'array', uniqueItems: true, items: { type: 'string', maxLength: 30 }, 'x-widget': 'tags', title: 'fields.tags' },
      keywords: { type: 'array', items: { type: 'string', pattern: '^[A-Za-z0-9ÁÉÍÓÚÜÑáéíóúüñ]+$' }, 'x-widget': 'keywords', title: 'fields.keywords' },
    }),
  },
  play: async () => {
    const tags = await combo(/etiquetas/i);
    await userEvent.type(tags, 'promo{Enter}ventas,promo,');
    await expect(screen.getByRole('button', { name: 'promo' })).toBeInTheDocument();
    await expect(screen.getByRole('button', { name: 'ventas' })).toBeInTheDocument();
    const kw = await combo(/palabras clave/i);
    await userEvent.type(kw, 'HOLA,con espacio,');
    await ok();
    await expect(await screen.findByText(text('validation.pattern.keywords', 'es'))).toBeInTheDocument();
    await userEvent.click(within(screen.getByRole('button', { name: 'con espacio' })).getByTestId('CancelIcon'));
    await ok();
    await waitFor(() => expect(submitted()).toEqual({ tags: ['promo', 'ventas'], keywords: ['HOLA'] }));
  },
};

export const Colour: Story = {
  args: { schema: schemaOf({ color: { type: 'string', pattern: '^#[0-9A-Fa-f]{6}$', 'x-widget': 'color', title: 'fields.color' } }) },
  play: async () => {
    const hex = await screen.findByLabelText(/^color/i, { selector: 'input:not([type=color])' });
    await userEvent.type(hex, '#ff6d0');
    await ok();
    await expect(await screen.findByText(text('validation.pattern', 'es'))).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText(text('common.color.pick', 'es', { field: text('fields.color', 'es') }), { exact: false }), { target: { value: '#ff6d00' } });
    await waitFor(() => expect(hex).toHaveValue('#FF6D00'));
    await ok();
    await waitFor(() => expect(submitted()).toEqual({ color: '#FF6D00' }));
  },
};

export const SecretKeptUnlessRetyped: Story = {
  args: { schema: schemaOf({ authorizationToken: { type: ['string', 'null'], 'x-widget': 'secret', title: 'fields.authorizationToken' } }), initial: { authorizationToken: '••••9f3a' } },
  play: async () => {
    const input = await screen.findByLabelText(/token de autorización/i, { selector: 'input' });
    // The stored secret is never shown: the mask is a placeholder, the field is empty.
    await expect(input).toHaveValue('');
    await expect(input).toHaveAttribute('placeholder', '••••9f3a');
    await expect(input).toHaveAttribute('type', 'password');
    await ok();
    await waitFor(() => expect(submitted()).toEqual({ authorizationToken: '••••9f3a' }));
    await userEvent.type(input, 'nuevo-token-123');
    await ok();
    await waitFor(() => expect(submitted()).toEqual({ authorizationToken: 'nuevo-token-123' }));
  },
};

function SecretOnceDemo() {
  return <SecretOnce secrets={[{ field: 'apiKey', label: 'API key', value: 'ck_live_abc.def' }]} onClose={() => undefined} />;
}

export const SecretShownOnceBox: StoryObj<typeof SecretOnceDemo> = {
  render: () => <SecretOnceDemo />,
  play: async () => {
    await expect(await screen.findByTestId('secret-apiKey')).toHaveValue('ck_live_abc.def');
    await expect(screen.getByTestId('secret-apiKey')).toHaveAttribute('readonly');
    await expect(screen.getByText(text('common.secret.warning', 'es'))).toBeInTheDocument();
  },
};

const labelOf = (key: string, lng: string) => new RegExp(`^${text(`fields.${key}`, lng).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'i');

const rulesSchema = schemaOf({
  code: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,19}$', 'x-errorKey': 'validation.pattern.costCenterCode', title: 'fields.code' },
  nit: { type: 'string', format: 'nit-co', title: 'fields.nit' },
  allowedIps: { type: 'string', format: 'cidr', title: 'fields.allowedIps' },
  documentId: { type: 'string', pattern: '^[0-9]{4,10}$', title: 'fields.documentId' },
});

/** Spec 5 rules with their own words, checked by the server's formats (src/core/formats.ts). */
export const RuleMessages: Story = {
  args: { schema: rulesSchema },
  play: async () => {
    const field = (key: string) => screen.getByLabelText(labelOf(key, 'es'), { selector: 'input' });
    await userEvent.type(field('code'), '-mal');
    await userEvent.type(field('nit'), '900123456-7');
    await userEvent.type(field('allowedIps'), '300.1.1.1/40');
    await userEvent.type(field('documentId'), '12a');
    await ok();
    await expect(await screen.findByText(text('validation.pattern.costCenterCode', 'es'))).toBeInTheDocument();
    await expect(screen.getByText(text('validation.format.nit-co', 'es'))).toBeInTheDocument();
    await expect(screen.getByText(text('validation.format.cidr', 'es'))).toBeInTheDocument();
    await expect(screen.getByText(text('validation.pattern.documentId', 'es'))).toBeInTheDocument();
    await userEvent.clear(field('nit'));
    await userEvent.type(field('nit'), '900123456-8');
    await userEvent.clear(field('allowedIps'));
    await userEvent.type(field('allowedIps'), '190.24.0.0/16');
    await userEvent.tab();
    await waitFor(() => expect(screen.queryByText(text('validation.format.nit-co', 'es'))).not.toBeInTheDocument());
    await expect(screen.queryByText(text('validation.format.cidr', 'es'))).not.toBeInTheDocument();
  },
};

export const RuleMessagesEnglish: Story = {
  args: { schema: rulesSchema },
  globals: { locale: 'en' },
  play: async () => {
    await userEvent.type(screen.getByLabelText(labelOf('code', 'en'), { selector: 'input' }), '-bad');
    await userEvent.type(screen.getByLabelText(labelOf('nit', 'en'), { selector: 'input' }), '1');
    await ok();
    await expect(await screen.findByText(text('validation.pattern.costCenterCode', 'en'))).toBeInTheDocument();
    await expect(screen.getByText(text('validation.format.nit-co', 'en'))).toBeInTheDocument();
  },
};
