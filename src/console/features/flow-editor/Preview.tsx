// The editor's preview: the draft run by the same runtime as the server's conversations
// (src/core/flows/runtime.ts), in the browser. The person types as a customer would; "No reply"
// fires the step's timer; an integration step waits for the tester to say how the call went. An
// answer goes with what the flow's training file says it means (`meanings`, asked of the server,
// which holds the file), as the server's conversations hand it to the runtime.
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { advance, newSession, type Effect, type FlowEvent, type Session } from '../../../core/flows/runtime.ts';
import type { FlowDefinition } from '../../../generated/types.gen.ts';

type Line = { from: 'person' | 'flow' | 'note'; text: string };

/** The step's sample answer as the server would parse it: JSON when it is JSON, else its text; none, an empty object. */
export function sampleBody(sample: string | undefined): unknown {
  if (!sample?.trim()) return {};
  try {
    return JSON.parse(sample) as unknown;
  } catch {
    return sample;
  }
}

export function Preview({ flow, meanings }: { flow: FlowDefinition; meanings?: (text: string) => Promise<string[]> }) {
  const { t } = useTranslation();
  const [session, setSession] = useState<Session | null>(null);
  const [lines, setLines] = useState<Line[]>([]);
  const [text, setText] = useState('');

  const apply = (current: Session, event: FlowEvent, said: Line[] = []) => {
    const turn = advance(flow, current, event);
    const out: Line[] = [...said];
    if (turn.refused) out.push({ from: 'note', text: t(`flowEditor.refused.${turn.refused}`) });
    for (const e of turn.effects as Effect[]) {
      if (e.kind === 'send') out.push({ from: 'flow', text: e.text });
      else if (e.kind === 'sendSms') out.push({ from: 'note', text: t('flowEditor.smsTo', { to: e.to, text: e.text }) });
      else if (e.kind === 'http') out.push({ from: 'note', text: t('flowEditor.call', { method: e.method, url: e.url }) });
    }
    if (turn.session.state === 'completed' || turn.session.state === 'abandoned') out.push({ from: 'note', text: t(`enums.conversation-state.${turn.session.state}`) });
    setSession(turn.session);
    setLines((l) => [...l, ...out]);
  };
  const start = () => {
    setLines([]);
    apply(newSession(), { kind: 'start', entry: flow.steps.some((s) => s.type === 'initialCall') ? 'initialCall' : 'initialPush', vars: { phone: '+573001234567' } });
  };
  const send = async () => {
    if (!session || !text.trim()) return;
    const said = text;
    setText('');
    // Without an answer from the server the words are matched as written (as a flow without a file).
    const meant = meanings ? await meanings(said).catch(() => []) : [];
    apply(session, { kind: 'messageIn', text: said, ...(meant.length ? { meant } : {}) }, [{ from: 'person', text: said }]);
  };
  const waiting = session?.state === 'waitingReply' || session?.state === 'waitingIntegration';
  const step = flow.steps.find((s) => s.id === session?.stepId);
  return (
    <Stack spacing={1} component="section" aria-label={t('flowEditor.preview')}>
      <Typography variant="h6" component="h2">{t('flowEditor.preview')}</Typography>
      <Button variant="outlined" onClick={start}>{session ? t('flowEditor.restart') : t('flowEditor.start')}</Button>
      <Box role="log" aria-live="polite" sx={{ maxHeight: 320, overflowY: 'auto', display: 'flex', flexDirection: 'column', gap: 0.5 }}>
        {lines.map((l, i) => (
          <Box key={i} data-from={l.from} sx={{
            alignSelf: l.from === 'person' ? 'flex-end' : 'flex-start', bgcolor: l.from === 'flow' ? 'grey.100' : l.from === 'person' ? 'action.selected' : 'transparent',
            fontStyle: l.from === 'note' ? 'italic' : 'normal', px: 1, py: 0.5, borderRadius: 1, maxWidth: '90%', whiteSpace: 'pre-wrap',
          }}>
            {l.text}
          </Box>
        ))}
      </Box>
      {session?.state === 'waitingReply' && (
        <>
          <Stack direction="row" spacing={1}>
            <TextField size="small" label={t('flowEditor.answer')} value={text} onChange={(e) => setText(e.target.value)} onKeyDown={(e) => { if (e.key === 'Enter') void send(); }} />
            <Button onClick={() => void send()}>{t('flowEditor.send')}</Button>
          </Stack>
          <Button size="small" onClick={() => apply(session, { kind: 'noReply' }, [{ from: 'note', text: t('flowEditor.noReplyNote') }])}>{t('flowEditor.noReply')}</Button>
        </>
      )}
      {session?.state === 'waitingIntegration' && (
        <Stack direction="row" spacing={1}>
          <Button size="small" onClick={() => apply(session, { kind: 'integrationAnswer', status: step?.settings.expectedStatus ?? 200, body: sampleBody(step?.settings.sampleAnswer) })}>{t('flowEditor.callSucceeds')}</Button>
          <Button size="small" color="error" onClick={() => apply(session, { kind: 'integrationFailed', reason: 'preview' })}>{t('flowEditor.callFails')}</Button>
        </Stack>
      )}
      {session && !waiting && <Typography variant="body2">{t('flowEditor.previewEnded')}</Typography>}
    </Stack>
  );
}
