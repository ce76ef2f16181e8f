// The engine's durable work (ARCHITECTURE 2, `jobs/`): each kind of job names its payload here,
// and whoever runs jobs hands the runner one handler per kind (JobHandlers): a kind without its
// handler is a type error, not a job that waits forever. A handler does one bounded step per call
// (for a launch, one chunk of recipients) and moves the job's cursor in that step's transaction
// (lifecycle/jobs.ts advanceJob), so a step is all or nothing and a crash resumes after the last one.

/** Every kind of job and what its row's payload holds. */
export interface JobPayloads {
  /** A campaign's launch: its deployment's messages, written chunk by chunk from the recipients file. */
  launch: {
    deploymentId: number;
    companyId: number;
    /** The campaign as it was launched (its row's columns; an edit during the launch does not reach it). */
    campaign: { id: number | null; content: string; template_id: number | null; template_mapping: Record<string, string>; [column: string]: unknown };
    fileId: number;
    channel: { id: number; platform: string };
    purpose: string;
    createdBy: number;
    /** The launch's instant (ISO): every chunk decides as the launch would have then (duplicates, send window). */
    now: string;
    /** When its messages are planned (ISO; later than now: a scheduled deployment). */
    at: string;
    /** The content's short links (shortener), resolved at launch. */
    links: unknown[];
  };
  /** A requested report's file: its rows written chunk by chunk after the cursor (the last message id written). */
  reportFile: {
    fileId: number;
    companyId: number;
  };
  /** An integration step's HTTP call: made, retried with back-off (cursor: attempts spent), answered to its conversation. */
  flowCall: {
    conversationId: number;
    companyId: number;
    stepId: string;
    request: { method: string; url: string; contentType: string; body: string | null; timeoutSeconds: number };
  };
  /** A purchase of credits still pending: validated by reference with the gateway until it says, given up after its time (cursor: checks made). */
  paymentFollowUp: {
    paymentId: number;
    companyId: number;
  };
}

export type JobKind = keyof JobPayloads;

export interface Job<K extends JobKind = JobKind> {
  id: number;
  kind: K;
  payload: JobPayloads[K];
  /** Where the last step stopped (a launch: the last recipient row_no written). */
  cursor: number;
  /** Items done so far (a launch: messages written). */
  done: number;
}

/**
 * 'more': call again; 'done': the job is finished (the step marked it so, in its transaction);
 * 'later': the step put the job off (lifecycle/jobs.ts postponeJob) and let go of it.
 */
export type StepResult = 'more' | 'done' | 'later';

export type JobHandler<K extends JobKind> = (job: Job<K>) => Promise<StepResult>;

/** One handler per kind of job: the map every job runner is built with. */
export type JobHandlers = { [K in JobKind]: JobHandler<K> };
