import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (DESIGN "Many accounts"), sealed with AES-256-GCM under STATE_ENCRYPTION_KEY as
 * `v2.<keyId>.<iv>.<tag>.<ciphertext>` (base64url; key id: 8 hex of the key's SHA-256); older keys
 * stay in STATE_ENCRYPTION_PREVIOUS_KEYS. The record a value belongs to is its additional data
 * (DESIGN "Sealed values know their place"). `v1` values (key id only) still open, once, and the
 * caller re-seals them (`isUnbound`): refusing them would make every workspace reinstall.
 */
export interface SecretBox {
  /** The id of the key new values are sealed with. */
  readonly keyId: string;
  /** Seals `plain` for `place`, the record it is kept in (see `sealPlace`). */
  seal(plain: string, place: string): string;
  /** Opens a value sealed for `place`; SecretBoxError for an unknown key, or a value tampered or moved. */
  open(sealed: string, place: string): string;
  /** Whether `sealed` predates record binding (`v1`): re-seal it for its record. */
  isUnbound(sealed: string): boolean;
}

/** Where a sealed value belongs: one record kind and its id parts, joined unambiguously. */
export function sealPlace(kind: 'installation' | 'connection', ...ids: Array<string | undefined>): string {
  return JSON.stringify([kind, ...ids.map((id) => id ?? null)]);
}

/** A value that cannot be opened, or a key that cannot be used. */
export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

const VERSION = 'v2';
/** Before record binding: the key id was the only additional data. */
const UNBOUND_VERSION = 'v1';
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

/** Seals with `current`; opens with it or any of `previous`. */
export function createSecretBox(current: Buffer, previous: Buffer[] = []): SecretBox {
  const keys = new Map([current, ...previous].map((key) => [keyIdOf(key), key]));
  const keyId = keyIdOf(current);
  return {
    keyId,
    seal(plain, place) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', current, iv);
      // Authenticated: a value cannot be re-labelled to another key nor moved to another record.
      cipher.setAAD(additionalData(VERSION, keyId, place));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      const parts = [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url'));
      return [VERSION, keyId, ...parts].join('.');
    },
    isUnbound: (sealed) => sealed.startsWith(`${UNBOUND_VERSION}.`),
    open(sealed, place) {
      const [version, id, iv, tag, body, ...rest] = sealed.split('.');
      const known = version === VERSION || version === UNBOUND_VERSION;
      if (!known || !id || iv === undefined || !tag || body === undefined || rest.length > 0) {
        throw new SecretBoxError('not a sealed value');
      }
      const key = keys.get(id);
      if (!key) throw new SecretBoxError(`sealed under key ${id}, which is not configured`);
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAAD(additionalData(version, id, place));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        const plain = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]);
        return plain.toString('utf8');
      } catch {
        throw new SecretBoxError(`sealed value under key ${id} failed its integrity check`);
      }
    },
  };
}

/** What a value authenticates beside its text: `v1` its key id only, `v2` its record too. */
function additionalData(version: string, keyId: string, place: string): Buffer {
  return Buffer.from(version === UNBOUND_VERSION ? `${version}.${keyId}` : `${version}.${keyId}.${place}`);
}
