// /Payments/General: an amount in pesos (1 credit = 1 COP, from the minimum purchase),
// what it makes (credits, taxes, total: core/payment-quote.ts, the rule the server charges by), the
// balance now, and "Pagar": the order is created on our server (pending, with its invoice) before
// the browser leaves for the gateway's checkout.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { RouteLink } from '../../runtime/navigation.tsx';
import { purchasable, quotePurchase } from '../../../core/payment-quote.ts';
import { call, useOperation } from '../../../generated/client.gen.ts';
import { constants } from '../../../generated/constants.gen.ts';
import { errorText } from '../../api/errors.ts';
import { ScreenFrame } from '../../runtime/ScreenFrame.tsx';
import { formatCop, formatDateTime, formatInteger } from '../../runtime/format.ts';
import type { FeatureProps } from '../registry.ts';
import { useFeatureStrings } from '../strings.ts';
import { openCheckout } from './checkout.ts';
import { pageOrigin } from './page-origin.ts';
import { factsListSx } from './facts-list.ts';

const SUGGESTED = [20_000, 50_000, 100_000, 500_000];

/** Digits only: "50.000" and "$ 50,000" both read as 50000. */
const amountOf = (text: string): number | null => {
  const digits = text.replace(/\D/g, '');
  return digits ? Number(digits) : null;
};

export default function BuyCredits(_props: FeatureProps) {
  const { t } = useTranslation();
  const ready = useFeatureStrings('payments');
  const summary = useOperation('account.paymentsSummary', {});
  const promotions = useOperation('payments.promotions', {});
  const [text, setText] = useState('50000');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!ready) return <LinearProgress aria-label={t('common.loading')} />;

  const amount = amountOf(text);
  const valid = amount !== null && purchasable(amount);
  const quote = valid ? quotePurchase(amount) : null;
  const rangeText = t('errors.server.purchaseOutOfRange');

  async function pay(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    setError(null);
    if (amount === null || !valid) return;
    setBusy(true);
    try {
      const answer = await call('payments.create', { body: { amount, returnOrigin: await pageOrigin() } });
      await openCheckout(answer.checkout);
    } catch (e) {
      setError(errorText(t, e));
      setBusy(false);
    }
  }

  return (
    <ScreenFrame title={t('payments.buy.title')} description={t('payments.buy.description', { minimum: formatCop(constants.credits.minimumPurchaseCop) })}>
      <Box component="form" noValidate onSubmit={(e) => void pay(e)} aria-describedby="buy-summary">
        <Stack spacing={2}>
          <Typography>
            {t('payments.buy.balance')}: <strong>{summary.data ? formatCop(summary.data.balance) : '…'}</strong>
          </Typography>
          {promotions.data?.some((p) => !p.expired && p.remaining > 0) && (
            <Alert severity="info">
              <strong>{t('payments.buy.promotions')}</strong>
              <ul style={{ margin: 0, paddingInlineStart: '1.2rem' }}>
                {promotions.data.filter((p) => !p.expired && p.remaining > 0).map((p) => (
                  <li key={p.id}>{t('payments.buy.promotion', { remaining: formatInteger(p.remaining), platform: t(`enums.channel-platform.${p.platform}`), date: formatDateTime(p.expiresAt) })}</li>
                ))}
              </ul>
            </Alert>
          )}
          <TextField
            id="buy-amount"
            label={t('payments.buy.amount')}
            value={text}
            onChange={(e) => { setText(e.target.value); setError(null); }}
            onBlur={() => setTouched(true)}
            required
            inputMode="numeric"
            error={touched && !valid}
            helperText={touched && !valid ? rangeText : t('payments.buy.amountHelp')}
            slotProps={{ htmlInput: { 'aria-invalid': touched && !valid, autoComplete: 'off' } }}
          />
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }} role="group" aria-label={t('payments.buy.suggested')}>
            {SUGGESTED.map((value) => (
              <Chip key={value} label={formatCop(value)} clickable color={amount === value ? 'primary' : 'default'} onClick={() => { setText(String(value)); setTouched(true); setError(null); }} />
            ))}
          </Stack>
          <Box id="buy-summary" component="dl" sx={factsListSx}>
            <dt>{t('payments.buy.credits')}</dt>
            <dd style={{ margin: 0 }}>{quote ? formatInteger(quote.credits) : '—'}</dd>
            <dt>{t('payments.buy.tax')}</dt>
            <dd style={{ margin: 0 }}>{quote ? formatCop(quote.tax) : '—'}</dd>
            <dt><strong>{t('payments.buy.total')}</strong></dt>
            <dd style={{ margin: 0 }}><strong>{quote ? formatCop(quote.total) : '—'}</strong></dd>
          </Box>
          {error && <Alert severity="error" role="alert">{error}</Alert>}
          {busy && <LinearProgress aria-label={t('payments.buy.opening')} />}
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
            <Button type="submit" variant="contained" disabled={busy}>{t('payments.buy.pay')}</Button>
            <Button component={RouteLink} to="/Payments/History">{t('payments.buy.history')}</Button>
          </Stack>
          <Typography variant="body2" color="text.secondary">{t('payments.buy.secure')}</Typography>
        </Stack>
      </Box>
    </ScreenFrame>
  );
}
