// The jobs room (ARCHITECTURE 2 `jobs/`): the kinds of durable work and the runner that steps them.
// The server's way in; engine code imports the modules themselves.
export { JobRunner } from './runner.ts';
export type { JobRunnerOptions } from './runner.ts';
export type { Job, JobHandler, JobHandlers } from './kinds.ts';
