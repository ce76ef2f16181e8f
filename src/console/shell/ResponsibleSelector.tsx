// The responsible person the user works for: the session's associations (spec 1 and 3), each named
// with the platform client it belongs to (the session's `clients`) when the user works for several.
import { useState } from 'react';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import type { Association, SessionUser } from '../../generated/types.gen.ts';
import { readItem, storageKeys, writeItem } from '../api/storage.ts';

export function ResponsibleSelector({ associations, clients = [] }: { associations: readonly Association[]; clients?: SessionUser['clients'] }) {
  const { t } = useTranslation();
  const clientName = new Map((clients ?? []).map((c) => [c.id, c.name]));
  // One client: its name on every line says nothing; several: each line says whose responsible it is.
  const several = new Set(associations.map((a) => a.platformClientId)).size > 1;
  const labelOf = (a: Association) => (several && clientName.has(a.platformClientId) ? `${clientName.get(a.platformClientId)} · ${a.name}` : a.name);
  const keyOf = (a: Association) => `${a.platformClientId}:${a.platformResponsibleId}`;
  const [selected, setSelected] = useState<string>(() => {
    const saved = readItem(storageKeys.responsible);
    return associations.some((a) => keyOf(a) === saved) ? saved! : associations[0] ? keyOf(associations[0]) : '';
  });
  if (!associations.length) return null;
  return (
    <TextField
      select
      size="small"
      label={t('shell.responsible')}
      value={selected}
      onChange={(e) => {
        setSelected(e.target.value);
        writeItem(storageKeys.responsible, e.target.value);
      }}
      sx={{ minWidth: 150, bgcolor: 'rgba(255,255,255,0.85)', borderRadius: 1 }}
    >
      {associations.map((a) => (
        <MenuItem key={keyOf(a)} value={keyOf(a)}>
          {labelOf(a)}
        </MenuItem>
      ))}
    </TextField>
  );
}
