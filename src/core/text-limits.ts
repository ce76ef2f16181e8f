// The limits a catalogue text may name wherever it is shown ("at most {{maxSmsParts}} parts"):
// the console fills them into every translation and the server into the words of its error
// answers, from this one list, so neither ever shows an unfilled {{placeholder}}.
import { constants } from '../generated/constants.gen.ts';

export const textLimits = {
  maxSmsParts: constants.sms.maxParts,
  warnSmsParts: constants.sms.warnParts,
  maxMessageCharacters: constants.limits.messageCharacters,
} as const;

export type TextLimit = keyof typeof textLimits;

/** `text` with every {{limit}} it names filled (numbers grouped as `formatNumber` writes them); other {{…}} are left as written. */
export function fillTextLimits(text: string, formatNumber: (n: number) => string = String): string {
  return text.replace(/\{\{(\w+)\}\}/g, (slot, name: string) => (name in textLimits ? formatNumber(textLimits[name as TextLimit]) : slot));
}
