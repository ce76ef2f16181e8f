// The dispatcher's settings from the environment (src/server/messaging/engine-settings.ts), one
// reading for `npm start` and `npm run worker`, and the launch's sizes (src/engine/campaigns/settings.ts).
import { describe, expect, it } from 'vitest';
import { engineSettings, serverRunsEngine, workerSettings } from '../../src/server/messaging/engine-settings.ts';
import { launchChunkSize, launchJobChunkSize, previewStagedMax } from '../../src/engine/campaigns/index.ts';
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

  it("a big launch's job writes 5,000 recipients per step on PostgreSQL and the request's chunk on PGlite, unless LAUNCH_JOB_CHUNK_SIZE says", () => {
    expect(launchJobChunkSize({})).toBe(100);
    expect(launchJobChunkSize({ LAUNCH_CHUNK_SIZE: '40' })).toBe(40);
    expect(launchJobChunkSize({ DATABASE_URL: 'postgres://db/colibri' })).toBe(5000);
    expect(launchJobChunkSize({ DATABASE_URL: 'postgres://db/colibri', LAUNCH_JOB_CHUNK_SIZE: '1000' })).toBe(1000);
    expect(() => launchJobChunkSize({ LAUNCH_JOB_CHUNK_SIZE: '-5' })).toThrow(/LAUNCH_JOB_CHUNK_SIZE/);
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
