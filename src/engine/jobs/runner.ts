// Runs the engine's durable jobs (kinds.ts) in the process that runs the engine: `npm start` in
// process, `npm run worker` beside the dispatcher. One job at a time per process, one bounded
// step at a time, and the event loop between steps (setImmediate): on PGlite (one connection,
// in-process WASM) the requests that came in during a step are served before the next one, so a
// launch of a million recipients never holds the server for longer than one chunk.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { Database } from '../database.ts';
import { claimJob, releaseJobs } from '../lifecycle/jobs.ts';
import type { Job, JobHandler, JobHandlers, JobKind, StepResult } from './kinds.ts';

export interface JobRunnerOptions {
  db: Kysely<Database>;
  handlers: JobHandlers;
  workerId: string;
  /** How long a claim holds without a step (a dead process's job is taken up after this). */
  leaseMs?: number;
  /** How often to look for jobs when nobody wakes the runner. */
  idleMs?: number;
  now?: () => Date;
  log?: (message: string, detail?: unknown) => void;
  /** After every step (tests and the benchmark follow a job's progress with it). */
  onStep?: (job: Job, result: StepResult) => void | Promise<void>;
}

export class JobRunner {
  private stopped = true;
  private loop: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;
  private woken = false;
  private readonly leaseMs: number;
  private readonly idleMs: number;
  private readonly now: () => Date;

  constructor(private readonly options: JobRunnerOptions) {
    this.leaseMs = options.leaseMs ?? 60_000;
    this.idleMs = options.idleMs ?? 1_000;
    this.now = options.now ?? (() => new Date());
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.loop = this.run();
  }

  /** A job was just created: look now rather than at the next poll. */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  /** Stops after the step in flight (its transaction commits or not as a whole) and lets go of the job. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wakeUp?.();
    await this.loop;
    this.loop = null;
    await releaseJobs(this.options.db, this.options.workerId, this.now()).catch(() => {});
  }

  /** Runs every job that can be claimed to its end, then answers (tests, the benchmark). */
  async drain(): Promise<void> {
    for (;;) {
      const job = await claimJob(this.options.db, this.options.workerId, this.leaseMs, this.now());
      if (!job) return;
      await this.runJob(job, () => false);
    }
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      let job: Job | null = null;
      try {
        job = await claimJob(this.options.db, this.options.workerId, this.leaseMs, this.now());
        if (job) await this.runJob(job, () => this.stopped);
      } catch (error) {
        this.options.log?.(`job ${job?.id ?? '?'}: step failed, retried later`, error);
        job = null;
      }
      if (!job && !this.stopped) await this.idle();
    }
  }

  private async runJob(job: Job, stopping: () => boolean): Promise<void> {
    const handler = this.options.handlers[job.kind] as JobHandler<JobKind>;
    for (;;) {
      const result = await handler(job);
      await this.options.onStep?.(job, result);
      if (result !== 'more' || stopping()) return;
      // The other requests' turn (PGlite serves one statement at a time, in this thread).
      await nextTurn();
    }
  }

  private idle(): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.idleMs);
      timer.unref?.();
      function done() { resolve(); }
      this.wakeUp = () => { clearTimeout(timer); this.wakeUp = null; this.woken = false; resolve(); };
    });
  }
}
