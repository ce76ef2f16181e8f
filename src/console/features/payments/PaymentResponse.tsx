// /epaycoResponse: where the buyer's browser comes back from the gateway's checkout.
// The state shown is our server's (payments.byInvoice), never the address's parameters: ref_payco
// is passed on only so the server may ask the gateway by reference. While the order is pending the
// page asks again every few seconds (a pending card, a PSE transfer), and says so.
import Alert, { type AlertColor } from '@mui/material/Alert';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RouteLink, useSearchParams } from '../../runtime/navigation.tsx';
import { call, useOperation } from '../../../generated/client.gen.ts';
import type { PaymentStatus } from '../../../generated/enums.gen.ts';
import { errorText } from '../../api/errors.ts';
import { ScreenFrame } from '../../runtime/ScreenFrame.tsx';
import { enumLabel } from '../../runtime/cells/cells.tsx';
import { formatCop, formatInteger } from '../../runtime/format.ts';
import type { FeatureProps } from '../registry.ts';
import { useFeatureStrings } from '../strings.ts';
import { factsListSx } from './facts-list.ts';

const POLL_MS = 2_000;
const SEVERITY: Record<PaymentStatus, AlertColor> = { approved: 'success', accepted: 'success', pending: 'info', rejected: 'error', abandoned: 'warning', debit: 'warning' };
const INVOICE = /^[A-Z0-9-]{1,60}$/;
const REF = /^[A-Za-z0-9_-]{1,64}$/;

export default function PaymentResponse(_props: FeatureProps) {
  const { t, i18n } = useTranslation();
  const ready = useFeatureStrings('payments');
  const [search] = useSearchParams();
  const invoice = search.get('invoice') ?? '';
  const ref = search.get('ref_payco') ?? '';
  const known = INVOICE.test(invoice);
  const answer = useOperation('payments.byInvoice', known ? { params: { invoice }, ...(REF.test(ref) ? { query: { ref_payco: ref } } : {}) } : null, {
    refreshInterval: (latest) => (latest?.status === 'pending' ? POLL_MS : 0),
  });
  const summary = useOperation('account.paymentsSummary', answer.data && answer.data.status !== 'pending' ? {} : null);
  const [voucherError, setVoucherError] = useState<string | null>(null);
  if (!ready) return <LinearProgress aria-label={t('common.loading')} />;

  const payment = answer.data;
  async function voucher(id: number) {
    try {
      const link = await call('payments.voucherLink', { params: { id } });
      if (link.url.startsWith('/') && !link.url.startsWith('//')) window.location.assign(link.url);
    } catch (e) {
      setVoucherError(errorText(t, e));
    }
  }

  return (
    <ScreenFrame title={t('payments.response.title')}>
      <Stack spacing={2}>
        {!known && <Alert severity="warning">{t('payments.response.noInvoice')}</Alert>}
        {answer.error && <Alert severity="error" role="alert">{errorText(t, answer.error)}</Alert>}
        {known && !payment && !answer.error && <LinearProgress aria-label={t('common.loading')} />}
        {payment && (
          <>
            <Alert severity={SEVERITY[payment.status]} role="status" aria-live="polite">
              <strong>{t(`enums.payment-status.${payment.status}`)}</strong> — {t(`payments.response.status_${payment.status}`, { credits: formatInteger(payment.creditsMoved) })}
            </Alert>
            {payment.status === 'pending' && <LinearProgress aria-label={t('payments.response.waiting')} />}
            <Typography component="dl" sx={factsListSx}>
              <dt>{t('fields.invoice')}</dt><dd style={{ margin: 0 }}>{payment.invoice}</dd>
              <dt>{t('fields.amount')}</dt><dd style={{ margin: 0 }}>{formatCop(payment.amount)}</dd>
              <dt>{t('fields.creditsMoved')}</dt><dd style={{ margin: 0 }}>{formatInteger(payment.creditsMoved)}</dd>
              {/* The gateway's answer in the reader's words (its state code), not its Spanish text. */}
              {payment.gatewayCode != null && (<><dt>{t('fields.gatewayCode')}</dt><dd style={{ margin: 0 }}>{enumLabel(t, 'epayco-state', payment.gatewayCode, (k) => i18n.exists(k))}</dd></>)}
              {payment.reference && (<><dt>{t('fields.reference')}</dt><dd style={{ margin: 0 }}>{payment.reference}</dd></>)}
              {summary.data && (<><dt>{t('payments.response.balance')}</dt><dd style={{ margin: 0 }}>{formatCop(summary.data.balance)}</dd></>)}
            </Typography>
            {voucherError && <Alert severity="error" role="alert">{voucherError}</Alert>}
            <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
              {(payment.status === 'approved' || payment.status === 'accepted') && (
                <Button variant="contained" onClick={() => void voucher(payment.id)}>{t('payments.response.voucher')}</Button>
              )}
              {payment.status !== 'approved' && payment.status !== 'pending' && (
                <Button variant="contained" component={RouteLink} to="/Payments/General">{t('payments.response.tryAgain')}</Button>
              )}
              <Button component={RouteLink} to="/Payments/History">{t('payments.response.history')}</Button>
              <Button component={RouteLink} to="/User">{t('payments.response.home')}</Button>
            </Stack>
          </>
        )}
      </Stack>
    </ScreenFrame>
  );
}
