// A loaded tab's answer read first as a checklist (a detail tab's `checklist`: a campaign's
// summary): each line shown while its condition holds over the answer and the record, worst
// first, so a person reads what blocks the launch, what waits and what is refused before the
// figures; each line names its values as the screen writes them.
import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import { textValues } from '../action-text.ts';
import { rowApplies, type ExpressionContext } from '../expressions.ts';
import type { ScreenTab } from '../screen-types.ts';

type Line = NonNullable<ScreenTab['checklist']>[number];

/** Worst first: what stops the launch, what waits or is refused, what to know, what goes. */
const ORDER: Readonly<Record<Line['tone'], number>> = { error: 0, warning: 1, info: 2, success: 3 };

/** The lines that hold, worst first (stable within a tone: the YAML's order). */
export function checklistLines(lines: readonly Line[], values: Record<string, unknown>, ctx: ExpressionContext): Line[] {
  return lines.filter((l) => rowApplies(l.when, values, ctx)).sort((a, b) => ORDER[a.tone] - ORDER[b.tone]);
}

export function Checklist({ lines, answer, record, ctx }: { lines: readonly Line[]; answer: Record<string, unknown>; record: Record<string, unknown> | undefined; ctx: ExpressionContext }) {
  const { t } = useTranslation();
  const values = { ...(record ?? {}), ...answer };
  const shown = checklistLines(lines, values, ctx);
  if (!shown.length) return null;
  const words = textValues(values);
  return (
    <Stack component="ul" spacing={1} sx={{ listStyle: 'none', p: 0, m: 0, mb: 3 }} data-testid="checklist">
      {shown.map((line) => (
        <Alert key={line.text} component="li" severity={line.tone} variant={line.tone === 'error' ? 'filled' : 'standard'} data-tone={line.tone}>
          {t(line.text, words)}
        </Alert>
      ))}
    </Stack>
  );
}
