// Secrets at rest (channel tokens and private keys, account SID secrets, the FTP password):
// AES-256-GCM under a master key that never lives in the repository and is never logged.
//
//   COLIBRI_SECRET_KEY  base64 of 32 random bytes (e.g. `openssl rand -base64 32`); wins when set
//   otherwise           DATA_DIR/secret.key, generated once (mode 0600) on the first start
//
// Each value is sealed with a fresh 96-bit nonce and bound to its context (table, column and
// company) as additional authenticated data, so a ciphertext copied into another row or company
// does not open. Sealed text: "v1.<key id>.<nonce>.<ciphertext>.<tag>" (base64url parts); the key
// id (a hash prefix, not the key) tells which key sealed a value when keys are rotated.
// Fingerprints (HMAC-SHA-256 under a derived key) let the server find a token already in use by
// another channel without storing or comparing the token itself.
import { createCipheriv, createDecipheriv, createHash, createHmac, createPrivateKey, createPublicKey, hkdfSync, randomBytes, sign as cryptoSign, verify as cryptoVerify } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export interface SecretBox {
  seal(plain: string, context: string): string;
  /** Throws when the value was sealed under another key or context, or was tampered with. */
  open(sealed: string, context: string): string;
  fingerprint(value: string, purpose: string): string;
  /** The platform's Ed25519 signing key (certificates), derived from the master key. */
  signer(): Signer;
  /** 32 secret bytes derived from the master key for one purpose (a document-signing key's seed): the same in every process. */
  seed(purpose: string): Buffer;
}

/** An Ed25519 key pair: `publicKey` is the base64 of the 32 raw bytes; `keyId` names it. */
export interface Signer {
  keyId: string;
  publicKey: string;
  /** The base64 of the 64-byte Ed25519 signature of `data`. */
  sign(data: string): string;
}

// An Ed25519 private key is its 32-byte seed: PKCS#8 wraps it after this fixed DER prefix.
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
// …and a public key is SubjectPublicKeyInfo: this prefix, then the 32 raw bytes.
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** The signer of a 32-byte seed (exported for its RFC 8032 test). */
export function ed25519Signer(seed: Buffer): Signer {
  const privateKey = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  const raw = (createPublicKey(privateKey).export({ format: 'der', type: 'spki' }) as Buffer).subarray(ED25519_SPKI_PREFIX.length);
  return {
    keyId: createHash('sha256').update(raw).digest('base64url').slice(0, 12),
    publicKey: raw.toString('base64'),
    sign: (data) => cryptoSign(null, Buffer.from(data, 'utf8'), privateKey).toString('base64'),
  };
}

/** Whether `signature` (base64) is `publicKey`'s (base64 of 32 raw bytes) Ed25519 signature of `data`. */
export function verifyEd25519(publicKey: string, data: string, signature: string): boolean {
  const raw = Buffer.from(publicKey, 'base64');
  const sig = Buffer.from(signature, 'base64');
  if (raw.length !== 32 || sig.length !== 64) return false;
  const key = createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
  return cryptoVerify(null, Buffer.from(data, 'utf8'), key, sig);
}

const KEY_BYTES = 32;
const NONCE_BYTES = 12;

const derive = (master: Buffer, info: string) => Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), info, KEY_BYTES));

export function createSecretBox(master: Buffer): SecretBox {
  if (master.length !== KEY_BYTES) throw new Error('the secret key must be 32 bytes');
  const encryptionKey = derive(master, 'colibri/secrets/aes-256-gcm');
  const fingerprintKey = derive(master, 'colibri/secrets/fingerprint');
  const keyId = createHash('sha256').update(encryptionKey).digest('base64url').slice(0, 8);
  let signer: Signer | undefined;
  return {
    signer: () => (signer ??= ed25519Signer(derive(master, 'colibri/certificates/ed25519'))),
    seed: (purpose) => derive(master, `colibri/seed/${purpose}`),
    seal(plain, context) {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv('aes-256-gcm', encryptionKey, nonce);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', keyId, nonce.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
    },
    open(sealed, context) {
      const [version, id, nonce, body, tag] = sealed.split('.');
      if (version !== 'v1' || tag === undefined) throw new Error('not a sealed secret');
      if (id !== keyId) throw new Error('this secret was sealed under another key (was COLIBRI_SECRET_KEY changed?)');
      const decipher = createDecipheriv('aes-256-gcm', encryptionKey, Buffer.from(nonce, 'base64url'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
    fingerprint(value, purpose) {
      return createHmac('sha256', fingerprintKey).update(`${purpose}\u0000${value}`).digest('base64url');
    },
  };
}

function decodeKey(text: string, where: string): Buffer {
  const key = Buffer.from(text.trim(), 'base64');
  // The message names the source, never the value.
  if (key.length !== KEY_BYTES) throw new Error(`${where} must hold the base64 of exactly 32 bytes`);
  return key;
}

/** The master key: COLIBRI_SECRET_KEY, else DATA_DIR/secret.key (created once when missing). */
export function resolveSecretKey(env: NodeJS.ProcessEnv = process.env): Buffer {
  if (env.COLIBRI_SECRET_KEY) return decodeKey(env.COLIBRI_SECRET_KEY, 'COLIBRI_SECRET_KEY');
  const file = resolve(env.DATA_DIR || './.data', 'secret.key');
  try {
    return decodeKey(readFileSync(file, 'utf8'), file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dirname(file), { recursive: true });
  try {
    // 'wx': when two processes start together, exactly one writes; the other reads its key.
    writeFileSync(file, `${randomBytes(KEY_BYTES).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return decodeKey(readFileSync(file, 'utf8'), file);
}

let processBox: SecretBox | null = null;
/** The process's box, from resolveSecretKey(); the demo seed and the server share it. */
export function defaultSecretBox(): SecretBox {
  processBox ??= createSecretBox(resolveSecretKey());
  return processBox;
}
