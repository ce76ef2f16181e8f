// The SMS channel adapter over SMPP 3.4 (adapter.ts) and what callers configure it with.
export { SmppAdapter, userReferenceOf, type SmppAdapterOptions, type SmppAdapterStats } from './adapter.ts';
export { type SmppChannelConfig, resolveConfig } from './config.ts';
export { SmppBindError, CHANNEL_CONNECTION_FAILED, CHANNEL_CONNECTION_FAILED_RETRY } from './session.ts';
export type { ConnectionState } from './connection.ts';
