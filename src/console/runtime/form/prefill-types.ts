// A form's prefill comes from the address ($route.id, $query.x): text. A field the schema declares
// a number (an integer id the body takes) gets the number the text writes, so the request carries
// what the operation's schema accepts; anything else is left as it is (the form's own checks say so).
type Props = Record<string, { type?: unknown } | undefined>;

const NUMERIC = /^-?\d+(\.\d+)?$/;

export function typedPrefill(properties: Props, values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...values };
  for (const [key, value] of Object.entries(values)) {
    const type = properties[key]?.type;
    const numeric = type === 'integer' || type === 'number' || (Array.isArray(type) && (type.includes('integer') || type.includes('number')));
    if (numeric && typeof value === 'string' && NUMERIC.test(value.trim())) out[key] = Number(value.trim());
  }
  return out;
}
