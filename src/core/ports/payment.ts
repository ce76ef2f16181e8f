// The payment gateway port (spec: credits are bought online; ePayco in Colombia, research
// protocols.md §5). Shaped on ePayco's Smart Checkout: the server creates a checkout session, the
// buyer pays on the gateway's page, and the gateway confirms server to server with signed x_
// fields; the browser's return (?ref_payco=…) is only a hint, checked by validation by reference.
// The real client (src/engine/payments/epayco.ts) talks to ePayco or to the sandbox's stand-in
// (src/sandbox/epayco), and the server's composition root wires it like the other ports.

export interface CheckoutRequest {
  /** Our order's reference (ePayco's `invoice`, echoed back as x_id_invoice). */
  reference: string;
  /** Integer pesos: amount before tax, tax, and total = amountCop + taxCop. */
  amountCop: number;
  taxCop: number;
  description: string;
  /** Where the buyer's browser returns (ePayco appends ?ref_payco=…). */
  responseUrl: string;
  /** Server-to-server confirmation (POST x-www-form-urlencoded). */
  confirmationUrl: string;
  buyer: { name: string; email: string; ip: string };
}
export interface CheckoutSession {
  sessionId: string;
  /** Where to send the browser (the stand-in's page); null with the real ePayco: the console opens checkout-v2.js with the sessionId. */
  checkoutUrl: string | null;
  /** The real checkout's script and mode (null for the stand-in). */
  script: { url: string; test: boolean } | null;
}
/** A transaction as the gateway states it (confirmation webhook or validation by reference), strings kept as received. */
export interface GatewayTransaction {
  reference: string;        // x_id_invoice (our reference)
  gatewayRef: string;       // x_ref_payco
  transactionId: string;    // x_transaction_id
  code: number;             // x_cod_transaction_state (fallback x_cod_response)
  text: string;             // x_response (e.g. "Aceptada"), '' if absent
  reason: string;           // x_response_reason_text, '' if absent
  amount: string;           // x_amount as received
  currency: string;         // x_currency_code
  franchise: string;        // x_franchise (e.g. VS, MC, PSE), '' if absent
  bank: string;             // x_bank_name, '' if absent
  approvalCode: string;     // x_approval_code
  cardLast4: string | null; // last four digits of x_cardnumber (which may come masked like "457562******0326"), null if absent
  customerName: string;     // x_customer_name + ' ' + x_customer_lastname trimmed
  docType: string;          // x_customer_doctype
  docNumber: string;        // x_customer_document
  ip: string;               // x_customer_ip
  paymentType: string;      // x_type_payment (e.g. "TDC", "PSE")
  at: string;               // x_transaction_date / x_fecha_transaccion as received
  test: boolean;            // x_test_request === 'TRUE'
}
export interface PaymentGateway {
  /** Creates the checkout session (login + session/create). Throws PaymentGatewayError when the gateway refuses or cannot be reached. */
  createCheckout(request: CheckoutRequest): Promise<CheckoutSession>;
  /** Reads a confirmation's fields (form or query, already decoded); null when x_signature is missing or does not match (constant-time compare over the strings as received). */
  readConfirmation(fields: Record<string, string>): GatewayTransaction | null;
  /** Validation by reference (GET {secureUrl}/validation/v1/reference/{ref_payco}); null when the gateway does not know it. Throws PaymentGatewayError when unreachable. */
  lookup(gatewayRef: string): Promise<GatewayTransaction | null>;
}
/** The gateway refused or could not be reached; the message never carries the merchant's keys. */
export class PaymentGatewayError extends Error {}

/** No gateway (a server without keys, a worker process): buying fails, nothing is genuine, nothing is known. */
export const noPaymentGateway: PaymentGateway = {
  createCheckout: async () => { throw new PaymentGatewayError('no payment gateway is configured (EPAYCO_* keys)'); },
  readConfirmation: () => null,
  lookup: async () => null,
};
