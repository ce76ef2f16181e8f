// How a stored secret (channel tokens, private keys, FTP passwords, API credentials) is shown:
// never in full; at most its last four characters, and nothing of a short secret or of a tail
// that says nothing (a PEM key ends in "-----").
export const MASK = '••••';

export function maskSecret(secret: string): string {
  const tail = secret.trim().slice(-4);
  return secret.length >= 12 && /[A-Za-z0-9]/.test(tail) ? `${MASK}${tail}` : MASK;
}

/** A form that sends the mask back unchanged means "keep the stored secret". */
export const isMasked = (value: string) => value.startsWith(MASK);
