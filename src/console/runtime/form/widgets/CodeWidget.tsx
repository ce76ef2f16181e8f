// A read-only text the server computes for the record (`x-widget: code`): shown in a monospace
// box with a Copy button, never sent back (the operation's body does not take it). An event's
// ready-to-copy example call is one. Before the record exists it says when it will appear.
import { useState } from 'react';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import ContentCopy from '@mui/icons-material/ContentCopy';
import type { WidgetProps } from '@rjsf/utils';
import { useTranslation } from 'react-i18next';
import { copyText } from '../../clipboard.ts';

export default function CodeWidget(props: WidgetProps) {
  const { t } = useTranslation();
  const { id, value, label } = props;
  const text = typeof value === 'string' ? value : '';
  const [copied, setCopied] = useState(false);
  return (
    <Box>
      <Typography variant="body2" component="label" htmlFor={id} sx={{ display: 'block', mb: 0.5, color: 'text.secondary' }}>
        {label}
      </Typography>
      {text ? (
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
          <Box
            component="pre"
            id={id}
            data-testid={`code-${id}`}
            tabIndex={0}
            sx={{ flex: 1, m: 0, p: 1.5, overflowX: 'auto', whiteSpace: 'pre-wrap', wordBreak: 'break-all', fontFamily: 'monospace', fontSize: 13, bgcolor: 'action.hover', borderRadius: 1 }}
          >
            {text}
          </Box>
          <Tooltip title={copied ? t('common.code.copied') : t('common.code.copy')}>
            <IconButton aria-label={t('common.code.copy')} onClick={() => void copyText(text).then(setCopied)}>
              <ContentCopy />
            </IconButton>
          </Tooltip>
        </Box>
      ) : (
        <Typography id={id} variant="body2" color="text.secondary">
          {t('common.code.empty')}
        </Typography>
      )}
      {copied && (
        <Typography variant="caption" role="status" color="success.main">
          {t('common.code.copied')}
        </Typography>
      )}
    </Box>
  );
}
