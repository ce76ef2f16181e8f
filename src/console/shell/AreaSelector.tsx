// The branch office (area) the user works in: GET /v1/account, the choice remembered in
// localStorage (spec 1 and 3).
import { useEffect, useState } from 'react';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import WarningAmber from '@mui/icons-material/WarningAmber';
import { useTranslation } from 'react-i18next';
import { useAccountList } from '../../generated/client.gen.ts';
import { readItem, storageKeys, writeItem } from '../api/storage.ts';

export function AreaSelector() {
  const { t } = useTranslation();
  const { data, error } = useAccountList({});
  const [selected, setSelected] = useState<string>(() => readItem(storageKeys.area) ?? '');
  const areas = data ?? [];

  useEffect(() => {
    if (!areas.length) return;
    if (!areas.some((a) => String(a.id) === selected)) {
      const first = String(areas[0].id);
      setSelected(first);
      writeItem(storageKeys.area, first);
    }
  }, [areas, selected]);

  if (error) {
    return (
      <Tooltip title={t('errors.client.loadAccounts')}>
        <WarningAmber aria-label={t('errors.client.loadAccounts')} />
      </Tooltip>
    );
  }
  if (!areas.length) return null;
  return (
    <TextField
      select
      size="small"
      label={t('shell.area')}
      value={areas.some((a) => String(a.id) === selected) ? selected : ''}
      onChange={(e) => {
        setSelected(e.target.value);
        writeItem(storageKeys.area, e.target.value);
      }}
      sx={{ minWidth: 150, bgcolor: 'rgba(255,255,255,0.85)', borderRadius: 1 }}
    >
      {areas.map((a) => (
        <MenuItem key={a.id} value={String(a.id)}>
          {a.name}
        </MenuItem>
      ))}
    </TextField>
  );
}
