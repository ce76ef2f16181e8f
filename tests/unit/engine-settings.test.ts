// The dispatcher's settings from the environment (src/server/messaging/engine-settings.ts), one
// reading for `npm start` and `npm run worker`, and the launch's sizes (src/engine/campaigns/settings.ts).
import { describe, expect, it } from 'vitest';
import { engineSettings, serverRunsEngine, workerSettings } from '../../src/server/messaging/engine-settings.ts';
import { launchChunkSize, launchStepSizing, previewStagedMax } from '../../src/engine/campaigns/index.ts';
import { StepSizer } from '../../src/engine/campaigns/step-sizer.ts';
import { IN_DOUBT_GRACE_MS } from '../../src/engine/dispatcher.ts';

describe('engine settings', () => {
  it('reads what the environment sets and nothing else', () => {
    expect(engineSettings({ ENGINE_IN_DOUBT_GRACE_MS: '30000', ENGINE_BATCH_SIZE: '200' })).toEqual({ inDoubtGraceMs: 30000, batchSize: 200 });
    expect(engineSettings({})).toEqual({});
    expect(engineSettings({ WORKER_ID: 'w-1', ENGINE_IDLE_MS: '' })).toEqual({ workerId: 'w-1' });
  });

  it('refuses a value that is not a non-negative number, naming the variable', () => {
    expect(() => engineSettings({ ENGINE_IN_DOUBT_GRACE_MS: '-1' })).toThrow(/ENGINE_IN_DOUBT_GRACE_MS/);
    expect(() => engineSettings({ ENGINE_LEASE_MS: 'diez' })).toThrow(/ENGINE_LEASE_MS/);
  });

  it('the worker reads the same settings and names itself unless WORKER_ID does', () => {
    const worker = workerSettings({ ENGINE_IN_DOUBT_GRACE_MS: '45000' });
    expect(worker.inDoubtGraceMs).toBe(45000);
    expect(worker.workerId).toMatch(/^w-/);
    expect(workerSettings({ WORKER_ID: 'fijo' }).workerId).toBe('fijo');
  });

  it('the default grace is two minutes, not ten', () => {
    expect(IN_DOUBT_GRACE_MS).toBe(120_000);
    expect(engineSettings({ ENGINE_IN_DOUBT_MAX_MS: '900000' })).toEqual({ inDoubtMaxMs: 900_000 });
  });

  it('a launch writes 100 recipients per transaction on PGlite (other requests wait behind it), 500 on PostgreSQL', () => {
    expect(launchChunkSize({})).toBe(100);
    expect(launchChunkSize({ DATABASE_URL: 'postgres://db/colibri' })).toBe(500);
    expect(launchChunkSize({ LAUNCH_CHUNK_SIZE: '250' })).toBe(250);
    expect(launchChunkSize({ LAUNCH_CHUNK_SIZE: '0', DATABASE_URL: 'postgres://db/colibri' })).toBe(500);
    expect(() => launchChunkSize({ LAUNCH_CHUNK_SIZE: 'cien' })).toThrow(/LAUNCH_CHUNK_SIZE/);
  });

  it("a big launch's job writes 5,000 recipients per step on PostgreSQL, and on PGlite as many as fit 25 ms, unless LAUNCH_JOB_CHUNK_SIZE says", () => {
    expect(launchStepSizing({})).toEqual({ kind: 'budget', first: 100, min: 25, max: 2000, budgetMs: 25 });
    expect(launchStepSizing({ LAUNCH_CHUNK_SIZE: '40', LAUNCH_STEP_BUDGET_MS: '80', LAUNCH_STEP_MAX_ROWS: '600' })).toEqual({ kind: 'budget', first: 40, min: 25, max: 600, budgetMs: 80 });
    expect(launchStepSizing({ LAUNCH_STEP_MIN_ROWS: '500', LAUNCH_STEP_MAX_ROWS: '200' })).toMatchObject({ min: 500, max: 500, first: 500 });
    expect(launchStepSizing({ DATABASE_URL: 'postgres://db/colibri' })).toEqual({ kind: 'fixed', rows: 5000 });
    expect(launchStepSizing({ DATABASE_URL: 'postgres://db/colibri', LAUNCH_JOB_CHUNK_SIZE: '1000' })).toEqual({ kind: 'fixed', rows: 1000 });
    expect(launchStepSizing({ LAUNCH_JOB_CHUNK_SIZE: '300' })).toEqual({ kind: 'fixed', rows: 300 });
    expect(() => launchStepSizing({ LAUNCH_JOB_CHUNK_SIZE: '-5' })).toThrow(/LAUNCH_JOB_CHUNK_SIZE/);
    expect(() => launchStepSizing({ LAUNCH_STEP_BUDGET_MS: 'rápido' })).toThrow(/LAUNCH_STEP_BUDGET_MS/);
  });

  it('sizes a PGlite step to its time budget: at most twofold growth, shrinking at once, within its bounds', () => {
    const sizer = new StepSizer({ kind: 'budget', first: 100, min: 25, max: 2000, budgetMs: 40 });
    expect(sizer.next()).toBe(100);
    // 0.05 ms a row: 800 rows would fit, but a step at most doubles.
    sizer.took(100, 5);
    expect(sizer.next()).toBe(200);
    sizer.took(200, 10);
    expect(sizer.next()).toBe(400);
    sizer.took(400, 20);
    expect(sizer.next()).toBe(800);
    sizer.took(800, 40);
    expect(sizer.next()).toBe(800); // the budget's fit
    // The machine got busy: 0.2 ms a row is believed at once.
    sizer.took(800, 160);
    expect(sizer.next()).toBe(200);
    // Quicker again: believed halfway (0.125 ms a row → 320 rows).
    sizer.took(200, 10);
    expect(sizer.next()).toBe(320);
    // Never under the floor, never over the ceiling.
    sizer.took(320, 3200);
    expect(sizer.next()).toBe(25);
    const fast = new StepSizer({ kind: 'budget', first: 1000, min: 25, max: 2000, budgetMs: 40 });
    fast.took(1000, 1);
    expect(fast.next()).toBe(2000);
    // Fixed steps ignore the timings; an empty step tells nothing.
    const fixed = new StepSizer({ kind: 'fixed', rows: 5000 });
    fixed.took(5000, 9000);
    expect(fixed.next()).toBe(5000);
    const idle = new StepSizer({ kind: 'budget', first: 100, min: 25, max: 2000, budgetMs: 40 });
    idle.took(0, 50);
    expect(idle.next()).toBe(100);
  });

  it('the summary stages 500 rows on PGlite and 2,000 on PostgreSQL, unless PREVIEW_STAGED_MAX says', () => {
    expect(previewStagedMax({})).toBe(500);
    expect(previewStagedMax({ DATABASE_URL: 'postgres://db/colibri' })).toBe(2000);
    expect(previewStagedMax({ PREVIEW_STAGED_MAX: '50' })).toBe(50);
  });

  it('ENGINE_IN_SERVER=off leaves the sending to workers, and only where workers can share the database', () => {
    expect(serverRunsEngine({})).toBe(true);
    expect(serverRunsEngine({ ENGINE_IN_SERVER: 'on' })).toBe(true);
    expect(serverRunsEngine({ ENGINE_IN_SERVER: 'off', DATABASE_URL: 'postgres://db/colibri' })).toBe(false);
    expect(() => serverRunsEngine({ ENGINE_IN_SERVER: 'off' })).toThrow(/DATABASE_URL/);
    expect(() => serverRunsEngine({ ENGINE_IN_SERVER: 'no', DATABASE_URL: 'postgres://db/colibri' })).toThrow(/ENGINE_IN_SERVER/);
  });
});
