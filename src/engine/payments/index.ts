// The payments room: every state change of a purchase, the gateway's word applied, its follow-up
// job and the ePayco gateway. The server's way in; engine code imports the modules themselves.
export { abandonPayment, attachCheckoutSession, createPurchase, CREDITED } from './payments.ts';
export type { PaymentRow } from './payments.ts';
export { confirmByGateway } from './confirmed.ts';
export { paymentFollowUpStep } from './follow-up.ts';
export { epaycoGateway, epaycoSettingsFromEnv } from './epayco.ts';
