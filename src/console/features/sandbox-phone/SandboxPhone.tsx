// /sandbox/phone: a phone in the demo (Twilio's Virtual Phone is the model). Pick a number, see
// what it received over SMS and WhatsApp as a handset shows it (the companies' messages on the
// left, with their channel type and where each stands; what it wrote on the right), and write an answer that arrives as
// an inbound message through the channel's stand-in (the SMSC's deliver_sm, Meta's signed
// webhook): keyword routes, SALIR and chatbot agents answer it like a real one. It asks again every
// few seconds while open. In production the sandbox operations do not exist: the page says so.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { call, useOperation } from '../../../generated/client.gen.ts';
import type { SandboxPhone as Phone } from '../../../generated/types.gen.ts';
import { ApiError, errorText } from '../../api/errors.ts';
import { useSearchParams } from '../../runtime/navigation.tsx';
import { ScreenFrame } from '../../runtime/ScreenFrame.tsx';
import { formatDateTime } from '../../runtime/format.ts';
import type { FeatureProps } from '../registry.ts';
import { useFeatureStrings } from '../strings.ts';

const POLL_MS = 2_000;
type Line = Phone['lines'][number];

/** A bubble as a handset draws it: received on the left, written on the right; its caption names the channel type. */
function Bubble({ line }: { line: Line }) {
  const { t } = useTranslation();
  const received = line.direction === 'out';
  const status = received ? (line.deliveryStatus ? t(`enums.delivery-status.${line.deliveryStatus}`) : line.state ? t(`enums.message-state.${line.state}`) : '') : '';
  return (
    <Box component="li" sx={{ listStyle: 'none', display: 'flex', flexDirection: 'column', alignItems: received ? 'flex-start' : 'flex-end' }} data-testid={`phone-line-${line.direction}`}>
      <Box sx={{
        maxWidth: '80%', px: 1.5, py: 1, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', color: '#1F1A14',
        bgcolor: received ? '#E9E9EB' : '#CFE3FF',
        borderRadius: received ? '16px 16px 16px 4px' : '16px 16px 4px 16px',
      }}>
        {line.text}
      </Box>
      <Typography variant="caption" color="text.secondary">
        {t(`enums.channel-platform.${line.platform}`)} · {line.channel} · {formatDateTime(line.at)}{status ? ` · ${status}` : ''}
      </Typography>
    </Box>
  );
}

export default function SandboxPhone(_props: FeatureProps) {
  const { t } = useTranslation();
  const ready = useFeatureStrings('sandboxPhone');
  const [search, setSearch] = useSearchParams();
  const number = search.get('number') ?? '';
  const [typed, setTyped] = useState(number);
  const phone = useOperation('system.phone', number ? { query: { number } } : null, { refreshInterval: POLL_MS, revalidateOnFocus: false });
  const [channelId, setChannelId] = useState<number | ''>('');
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [sendError, setSendError] = useState<string | null>(null);
  const end = useRef<HTMLLIElement>(null);
  const lines = phone.data?.lines ?? [];
  const channels = phone.data?.channels ?? [];
  const chosen: number | null = channelId === '' ? (channels[0]?.id ?? null) : channelId;

  // The newest message in view, as a handset scrolls.
  useEffect(() => { end.current?.scrollIntoView?.({ block: 'nearest' }); }, [lines.length]);
  if (!ready) return <LinearProgress aria-label={t('common.loading')} />;

  const absent = phone.error instanceof ApiError && phone.error.status === 404;
  function open(e: FormEvent) {
    e.preventDefault();
    const next = new URLSearchParams(search);
    next.set('number', typed.trim());
    setSearch(next);
  }
  async function send(e: FormEvent) {
    e.preventDefault();
    if (!phone.data || chosen === null || !text.trim()) return;
    setSending(true);
    setSendError(null);
    try {
      await call('system.inbound', { body: { channelId: chosen, from: phone.data.number, text: text.trim() } });
      setText('');
      await phone.mutate();
    } catch (error) {
      setSendError(errorText(t, error));
    } finally {
      setSending(false);
    }
  }

  return (
    <ScreenFrame title={t('sandboxPhone.title')} description={t('sandboxPhone.description')} maxWidth={720}>
      <Stack spacing={2}>
        <Box component="form" onSubmit={open} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap' }}>
          <TextField label={t('sandboxPhone.number')} value={typed} onChange={(e) => setTyped(e.target.value)} helperText={t('sandboxPhone.numberHelp')} size="small" sx={{ minWidth: 240 }} />
          <Button type="submit" variant="contained" disabled={!typed.trim()}>{t('sandboxPhone.open')}</Button>
        </Box>
        {absent && <Alert severity="info">{t('sandboxPhone.onlyDemo')}</Alert>}
        {phone.error && !absent && <Alert severity="error" role="alert">{errorText(t, phone.error)}</Alert>}
        {number && !phone.data && !phone.error && <LinearProgress aria-label={t('common.loading')} />}
        {phone.data && (
          <Box sx={{ border: 8, borderColor: '#1F1A14', borderRadius: 6, maxWidth: 420, width: '100%', overflow: 'hidden', bgcolor: 'background.paper' }}>
            <Box sx={{ px: 2, py: 1, bgcolor: '#1F1A14', color: '#FFFFFF' }}>
              <Typography component="h2" variant="subtitle1">{phone.data.number}</Typography>
            </Box>
            <Box role="log" aria-live="polite" aria-label={t('sandboxPhone.conversation')} tabIndex={0} sx={{ height: 420, overflowY: 'auto' }}>
              {lines.length === 0 && <Typography sx={{ p: 1.5 }} color="text.secondary">{t('sandboxPhone.empty')}</Typography>}
              <Box component="ul" sx={{ m: 0, p: 1.5, display: 'flex', flexDirection: 'column', gap: 1 }}>
                {lines.map((line) => <Bubble key={line.id} line={line} />)}
                <li ref={end} style={{ listStyle: 'none' }} aria-hidden="true" />
              </Box>
            </Box>
            <Box component="form" onSubmit={(e) => void send(e)} sx={{ p: 1.5, borderTop: 1, borderColor: 'divider', display: 'flex', flexDirection: 'column', gap: 1 }}>
              {channels.length === 0
                ? <Typography variant="body2" color="text.secondary">{t('sandboxPhone.noChannels')}</Typography>
                : (
                  <>
                    <TextField select size="small" label={t('sandboxPhone.channel')} value={chosen ?? ''} onChange={(e) => setChannelId(Number(e.target.value))}>
                      {channels.map((c) => <MenuItem key={c.id} value={c.id}>{`${c.name} (${t(`enums.channel-platform.${c.platform}`)})`}</MenuItem>)}
                    </TextField>
                    <Box sx={{ display: 'flex', gap: 1 }}>
                      <TextField size="small" fullWidth label={t('sandboxPhone.message')} value={text} onChange={(e) => setText(e.target.value)} slotProps={{ htmlInput: { maxLength: 1000 } }} />
                      <Button type="submit" variant="contained" disabled={sending || !text.trim()}>{t('sandboxPhone.send')}</Button>
                    </Box>
                  </>
                )}
              {sendError && <Alert severity="error" role="alert">{sendError}</Alert>}
            </Box>
          </Box>
        )}
        <Typography variant="body2" color="text.secondary">{t('sandboxPhone.failureRule')}</Typography>
      </Stack>
    </ScreenFrame>
  );
}
