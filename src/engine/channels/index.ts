// The channels room (ARCHITECTURE 2 `channels/<platform>/`): the list of channel types and what each
// can do, their connections, webhooks and WhatsApp's templates and customer window. The server's way
// in, nested folders included; engine code imports the modules themselves.
export { capabilitiesOf, channelDefinition, channelDefinitions, destinationOn, reachOf } from './registry.ts';
export type { ChannelContext, ChannelDefinition, StandIns } from './definition.ts';
export { engineChannelConnector } from './connector.ts';
export { companySmsChannel } from './company-sms-channel.ts';
export type { HttpAdapterOptions } from './shared/http-client.ts';
export type { ChannelWebhookSecrets, WebhookRequest } from './shared/webhook.ts';
export type { TemplateStatusEvent, WebhookEvents } from './shared/webhook-events.ts';
export { createWhatsAppTemplate, deleteWhatsAppTemplate, editWhatsAppTemplate } from './whatsapp/templates.ts';
export type { TemplateCallResult, TemplateDraft } from './whatsapp/templates.ts';
export { whatsappGraphAccount } from './whatsapp/definition.ts';
export { outsideCustomerWindow, OUTSIDE_WINDOW_CODE } from './whatsapp/customer-window.ts';
export { EMPTY_PARAMETER_CODE } from './whatsapp/template-match.ts';
