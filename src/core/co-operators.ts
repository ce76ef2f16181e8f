// Which operator serves a Colombian mobile number (research/protocols.md 6). Colombia has number
// portability, so the number's prefix only says which operator it was first ALLOCATED to; the
// operator that serves it today is what the SMSC says in its delivery receipt (the destination's
// MCC and MNC). Reports keep the two apart: a rollup's operator carries its basis ('network' when
// a receipt said it, 'allocation' when only the prefix did, 'none' for what has neither).
//
// Operator ids are sms_operators' (migration 0203): 1 Claro, 2 Movistar, 3 Tigo, 4 WOM,
// 5 Móvil Éxito, 6 Virgin Mobile, 7 Flash Mobile, 8 Kalley Móvil; 0 means unknown.
// Both tables below are commonly cited, not checked against the regulator's (CRC) registry: an
// operator that needs them exact edits them here, and rebuilds the rollups (npm run rollups).

export const UNKNOWN_OPERATOR = 0;

/** How a message's operator was known (schemas/enums/operator-basis.yaml). */
export type { OperatorBasis } from '../generated/enums.gen.ts';

/** The historic allocation of mobile prefixes (the 3 digits after +57), first to last. */
export const ALLOCATION_BLOCKS: readonly { from: number; to: number; operator: number }[] = [
  { from: 300, to: 305, operator: 3 }, // Tigo
  { from: 310, to: 314, operator: 1 }, // Claro
  { from: 315, to: 318, operator: 2 }, // Movistar
  { from: 319, to: 319, operator: 6 }, // Virgin Mobile
  { from: 320, to: 323, operator: 1 }, // Claro
  { from: 350, to: 351, operator: 4 }, // WOM (ex-Avantel)
];

/** Colombia's mobile country code, and the network codes (MNC) of its operators. */
export const COLOMBIA_MCC = '732';
export const NETWORK_CODES: Readonly<Record<string, number>> = {
  '101': 1, // Claro (Comcel)
  '102': 2, // Movistar (ex-BellSouth)
  '123': 2, // Movistar
  '103': 3, // Tigo (Colombia Móvil)
  '111': 3, // Tigo
  '130': 4, // WOM (ex-Avantel)
  '360': 4, // WOM
  '154': 6, // Virgin Mobile
};

/** The operator a number was allocated to ('+573001234567' or '3001234567'); 0 when no block holds it. */
export function allocatedOperator(number: string): number {
  const national = number.startsWith('+57') ? number.slice(3) : number;
  if (!/^3\d{9}$/.test(national)) return UNKNOWN_OPERATOR;
  const prefix = Number(national.slice(0, 3));
  return ALLOCATION_BLOCKS.find((b) => prefix >= b.from && prefix <= b.to)?.operator ?? UNKNOWN_OPERATOR;
}

/** The operator of a serving network written MCC+MNC ('732101'); 0 for another country or an unknown code. */
export function networkOperator(mccMnc: string): number {
  if (!mccMnc.startsWith(COLOMBIA_MCC)) return UNKNOWN_OPERATOR;
  const mnc = mccMnc.slice(COLOMBIA_MCC.length);
  return NETWORK_CODES[mnc] ?? NETWORK_CODES[mnc.padStart(3, '0')] ?? UNKNOWN_OPERATOR;
}

/** The MCC+MNC an operator's receipts name (its first network code); null for none. */
export function networkOf(operator: number): string | null {
  const mnc = Object.entries(NETWORK_CODES).find(([, id]) => id === operator)?.[0];
  return mnc ? `${COLOMBIA_MCC}${mnc}` : null;
}

/** A serving network as a receipt may carry it: MCC (3 digits) + MNC (2 or 3 digits). */
export const isNetworkCode = (text: string): boolean => /^\d{5,6}$/.test(text);
