import type { Meta, StoryObj } from '@storybook/react-vite';
import Box from '@mui/material/Box';
import { expect, screen, within } from 'storybook/test';
import { text } from '../../stories/helpers.ts';
import { VirtualTable } from '../list/VirtualTable.tsx';
import type { ScreenColumn } from '../screen-types.ts';
import { cellKey } from './registry.ts';

/** One column per display type; the cell is chosen by the ranked testers from each field's schema. */
const columns: ScreenColumn[] = [
  { field: 'name', label: 'fields.name', schema: { type: 'string' } },
  { field: 'quota', label: 'fields.quota', schema: { type: 'integer' } },
  { field: 'balance', label: 'fields.total', schema: { type: 'integer', 'x-display': 'cop' } },
  { field: 'day', label: 'fields.dateStart', schema: { type: 'string', format: 'date' } },
  { field: 'createdAt', label: 'fields.createdAt', schema: { type: 'string', format: 'date-time' } },
  { field: 'enabled', label: 'fields.enabled', schema: { type: 'boolean' } },
  { field: 'documentType', label: 'fields.documentType', schema: { type: 'string', enum: ['CC', 'NIT'], 'x-enum': 'document-type' } },
  { field: 'roles', label: 'fields.roles', schema: { type: 'array', items: { type: 'string' } } },
  { field: 'tags', label: 'fields.tags', schema: { type: 'array', items: { type: 'string' } } },
  { field: 'token', label: 'fields.authorizationToken', schema: { type: ['string', 'null'], 'x-widget': 'secret' } },
  { field: 'state', label: 'fields.state', schema: { type: 'string', enum: ['active', 'pending', 'disabled'], 'x-enum': 'user-state' } },
  { field: 'status', label: 'fields.status', schema: { type: 'string', enum: ['pending', 'effective'], 'x-enum': 'block-list-status' }, colors: { pending: 'info' } },
  { field: 'statement', label: 'fields.statement', schema: { type: 'string', 'x-display': 'json' } },
];

const rows = [
  { id: 1, name: 'Ana Gómez', quota: 1250000, balance: 1250000, day: '2025-06-02', createdAt: new Date(2025, 5, 2, 15, 4).toISOString(), enabled: true, documentType: 'CC', roles: ['manager', 'analista'], tags: ['promo', 'ventas'], token: '••••9f3a', state: 'active', status: 'pending', statement: '{"a":1,"b":[2]}' },
  { id: 2, name: 'Luis Pérez', quota: 0, balance: 0, day: null, createdAt: null, enabled: false, documentType: 'NIT', roles: [], tags: [], token: 'sk-live-000000000000abcd', state: 'disabled', status: 'effective', statement: 'no es JSON' },
];

function CellsDemo() {
  return (
    <Box sx={{ p: 2 }}>
      <VirtualTable columns={columns} count={rows.length} rowAt={(i) => rows[i]} idOf={(r) => r.id} caption="cells" />
    </Box>
  );
}

const meta = { title: 'Runtime/Cells', component: CellsDemo } satisfies Meta<typeof CellsDemo>;
export default meta;
type Story = StoryObj<typeof meta>;

const cellOf = (row: number, field: string) => {
  const index = columns.findIndex((c) => c.field === field);
  const tr = within(screen.getByRole('table')).getAllByRole('row')[row + 1];
  return within(tr).getAllByRole('cell')[index];
};

export const EveryCellType: Story = {
  play: async () => {
    await expect(columns.map(cellKey)).toEqual(['text', 'integer', 'cop', 'date', 'datetime', 'boolean', 'enum', 'roles', 'chips', 'secret', 'status', 'status', 'json']);
    await expect(cellOf(0, 'quota')).toHaveTextContent('1.250.000');
    await expect(cellOf(0, 'balance').textContent?.replace(/\s/g, ' ')).toBe('$ 1.250.000');
    await expect(cellOf(0, 'day')).toHaveTextContent('2025/06/02');
    await expect(cellOf(0, 'createdAt')).toHaveTextContent('2025/06/02 3:04pm');
    await expect(cellOf(0, 'enabled')).toHaveTextContent(text('common.yes', 'es'));
    await expect(cellOf(1, 'enabled')).toHaveTextContent(text('common.no', 'es'));
    await expect(cellOf(0, 'documentType')).toHaveTextContent(text('enums.document-type.CC', 'es'));
    await expect(within(cellOf(0, 'roles')).getByText(text('enums.role.manager', 'es'))).toBeInTheDocument();
    await expect(within(cellOf(0, 'tags')).getByText('ventas')).toBeInTheDocument();
    await expect(cellOf(0, 'state').querySelector('[data-status]')).toHaveAttribute('data-color', 'success');
    await expect(cellOf(1, 'state').querySelector('[data-status]')).toHaveAttribute('data-color', 'error');
    await expect(cellOf(0, 'status').querySelector('[data-status]')).toHaveAttribute('data-color', 'info');
    await expect(cellOf(1, 'day')).toHaveTextContent('—');
    // JSON indented to be read; text that is not JSON as written.
    await expect(cellOf(0, 'statement').querySelector('pre')?.textContent).toBe('{\n  "a": 1,\n  "b": [\n    2\n  ]\n}');
    await expect(cellOf(1, 'statement')).toHaveTextContent('no es JSON');
  },
};

export const SecretsNeverShowInFull: Story = {
  play: async () => {
    await expect(cellOf(0, 'token')).toHaveTextContent('••••9f3a');
    // Even a value the server should have masked shows only its last four characters.
    await expect(cellOf(1, 'token')).toHaveTextContent('••••abcd');
    await expect(screen.queryByText(/sk-live/)).not.toBeInTheDocument();
  },
};

export const English: Story = {
  globals: { locale: 'en' },
  play: async () => {
    await expect(cellOf(0, 'documentType')).toHaveTextContent(text('enums.document-type.CC', 'en'));
    await expect(cellOf(0, 'enabled')).toHaveTextContent('Yes');
  },
};
