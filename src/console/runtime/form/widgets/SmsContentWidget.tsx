// A message's content (`x-widget: smsContent`): a multiline text field with a live counter under
// it, worked out by the same pure rules the server and the engine use (src/core): characters, the
// encoding (GSM-7, or UCS-2 and the characters that force it), SMS parts, units left in the last
// part and the estimated cost per recipient in COP (variables at their average length, links at
// the short link's). Broken variables (99924) and external links (99925) are named before submit,
// so the server's refusal never comes as a surprise. The counter is a polite live region.
// Limits: nothing is cut. Past constants.sms.warnParts parts a warning says what each
// part costs; more than constants.sms.maxParts parts, or more characters than any channel takes
// (constants.limits.messageCharacters), is an error naming the limit, and the form refuses it
// (validation.ts, the server's 99903/99904). A pasted text stays whole, so the sender sees it all.
// `x-shorten` (an operation that shortens a URL and the answer's field with the short link): each
// external link gets an "Acortar" button that replaces it in place with a tracked short link
//, so a pasted URL never has to leave the editor.
// `x-smsWhen` (a condition on the form's values, a template's `channel: sms`): the SMS facts
// (encoding, parts, what is left, cost) show only while it holds; characters, variables and the
// warnings always do.
import { useId, useMemo, useState } from 'react';
import Button from '@mui/material/Button';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { WidgetProps } from '@rjsf/utils';
import { useTranslation } from 'react-i18next';
import { characterCount, estimateCost, lengthProblem, refusedLinks, validateTemplate, variablesOf } from '../../../../core/message-content.ts';
import { countSms } from '../../../../core/sms-parts.ts';
import { call, type OperationId } from '../../../../generated/client.gen.ts';
import { buildArgs } from '../../../api/args.ts';
import { errorText } from '../../../api/errors.ts';
import { constants } from '../../../../generated/constants.gen.ts';
import { formatCop, formatInteger } from '../../format.ts';
import { rowApplies } from '../../expressions.ts';
import type { RowCondition } from '../../screen-types.ts';
import { textFieldProps } from './text-field.ts';

/** What the counter shows for a text; pure, so stories and tests can read it too. */
export function smsFacts(text: string, shortener: readonly string[] = []) {
  const count = countSms(text);
  const cost = estimateCost(text, 1);
  return {
    characters: characterCount(text),
    encoding: count.encoding,
    nonGsm: count.nonGsm,
    parts: count.parts,
    remaining: count.remaining,
    costCop: cost.costCop,
    estimatedParts: cost.partsPerMessage,
    variables: variablesOf(text),
    templateProblems: validateTemplate(text),
    links: refusedLinks(text, shortener).map((l) => l.url),
  };
}

/** A visible name for a character that is hard to see (a tab, a non-breaking space). */
const shown = (ch: string) => (/\s/u.test(ch) || ch.length === 0 ? `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}` : ch);

const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];
/** This origin's /s (the default SHORT_BASE_URL); on a loopback host, its other spellings too
 *  (the server names itself localhost while a browser may be on 127.0.0.1). */
export function ownShortBases(location: Pick<Location, 'protocol' | 'hostname' | 'port'>): string[] {
  const hosts = LOOPBACK.includes(location.hostname) ? LOOPBACK : [location.hostname];
  return hosts.map((host) => `${location.protocol}//${host}${location.port ? `:${location.port}` : ''}/s`);
}

export default function SmsContentWidget(props: WidgetProps) {
  const { t } = useTranslation();
  const { id, value, onChange, onBlur, onFocus, disabled, readonly, rawErrors = [], schema, placeholder, registry } = props;
  const form = (registry.formContext as { formData?: Record<string, unknown> } | undefined)?.formData ?? {};
  const sms = rowApplies(schema['x-smsWhen'] as RowCondition | undefined, form, {});
  const text = typeof value === 'string' ? value : '';
  // Our own short links pass: the schema may name the short domain (SHORT_BASE_URL); by default
  // the shortener answers on the console's own origin under /s, as the server does.
  const shortener = [...(Array.isArray(schema['x-shortener']) ? (schema['x-shortener'] as string[]) : []), ...ownShortBases(window.location)];
  const facts = useMemo(() => smsFacts(text, shortener), [text, shortener.join()]);
  const counterId = useId();
  const warningsId = useId();
  const warnings = [
    ...(facts.templateProblems.length ? [t('common.smsCounter.brokenVariables', { example: '{{nombre}}', text: facts.templateProblems.map((p) => p.text).join(' ') })] : []),
    ...(facts.links.length ? [t('common.smsCounter.externalLinks', { links: facts.links.join(', ') })] : []),
  ];
  const limit = useMemo(() => lengthProblem(text, sms), [text, sms]);
  const limitId = useId();
  const limitText = limit?.code === 'tooLong'
    ? t('common.smsCounter.tooLong', { characters: formatInteger(limit.characters) })
    : limit?.code === 'tooManyParts'
      ? t('common.smsCounter.tooManyParts', { parts: limit.parts })
      : sms && facts.estimatedParts >= constants.sms.warnParts
        ? t('common.smsCounter.manyParts', { parts: facts.estimatedParts })
        : null;
  // "Acortar": the link replaced in place by the short link the operation answers.
  const shorten = schema['x-shorten'] as { operation: string; answer: string } | undefined;
  const [shortening, setShortening] = useState<string | null>(null);
  const [shortenError, setShortenError] = useState<string | null>(null);
  const shortenLink = async (url: string) => {
    if (!shorten) return;
    setShortening(url);
    setShortenError(null);
    try {
      const answer = (await call(shorten.operation as OperationId, buildArgs(shorten.operation, {}, { url: /^https?:\/\//i.test(url) ? url : `https://${url}` }) as never)) as unknown as Record<string, unknown>;
      const short = String(answer[shorten.answer]);
      const at = text.indexOf(url);
      if (at >= 0) onChange(text.slice(0, at) + short + text.slice(at + url.length));
    } catch (error) {
      setShortenError(errorText(t, error));
    } finally {
      setShortening(null);
    }
  };
  const describedBy = [counterId, warnings.length ? warningsId : '', limitText ? limitId : ''].filter(Boolean).join(' ');
  return (
    <Box>
      <TextField
        {...textFieldProps(props)}
        multiline
        minRows={4}
        error={rawErrors.length > 0 || warnings.length > 0 || !!limit}
        value={text}
        placeholder={placeholder}
        onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
        onBlur={() => onBlur(id, value)}
        onFocus={() => onFocus(id, value)}
        slotProps={{ htmlInput: { 'aria-describedby': describedBy, spellCheck: true } }}
      />
      {/* Polite: a screen reader hears the new count after typing pauses, not on every key. */}
      <Box id={counterId} role="status" aria-live="polite" data-testid="sms-counter" sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 2, rowGap: 0.5, mt: 1 }}>
        <Fact label={t('common.smsCounter.characters')} value={formatInteger(facts.characters)} testId="sms-characters" />
        {sms && (
          <>
            <Fact label={t('common.smsCounter.encoding')} value={facts.encoding} testId="sms-encoding" />
            <Fact label={t('common.smsCounter.parts')} value={formatInteger(facts.parts)} testId="sms-parts" />
            <Fact label={t('common.smsCounter.remaining')} value={formatInteger(facts.remaining)} testId="sms-remaining" />
            <Fact label={t('common.smsCounter.cost')} value={formatCop(facts.costCop)} testId="sms-cost" />
          </>
        )}
      </Box>
      {sms && facts.nonGsm.length > 0 && (
        <Typography variant="body2" color="text.secondary" data-testid="sms-non-gsm" sx={{ mt: 0.5 }}>
          {t('common.smsCounter.forcesUcs2', { characters: facts.nonGsm.map(shown).join(' ') })}
        </Typography>
      )}
      {facts.variables.length > 0 && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          {sms
            ? t('common.smsCounter.variables', { names: facts.variables.join(', '), length: constants.sms.averageVariableLength, linkLength: constants.sms.shortLinkLength })
            : t('common.smsCounter.variableNames', { names: facts.variables.join(', ') })}
        </Typography>
      )}
      {limitText && (
        <Alert id={limitId} severity={limit ? 'error' : 'info'} sx={{ mt: 1 }} data-testid="sms-limit">
          {limitText}
        </Alert>
      )}
      {warnings.length > 0 && (
        <Alert id={warningsId} severity="warning" sx={{ mt: 1 }} data-testid="sms-warnings">
          {warnings.map((w) => (
            <div key={w}>{w}</div>
          ))}
        </Alert>
      )}
      {shorten && facts.links.length > 0 && (
        <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: 0.5, mt: 1 }} data-testid="sms-shorten">
          {facts.links.map((url) => (
            <Button key={url} size="small" variant="outlined" disabled={disabled || readonly || shortening !== null} onClick={() => void shortenLink(url)} aria-label={t('common.smsCounter.shortenLink', { url })}>
              {t('common.smsCounter.shorten')}: {url}
            </Button>
          ))}
        </Box>
      )}
      {shortenError && <Alert severity="error" role="alert" sx={{ mt: 1 }}>{shortenError}</Alert>}
    </Box>
  );
}

function Fact({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Typography variant="body2" component="span" sx={{ color: 'text.primary' }}>
      <Box component="span" sx={{ color: 'text.secondary' }}>{label}: </Box>
      <Box component="strong" data-testid={testId}>{value}</Box>
    </Typography>
  );
}
