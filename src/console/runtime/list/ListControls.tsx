// The controls above a list: the search box and one control per filter (enum and yes/no selects,
// a picker when the filter names an options source, a date, else text). Text is applied after the
// user stops typing, so each keystroke does not ask the server.
import { useEffect, useRef, useState } from 'react';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import InputAdornment from '@mui/material/InputAdornment';
import Search from '@mui/icons-material/Search';
import { useTranslation } from 'react-i18next';
import { enumLabel } from '../cells/cells.tsx';
import { optionsSource, useOptions } from '../options.ts';
import { sourceOf } from '../form/widgets/named-sources.ts';
import type { ScreenFilter } from '../screen-types.ts';

export const TYPING_DELAY_MS = 350;

/** A text field that reports its value after a pause (or on Enter / leaving it). */
function DebouncedText({ label, value, onCommit, type = 'text', startIcon }: { label: string; value: string; onCommit: (v: string) => void; type?: string; startIcon?: boolean }) {
  const [text, setText] = useState(value);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const committed = useRef(value);
  useEffect(() => {
    if (value !== committed.current) {
      committed.current = value;
      setText(value);
    }
  }, [value]);
  const commit = (v: string) => {
    clearTimeout(timer.current);
    if (v === committed.current) return;
    committed.current = v;
    onCommit(v);
  };
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <TextField
      size="small"
      label={label}
      type={type}
      value={text}
      onChange={(e) => {
        setText(e.target.value);
        clearTimeout(timer.current);
        const v = e.target.value;
        timer.current = setTimeout(() => commit(v), TYPING_DELAY_MS);
      }}
      onBlur={() => commit(text)}
      onKeyDown={(e) => e.key === 'Enter' && commit(text)}
      slotProps={{
        inputLabel: type === 'date' ? { shrink: true } : undefined,
        input: startIcon ? { startAdornment: <InputAdornment position="start"><Search fontSize="small" /></InputAdornment> } : undefined,
      }}
      sx={{ minWidth: type === 'date' ? 170 : 200 }}
    />
  );
}

export function SearchBox({ value, onCommit }: { value: string; onCommit: (v: string) => void }) {
  const { t } = useTranslation();
  return <DebouncedText label={t('common.list.search')} value={value} onCommit={onCommit} type="search" startIcon />;
}

function SelectFilter({ label, value, onCommit, options }: { label: string; value: string; onCommit: (v: string) => void; options: { value: string; label: string }[] }) {
  const { t } = useTranslation();
  return (
    <TextField select size="small" label={label} value={value} onChange={(e) => onCommit(e.target.value)} sx={{ minWidth: 180 }}>
      <MenuItem value="">
        <em>{t('common.list.all')}</em>
      </MenuItem>
      {options.map((o) => (
        <MenuItem key={o.value} value={o.value}>
          {o.label}
        </MenuItem>
      ))}
    </TextField>
  );
}

function OptionsFilter({ filter, value, onCommit }: { filter: ScreenFilter; value: string; onCommit: (v: string) => void }) {
  const { t } = useTranslation();
  // The same source as the form's pickers: system roles read enums.role.<name>, not their raw names.
  const { options } = useOptions(sourceOf(filter.schema), {});
  return <SelectFilter label={t(filter.label)} value={value} onCommit={onCommit} options={options.map((o) => ({ value: String(o.value), label: o.label }))} />;
}

export function FilterControl({ filter, value, onCommit }: { filter: ScreenFilter; value: string; onCommit: (v: string) => void }) {
  const { t, i18n } = useTranslation();
  const s = filter.schema;
  const label = t(filter.label);
  if (optionsSource(s)) return <OptionsFilter filter={filter} value={value} onCommit={onCommit} />;
  if (Array.isArray(s.enum)) {
    const options = (s.enum as unknown[]).map((v) => ({ value: String(v), label: enumLabel(t, s['x-enum'], v, (k) => i18n.exists(k)) }));
    return <SelectFilter label={label} value={value} onCommit={onCommit} options={options} />;
  }
  if (s.type === 'boolean') return <SelectFilter label={label} value={value} onCommit={onCommit} options={[{ value: 'true', label: t('common.yes') }, { value: 'false', label: t('common.no') }]} />;
  const type = s.format === 'date' ? 'date' : s.type === 'integer' || s.type === 'number' ? 'number' : 'text';
  return <DebouncedText label={label} value={value} onCommit={onCommit} type={type} />;
}
