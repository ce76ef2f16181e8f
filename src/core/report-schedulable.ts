// Which report screens may be received on a schedule: a report (kind report) with a table whose
// operation only reads — its permission's action is view, report or download. A report screen
// that writes (the block list's "add numbers" is drawn as a report of what it refused) is never
// scheduled: each run, and the trial run before saving, would write again. The console offers
// "Programar este reporte" and the server accepts a schedule by this one rule.

const READING_ACTIONS: readonly string[] = ['view', 'report', 'download'];

export function isSchedulableReport(screen: { kind: string; columns?: readonly unknown[] }, permission: { action: string } | null | undefined): boolean {
  return screen.kind === 'report' && (screen.columns?.length ?? 0) > 0 && !!permission && READING_ACTIONS.includes(permission.action);
}
