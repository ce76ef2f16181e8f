// Local stand-ins for the outside world (ARCHITECTURE 2). More arrive with the engine: SMSC,
// Graph API, RBM, payment gateway.
export * from './types.ts';
export * from './outbox.ts';
export * from './captcha.ts';
export * from './channels.ts';
