// ePayco's wire-level pieces shared by the client (epayco.ts) and the sandbox's loopback stand-in
// (src/sandbox/epayco), so both speak one protocol: the endpoints and keys a client is set up
// with, and the confirmation signature (research protocols.md 5.3), computed here once. The
// sandbox may import only the engine's protocol codecs (eslint.config.js), hence this small file
// apart from the client.
import { createHash } from 'node:crypto';

export interface EpaycoSettings {
  /** Login and checkout sessions (apify). */
  apiUrl: string;
  /** Validation by reference. */
  secureUrl: string;
  /** The Smart Checkout script the console loads. */
  checkoutScriptUrl: string;
  publicKey: string;
  privateKey: string;
  /** P_CUST_ID_CLIENTE: the merchant's customer id. */
  customerId: string;
  /** P_KEY: the dashboard's "llave" that signs confirmations (not the public or private key). */
  pKey: string;
  /** Test mode (ePayco's test transactions and test cards). */
  test: boolean;
  /** Per request; default 10 000 ms. */
  timeoutMs?: number;
}

export const EPAYCO_URLS = {
  apiUrl: 'https://apify.epayco.co',
  secureUrl: 'https://secure.epayco.co',
  checkoutScriptUrl: 'https://checkout.epayco.co/checkout-v2.js',
} as const;

/** The fields the signature covers, as strings exactly as received (never reformatted: "50000" is not "50000.00"). */
export interface SignedFields {
  x_ref_payco: string;
  x_transaction_id: string;
  x_amount: string;
  x_currency_code: string;
}

/** x_signature = sha256 hex of customerId^pKey^x_ref_payco^x_transaction_id^x_amount^x_currency_code. */
export function signatureOf(settings: { customerId: string; pKey: string }, f: SignedFields): string {
  const text = [settings.customerId, settings.pKey, f.x_ref_payco, f.x_transaction_id, f.x_amount, f.x_currency_code].join('^');
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
