// What a purchase of credits costs (spec 9: 1 credit = 1 COP, purchases from 10,000 COP): the one
// rule the buying screen shows and the server charges, so the total a person sees is the total
// the gateway is asked for.
import { constants } from '../generated/constants.gen.ts';

export interface PurchaseQuote {
  /** Pesos that become credits. */
  amount: number;
  credits: number;
  tax: number;
  total: number;
}

const { copPerCredit, minimumPurchaseCop, maximumPurchaseCop, purchaseTaxPercent } = constants.credits;

/** True when `amount` is a whole number of pesos a single checkout may take. */
export function purchasable(amount: number): boolean {
  return Number.isSafeInteger(amount) && amount >= minimumPurchaseCop && amount <= maximumPurchaseCop;
}

export function quotePurchase(amount: number, taxPercent: number = purchaseTaxPercent): PurchaseQuote {
  const tax = Math.round((amount * taxPercent) / 100);
  return { amount, credits: Math.floor(amount / copPerCredit), tax, total: amount + tax };
}
