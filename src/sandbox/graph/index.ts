// Stand-in for Meta's Graph API (WhatsApp Cloud API, Messenger Send API): see server.ts.
export { startGraphSandbox, type GraphSandbox, type GraphSandboxOptions, type GraphRequestRecord, type SandboxPhoneNumber, type SandboxPage, type SandboxTemplate } from './server.ts';
export { metaJson } from './meta-json.ts';
export type { WebhookDelivery } from './webhook-poster.ts';
