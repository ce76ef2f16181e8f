// Messages as the recipient's phone shows them (a summary's samples, "number: text"): each a chat
// bubble under the number it goes to; an SMS bubble says its parts and encoding, as the operator
// bills it (core/sms-parts.ts). Text, never HTML: what a person wrote in the file shows as written.
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { countSms } from '../../../core/sms-parts.ts';
import type { CellProps } from './cells.tsx';

/** "+573001234701: Hola Ana" → the number and the text (a text may hold ": " too). */
export function splitSample(sample: string): { to: string; text: string } {
  const at = sample.indexOf(': ');
  return at < 0 ? { to: '', text: sample } : { to: sample.slice(0, at), text: sample.slice(at + 2) };
}

export function MessageBubbles({ value, row }: CellProps) {
  const { t } = useTranslation();
  const samples = Array.isArray(value) ? value.map(String) : [];
  if (!samples.length) return <>—</>;
  // A channel type counted in parts (SMS) has them in the summary; the others have none (null).
  const sms = row.parts !== null && row.parts !== undefined;
  return (
    <Stack spacing={1.5} data-testid="message-bubbles">
      {samples.map((sample, i) => {
        const { to, text } = splitSample(sample);
        const count = sms ? countSms(text) : null;
        return (
          <Box key={i} sx={{ maxWidth: 360 }}>
            <Typography variant="caption" color="text.secondary">{to}</Typography>
            <Box sx={{ bgcolor: sms ? '#E9E9EB' : '#DCF8C6', color: '#1F1A14', borderRadius: '16px 16px 16px 4px', px: 1.5, py: 1, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {text}
            </Box>
            {count && (
              <Typography variant="caption" color="text.secondary" data-testid="bubble-parts">
                {t('common.bubble.parts', { count: Math.max(1, count.parts), encoding: count.encoding })}
              </Typography>
            )}
          </Box>
        );
      })}
    </Stack>
  );
}
