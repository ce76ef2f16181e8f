// How the server signs documents: the issuer named on them, the key that signs (the operator's
// certificate, else the platform's own derived from the master key) and the time-stamping
// authority (composition.ts chooses it: the operator's, the sandbox's stand-in, or none).
import type { SecretBox } from '../security/secrets.ts';
import { identityFromEnv, selfSignedIdentity, type IssuerName, type SigningIdentity } from './identity.ts';
import type { TimestampAuthority } from './timestamp.ts';

export type { IssuerName, SigningIdentity } from './identity.ts';
export type { TimestampAuthority } from './timestamp.ts';
export { httpTimestampAuthority, timestampRequest, tokenFromResponse, tokenSealer } from './timestamp.ts';
export { selfSignedIdentity } from './identity.ts';

export interface DocumentSigning {
  issuer: IssuerName;
  /** The signer (made once per process, on first use). */
  identity(): Promise<SigningIdentity>;
  timestamps: TimestampAuthority | null;
}

/**
 * The legal person that issues certificates: CERTIFICATE_ISSUER_NAME and CERTIFICATE_ISSUER_NIT,
 * else the demo's (a deployment names its own company, as its invoices do).
 */
export function issuerFromEnv(env: NodeJS.ProcessEnv = process.env): IssuerName {
  return { legalName: env.CERTIFICATE_ISSUER_NAME?.trim() || 'Colibri Mensajería S.A.S. (demostración)', nit: env.CERTIFICATE_ISSUER_NIT?.trim() || '900000000-0' };
}

export function documentSigning(options: { secrets: SecretBox; timestamps: TimestampAuthority | null; env?: NodeJS.ProcessEnv }): DocumentSigning {
  const env = options.env ?? process.env;
  const issuer = issuerFromEnv(env);
  let identity: Promise<SigningIdentity> | undefined;
  return {
    issuer,
    timestamps: options.timestamps,
    identity: () => (identity ??= identityFromEnv(env).then((own) => own ?? selfSignedIdentity(options.secrets.seed('certificates/pdf-p256'), issuer, 'documents'))),
  };
}
