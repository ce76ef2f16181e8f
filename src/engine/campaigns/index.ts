// The campaign room: a campaign's life from the launch to its last message — the test send, the
// preview (the launch run and rolled back), the launch and its job's chunks, the recurring schedule, a
// deployment's actions — and the one send step every message goes through (send.ts). The
// server's handlers authenticate, authorise and validate, call one function here and answer; a
// refusal is a Refused with its catalogue code (../refused.ts).
export type { Caller, CampaignDeps, CampaignHooks } from './deps.ts';
export { launchCampaign, launchRecipients } from './launch.ts';
export { launchStep, type LaunchDeps } from './launch-step.ts';
export { previewCampaign } from './preview.ts';
export { sendCampaignTest } from './test-send.ts';
export { channelOf, plannedAt } from './launch-plan.ts';
export { firstRunFrom, runDueCampaigns, upcomingRuns } from './recurrence.ts';
export { controlDeployment, loadDeployment, numbersAction, removeDeployment } from './deployment-control.ts';
export { resendDeployment, RESENDABLE_STATES, type ResendableState } from './resend.ts';
export { checkCampaignFlow } from './flow-check.ts';
export { mappingFor, parametersOf } from './whatsapp.ts';
export { sendMessages, duplicateWindowHours, DEFAULT_DUPLICATE_HOURS, type Enqueue, type SendRequest } from './send.ts';
export { launchChunkSize, launchStepSizing, previewStagedMax, DEFAULT_LAUNCH_CHUNK_SIZE, DEFAULT_PREVIEW_STAGED_MAX } from './settings.ts';
