// Pure webhook verification and parsing for the HTTP channels; the Fastify routes are in
// src/server/webhooks, the stand-ins that emit these payloads in src/sandbox/{graph,rbm}.
export * from './events.ts';
export * from './meta-signature.ts';
export { parseWhatsAppWebhook } from './whatsapp.ts';
export { parseMessengerWebhook } from './messenger.ts';
export * from './rbm.ts';
