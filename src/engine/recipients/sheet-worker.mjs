// The worker thread of sheet-thread.ts: one spreadsheet parse (sheet-read.ts), then it exits.
// Plain JavaScript so the thread starts under any loader: it registers tsx (a dependency; `npm start`
// runs on it) to load the TypeScript reader.
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { runSheetJob } = await import('./sheet-read.ts');
parentPort.postMessage(runSheetJob(workerData));
