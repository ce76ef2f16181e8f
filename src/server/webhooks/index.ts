export { webhookRoutes, type WebhookPluginOptions, type ChannelWebhookSecrets, type WebhookPlatform } from './plugin.ts';
