// Stand-in for ePayco (checkout sessions, checkout page, signed confirmations, validation): see server.ts.
export { startEpaycoSandbox, type EpaycoSandbox, type EpaycoSandboxOptions, type EpaycoConfirmationRecord, type EpaycoSandboxTransaction } from './server.ts';
export { EPAYCO_TEST_CARDS, type EpaycoTestCard, type EpaycoOutcome } from './cards.ts';
