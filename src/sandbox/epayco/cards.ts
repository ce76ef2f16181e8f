// ePayco's published test cards (research protocols.md 5.6) and what each does in the stand-in,
// so the checkout page lists exactly the behaviours the server applies.

/** A transaction state the stand-in reaches: code (x_cod_transaction_state), text (x_response), reason (x_response_reason_text). */
export interface EpaycoOutcome {
  code: number;
  text: string;
  reason: string;
}

export interface EpaycoTestCard {
  number: string;
  /** What the page says the card does. */
  effect: string;
  outcome: EpaycoOutcome;
  /** Pending first, approved after the stand-in's pendingMs. */
  pendingThenApproved?: boolean;
}

export const APPROVED: EpaycoOutcome = { code: 1, text: 'Aceptada', reason: 'Aprobada' };
export const REVERSED: EpaycoOutcome = { code: 6, text: 'Reversada', reason: 'Transacción reversada' };
export const ABANDONED: EpaycoOutcome = { code: 10, text: 'Abandonada', reason: 'El comprador abandonó el pago' };
/** Any other card number. */
export const INVALID_CARD: EpaycoOutcome = { code: 2, text: 'Rechazada', reason: 'Tarjeta no válida' };

export const EPAYCO_TEST_CARDS: readonly EpaycoTestCard[] = [
  { number: '4575623182290326', effect: 'aprueba el pago', outcome: APPROVED },
  { number: '4151611527583283', effect: 'rechaza el pago por fondos insuficientes', outcome: { code: 2, text: 'Rechazada', reason: 'Fondos insuficientes' } },
  { number: '5170394490379427', effect: 'falla (error de la entidad financiera)', outcome: { code: 4, text: 'Fallida', reason: 'Error en la comunicación con la entidad financiera' } },
  { number: '373118856457642', effect: 'queda pendiente y se aprueba a los pocos segundos', outcome: { code: 3, text: 'Pendiente', reason: 'Transacción pendiente de aprobación' }, pendingThenApproved: true },
];

/** The card's franchise code as ePayco names it, '' when unknown. */
export function franchiseOf(digits: string): string {
  if (digits.startsWith('4')) return 'VS';
  if (digits.startsWith('5')) return 'MC';
  if (digits.startsWith('3')) return 'AM';
  return '';
}

/** "457562******0326": the first six and last four digits. */
export function maskCard(digits: string): string {
  if (digits.length <= 10) return `${'*'.repeat(Math.max(0, digits.length - 4))}${digits.slice(-4)}`;
  return `${digits.slice(0, 6)}${'*'.repeat(digits.length - 10)}${digits.slice(-4)}`;
}
