// A value to copy (a short link): the text and a Copy button beside it, which says "Copiado" once
// done. The press does not open the row it sits in.
import { useState } from 'react';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import ContentCopy from '@mui/icons-material/ContentCopy';
import Check from '@mui/icons-material/Check';
import { useTranslation } from 'react-i18next';
import { copyText } from '../clipboard.ts';
import type { CellProps } from './cells.tsx';

export function CopyCell({ value }: CellProps) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  if (value === undefined || value === null || value === '') return <>—</>;
  const text = String(value);
  const label = copied ? t('common.secret.copied') : t('common.copyValue', { value: text });
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, maxWidth: '100%' }}>
      <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{text}</Box>
      <Tooltip title={copied ? t('common.secret.copied') : t('common.secret.copy')}>
        <IconButton
          size="small"
          aria-label={label}
          onClick={(e) => {
            e.stopPropagation();
            void copyText(text).then(setCopied);
          }}
          onKeyDown={(e) => e.stopPropagation()}
        >
          {copied ? <Check fontSize="inherit" /> : <ContentCopy fontSize="inherit" />}
        </IconButton>
      </Tooltip>
    </Box>
  );
}
