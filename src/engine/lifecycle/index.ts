// The lifecycle room (ARCHITECTURE 2 `lifecycle/`): every message and deployment state change, the
// jobs' rows and the report rollups. The server's way in; engine code imports the modules themselves.
export { compactRollups, createRollupsSql, dropRollupsSql, operatorSql, rawContributionsSql, rebuildRollups } from './rollups.ts';
export { enqueueMessages, heldUntil, InsufficientCreditsError, messageCost } from './enqueue.ts';
export type { EnqueueItem, EnqueueRequest, EnqueueResult, Purpose, SendWindow } from './enqueue.ts';
export { outcomeSql, STATUS, statesOfOutcome, statesSql } from './message-states.ts';
export { reasonOf } from './message-reason.ts';
export { advanceJob, createJob, finishJob, lockJob, waitingJobs } from './jobs.ts';
export {
  cancelDeployment, cancelNumbers, createDeployment, deleteDeployment, finishPreparing, pauseDeployment, playDeployment,
  haltCompany, PROCESSED_DEPLOYMENT_STATES, recordDeploymentTotals, recordLaunchChunk, rescheduleNumbers, stopPreparing,
} from './deployments.ts';
