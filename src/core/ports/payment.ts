// The payment gateway port (spec: credits are bought online; ePayco in Colombia). Only its shape
// for now: the payments issue implements it (a real gateway and the sandbox's stand-in), and the
// server's composition root wires one of them like the other ports.

export interface PaymentRequest {
  companyId: number;
  /** Our reference of the purchase, unique; the gateway echoes it in its confirmation. */
  reference: string;
  /** Integer pesos (COP), as every amount in the product. */
  amountCop: number;
  description: string;
  /** Where the buyer's browser returns after paying. */
  returnUrl: string;
  /** Where the gateway confirms the payment (server to server, signed). */
  confirmationUrl: string;
}

export type PaymentState = 'pending' | 'approved' | 'rejected' | 'failed';

export interface PaymentConfirmation {
  reference: string;
  /** The gateway's own transaction id. */
  gatewayId: string;
  state: PaymentState;
  amountCop: number;
  at: Date;
}

export interface PaymentGateway {
  /** Starts a checkout: where to send the buyer's browser. */
  checkout(request: PaymentRequest): Promise<{ redirectUrl: string; gatewayId?: string }>;
  /** Checks a confirmation's signature over its raw body and reads it; null when not genuine. */
  confirm(rawBody: Uint8Array, headers: Record<string, string | undefined>): PaymentConfirmation | null;
  /** Asks the gateway for a transaction's state (follow-up of pending payments). */
  status(gatewayId: string): Promise<PaymentConfirmation | null>;
}
