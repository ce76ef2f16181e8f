// Local stand-ins for the outside world (ARCHITECTURE 2), implementing the core ports
// (src/core/ports): the outbox (messages), captcha, the channel connector; the SMSC, Graph API
// and RBM stand-ins are in their folders. Only the server's composition root imports them.
export * from './outbox.ts';
export * from './captcha.ts';
export * from './channels.ts';
