// JSON as Meta sends it: non-ASCII characters escaped as \uXXXX with lowercase hex (research
// protocols.md 2.3). The stand-in signs exactly these bytes, so a receiver that re-serialises
// the parsed body ("ñ" instead of "\u00f1") computes another HMAC and is caught by the tests.
export function metaJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
