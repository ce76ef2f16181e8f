// Stand-in for Meta's Graph API (WhatsApp Cloud API, Messenger Send API): see server.ts.
export { startGraphSandbox, type GraphSandbox, type GraphSandboxOptions, type GraphRequestRecord, type GraphTemplateRequestRecord, type SandboxPhoneNumber, type SandboxPage, type SandboxTemplate, type StoredTemplate, type TemplateReview } from './server.ts';
export { defaultTemplateReview, SANDBOX_DEFAULT_TEMPLATES } from './templates.ts';
export { metaJson } from './meta-json.ts';
export type { WebhookDelivery } from './webhook-poster.ts';
