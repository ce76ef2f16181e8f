// The Launch action's words follow the campaign's launchTiming (config/screens/campaign-detail.yaml):
// the button, its confirmation and the notice name when the messages really go, why (the holiday
// by name, the rule in force) and what Launch does for a recurring campaign, in both languages,
// with every nested enum label resolved (no key, placeholder or raw value left).
import { describe, expect, it } from 'vitest';
import { i18n, languages } from '../../src/console/app/i18n.ts';
import { actionText, noticeText, textValues } from '../../src/console/runtime/action-text.ts';
import { formatDateTime, setNumberLanguage } from '../../src/console/runtime/format.ts';

const action = { labelContext: 'launchTiming' };
const result = { going: 0, counts: { held: 40, rejected: 2 }, refused: { duplicate: 1, blocked: 1, insufficientCredits: 0 } };
const base = { kind: 'open', recipients: 3, scheduledAt: null, firstSendAt: '2026-12-09T12:00:00.000Z', holdReason: null, holiday: null, sendRule: 'law2300' };
const records = {
  now: { ...base, firstSendAt: '2026-12-07T14:00:00.000Z', launchTiming: 'now' },
  held: { ...base, holdReason: 'afterHours', launchTiming: 'held' },
  holiday: { ...base, holdReason: 'holiday', holiday: 'inmaculadaConcepcion', launchTiming: 'holiday' },
  scheduled: { ...base, kind: 'scheduled', scheduledAt: '2026-12-09T14:00:00.000Z', firstSendAt: '2026-12-09T14:00:00.000Z', launchTiming: 'scheduled' },
  scheduledHeld: { ...base, kind: 'scheduled', scheduledAt: '2026-12-08T02:30:00.000Z', holdReason: 'afterHours', sendRule: 'spec', firstSendAt: '2026-12-08T13:00:00.000Z', launchTiming: 'scheduledHeld' },
  scheduledHoliday: { ...base, kind: 'scheduled', scheduledAt: '2026-12-08T15:00:00.000Z', holdReason: 'holiday', holiday: 'inmaculadaConcepcion', launchTiming: 'scheduledHoliday' },
  recurring: { ...base, kind: 'recurring', firstSendAt: '2026-12-07T15:00:00.000Z', launchTiming: 'recurring' },
} as const;

// The confirmation's confirmLoad: the pre-launch summary's credits and the balance.
const preview = { credits: 68_300, balance: 1_006_480 };

const words = (lng: string, record: Record<string, unknown>) => {
  const t = i18n.getFixedT(lng);
  return {
    label: actionText(t, 'screens.campaignDetail.launch', action, record),
    confirm: actionText(t, 'screens.campaignDetail.launchConfirm', action, record, { load: textValues(preview) }),
    relaunch: actionText(t, 'screens.campaignDetail.relaunchConfirm', action, record, { load: textValues(preview) }),
    notice: actionText(t, 'screens.campaignDetail.launched', action, record, { result }),
  };
};

describe('the Launch action says when the messages really go', () => {
  it('resolves every variant in every language', () => {
    for (const lng of languages) {
      for (const [timing, record] of Object.entries(records)) {
        for (const text of Object.values(words(lng, record))) {
          expect(text, `${lng} ${timing}`).not.toMatch(/\{\{|\$t\(|enums\.|screens\.|undefined|null/);
        }
      }
    }
  });

  it('names the real moment, the reason, the holiday and the rule in Spanish', () => {
    const wednesday = formatDateTime('2026-12-09T12:00:00.000Z');
    expect(words('es', records.now).label).toBe('Lanzar');
    expect(words('es', records.held).label).toBe(`Lanzar: sale el ${wednesday}`);
    expect(words('es', records.held).confirm).toContain('después del cierre del horario');
    expect(words('es', records.held).confirm).toContain('Ley 2300 de 2023');
    expect(words('es', records.holiday).confirm).toContain('Inmaculada Concepción');
    expect(words('es', records.holiday).notice).toContain(`40 mensajes esperan hasta el ${wednesday}`);
    expect(words('es', records.scheduled).label).toBe(`Programar para el ${formatDateTime('2026-12-09T14:00:00.000Z')}`);
    expect(words('es', records.scheduledHoliday).label).toBe(`Programar: sale el ${wednesday}`);
    expect(words('es', records.scheduledHoliday).confirm).toContain('es festivo en Colombia (Inmaculada Concepción)');
    expect(words('es', records.scheduledHeld).confirm).toContain('Todos los días 8:00–21:00');
    expect(words('es', records.recurring).label).toBe('Lanzar una ejecución ahora');
  });

  it('reports a launch still preparing as progress, never as counts the job has not reached', () => {
    const t = i18n.getFixedT('es');
    const exists = (key: string) => i18n.exists(key, { lng: 'es' });
    const launch = { labelContext: 'launchTiming', notifyContext: 'state' };
    const preparing = { ...result, state: 'preparing', total: 155, enqueued: 100, going: 0, refused: { duplicate: 100, blocked: 0, insufficientCredits: 0 } };
    const text = noticeText(t, exists, 'screens.campaignDetail.launched', launch, records.now, preparing);
    expect(text).toContain('100 de 155 mensajes escritos');
    expect(text).not.toMatch(/salen/);
    // Once written (any other state) the notice gives the outcome, in the record's own words.
    const done = noticeText(t, exists, 'screens.campaignDetail.launched', launch, records.holiday, { ...result, state: 'running' });
    expect(done).toBe(words('es', records.holiday).notice);
  });

  it('states the credits the launch reserves against the balance, in every variant', () => {
    for (const record of Object.values(records)) expect(words('es', record).confirm).toContain('68.300 créditos de su saldo de 1.006.480');
    expect(words('es', records.now).relaunch).toContain('reservando 68.300 créditos de su saldo de 1.006.480');
    // Numbers in the reader's language (the app sets it on every language change).
    setNumberLanguage('en');
    try {
      for (const record of Object.values(records)) expect(words('en', record).confirm).toMatch(/68,300 credits( reserved)? from your balance of 1,006,480/);
    } finally {
      setNumberLanguage('es');
    }
  });

  it('and in English', () => {
    expect(words('en', records.holiday).confirm).toContain('Immaculate Conception');
    expect(words('en', records.recurring).confirm).toContain('its recurrence rule runs the next ones');
  });
});
