import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (DESIGN "Many accounts"): service tokens and Slack installations are kept in the
 * store sealed with AES-256-GCM under STATE_ENCRYPTION_KEY, node's own crypto. A sealed value names
 * the key that sealed it, so the key can be rotated: seal with the new key, keep the old one in
 * STATE_ENCRYPTION_PREVIOUS_KEYS until everything sealed under it is rewritten or gone.
 *
 * Format: `v1.<keyId>.<iv>.<tag>.<ciphertext>` (base64url parts; the key id is the first 8 hex
 * characters of the key's SHA-256, which says which key without saying anything about it).
 */
export interface SecretBox {
  /** The id of the key new values are sealed with. */
  readonly keyId: string;
  seal(plain: string): string;
  /** Throws SecretBoxError when the value was not sealed by a known key or was tampered with. */
  open(sealed: string): string;
}

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

const VERSION = 'v1';
const IV_BYTES = 12;

/** The id a sealed value carries for this key. */
export function keyIdOf(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

/** Decodes a base64 key of exactly 32 bytes; the message names what is wrong, never the key. */
export function decodeKey(encoded: string): Buffer {
  const key = Buffer.from(encoded.trim(), 'base64');
  if (key.length !== 32) {
    throw new SecretBoxError(
      `must be 32 bytes in base64 (got ${key.length} bytes): make one with \`openssl rand -base64 32\``,
    );
  }
  return key;
}

export function createSecretBox(current: Buffer, previous: Buffer[] = []): SecretBox {
  const keys = new Map<string, Buffer>();
  for (const key of [current, ...previous]) keys.set(keyIdOf(key), key);
  const keyId = keyIdOf(current);
  return {
    keyId,
    seal(plain) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', current, iv);
      // The key id is authenticated too: a value cannot be re-labelled to another key.
      cipher.setAAD(Buffer.from(`${VERSION}.${keyId}`));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      const parts = [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url'));
      return [VERSION, keyId, ...parts].join('.');
    },
    open(sealed) {
      const [version, id, iv, tag, body, ...rest] = sealed.split('.');
      if (version !== VERSION || !id || iv === undefined || !tag || body === undefined || rest.length > 0) {
        throw new SecretBoxError('not a sealed value');
      }
      const key = keys.get(id);
      if (!key) throw new SecretBoxError(`sealed under key ${id}, which is not configured`);
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAAD(Buffer.from(`${VERSION}.${id}`));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
          'utf8',
        );
      } catch {
        throw new SecretBoxError(`sealed value under key ${id} failed its integrity check`);
      }
    },
  };
}
