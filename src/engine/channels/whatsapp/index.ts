export { createWhatsAppAdapter, GRAPH_BASE_URL, type WhatsAppAdapterConfig } from './adapter.ts';
export { whatsappReportCode, whatsappRefusal, isRetryableWhatsAppCode } from './errors.ts';
export { buildWhatsAppRequest, WHATSAPP_TEXT_MAX, type WhatsAppRequest } from './payload.ts';
export { buildTemplateCreateRequest, createWhatsAppTemplate, deleteWhatsAppTemplate, editWhatsAppTemplate, templateComponents, type GraphAccount, type TemplateCallResult, type TemplateDraft } from './templates.ts';
