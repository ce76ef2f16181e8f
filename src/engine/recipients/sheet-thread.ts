// SheetJS parses (sheet-read.ts) off the event loop: each runs in its own worker thread with a
// memory limit (V8's resourceLimits) and a time limit, so a large or hostile spreadsheet costs one
// worker, never the answers to every other request. A parse past its time is stopped and refused
// (99937, too large to read); one past its memory likewise. Parses wait for one of a few slots, so
// uploads at once cannot start a thread each, and past a short queue they are refused (99933).
import { EventEmitter } from 'node:events';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { RecipientsFileError } from './errors.ts';
import type { SheetJob, SheetResult } from './sheet-read.ts';

export interface SheetThreadLimits {
  /** Wall time of one parse, worker start included. */
  timeoutMs: number;
  /** The worker's V8 old-generation heap: SheetJS needs roughly 10-50× a 20 MB file. */
  maxMemoryMb: number;
  /** Parses at once; the rest wait their turn. */
  concurrency: number;
  /** Parses that may wait for a turn (each holds its file in memory); one more is refused (99933). */
  maxWaiting: number;
}

export const defaultSheetThreadLimits: SheetThreadLimits = {
  timeoutMs: 120_000,
  maxMemoryMb: 1536,
  concurrency: Math.max(1, Math.min(4, availableParallelism() - 1)),
  maxWaiting: 16,
};

/** 'start' and 'end' of each parse (its job kind): what a test or a metric waits on. */
export const sheetParses = new EventEmitter();

let running = 0;
const waiting: (() => void)[] = [];

async function takeSlot(concurrency: number, maxWaiting: number): Promise<void> {
  if (running < concurrency) { running++; return; }
  if (waiting.length >= maxWaiting) throw new RecipientsFileError('99933', 'too many spreadsheets are being read: send it again in a minute');
  await new Promise<void>((resolve) => waiting.push(resolve));
}

function releaseSlot(): void {
  const next = waiting.shift();
  // The slot passes straight to the next parse waiting, or is given back.
  if (next) next();
  else running--;
}

const refused = (reason: string) => new RecipientsFileError('99937', reason);

function parseInWorker(job: SheetJob, limits: SheetThreadLimits): Promise<SheetResult> {
  const worker = new Worker(new URL('./sheet-worker.mjs', import.meta.url), {
    workerData: job,
    resourceLimits: { maxOldGenerationSizeMb: limits.maxMemoryMb, maxYoungGenerationSizeMb: 64 },
  });
  return new Promise<SheetResult>((resolve, reject) => {
    let settled = false;
    const settle = (error: unknown, result?: SheetResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) {
        void worker.terminate();
        reject(error);
      } else resolve(result!);
    };
    const timer = setTimeout(() => settle(refused(`the spreadsheet takes longer than ${Math.round(limits.timeoutMs / 1000)} s to read: split it or send it as CSV`)), limits.timeoutMs);
    worker.once('message', (result: SheetResult) => settle(null, result));
    worker.once('error', (error: Error & { code?: string }) => {
      settle(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? refused(`the spreadsheet needs more than ${limits.maxMemoryMb} MB of memory to read: split it or send it as CSV`) : error);
    });
    worker.once('exit', (code) => settle(new Error(`the spreadsheet worker exited (${code}) without an answer`)));
  });
}

/** Runs one SheetJS parse in a worker thread, within the limits. */
export async function runSheetJob(job: SheetJob, limits: SheetThreadLimits = defaultSheetThreadLimits): Promise<SheetResult> {
  await takeSlot(limits.concurrency, limits.maxWaiting);
  sheetParses.emit('start', job.kind);
  try {
    return await parseInWorker(job, limits);
  } finally {
    releaseSlot();
    sheetParses.emit('end', job.kind);
  }
}
