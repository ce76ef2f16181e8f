// What the campaign room needs from the process that runs it (the server's request handlers, its
// scheduler and job runner, a worker): the database, the clock, and the messaging hooks. The
// server's own deps satisfy it as they are.
import type { Kysely } from 'kysely';
import type { SendWindow } from '../lifecycle/index.ts';
import type { Database } from '../database.ts';

export interface CampaignHooks {
  /** New messages are queued: the dispatcher claims them now rather than at its next poll. */
  wake(): void;
  /** A job was created (a big launch): the process's job runner takes it now rather than at its next poll. */
  wakeJobs?(): void;
  /** The companies' send windows (the engine's heldUntil reads them). */
  sendWindow: SendWindow;
  /** Base URLs of our shortener: the only links a campaign may carry. */
  shortBaseUrls: readonly string[];
}

export interface CampaignDeps {
  db: Kysely<Database>;
  now: () => Date;
  messaging: CampaignHooks;
}

/** Who launches: a person of the company (a request's session, or the author of a recurring run or an FTP file). */
export interface Caller {
  companyId: number;
  userId: number;
}
