import { createCipheriv, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  createSecretBox,
  decodeKey,
  keyIdOf,
  SecretBoxError,
  sealPlace,
} from '../../src/secrets/secret-box.js';

const key = () => randomBytes(32);
/** The record a test value is kept in. */
const HERE = sealPlace('connection', 'T0HOME', 'eu-prod');

/** A value as the box sealed it before record binding (v1: the key id its only additional data). */
function sealedUnbound(keyBytes: Buffer, plain: string): string {
  const id = keyIdOf(keyBytes);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyBytes, iv);
  cipher.setAAD(Buffer.from(`v1.${id}`));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', id, ...[iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url'))].join('.');
}

describe('secret box', () => {
  it('opens what it sealed, and the sealed text holds no trace of the plain text', () => {
    const box = createSecretBox(key());
    const plain = 'fake-service-token-0000';
    const sealed = box.seal(plain, HERE);
    expect(sealed).not.toContain(plain);
    expect(sealed).not.toContain(Buffer.from(plain).toString('base64'));
    expect(sealed.startsWith(`v2.${box.keyId}.`)).toBe(true);
    expect(box.open(sealed, HERE)).toBe(plain);
  });

  it('seals the same text differently each time (a fresh IV per value)', () => {
    const box = createSecretBox(key());
    expect(box.seal('same', HERE)).not.toBe(box.seal('same', HERE));
  });

  it('opens values sealed under a previous key after a rotation, and seals with the new one', () => {
    const oldKey = key();
    const newKey = key();
    const sealedBefore = createSecretBox(oldKey).seal('before', HERE);
    const rotated = createSecretBox(newKey, [oldKey]);
    expect(rotated.open(sealedBefore, HERE)).toBe('before');
    expect(rotated.keyId).toBe(keyIdOf(newKey));
    expect(rotated.seal('after', HERE).split('.')[1]).toBe(keyIdOf(newKey));
  });

  it('refuses a value under an unknown key, a tampered value, a relabelled value and junk', () => {
    const box = createSecretBox(key());
    const other = createSecretBox(key());
    expect(() => box.open(other.seal('x', HERE), HERE)).toThrow(/not configured/);
    const sealed = box.seal('secret', HERE);
    const parts = sealed.split('.');
    const body = Buffer.from(parts[4] as string, 'base64url');
    body[0] = (body[0] as number) ^ 1;
    parts[4] = body.toString('base64url');
    expect(() => box.open(parts.join('.'), HERE)).toThrow(SecretBoxError);
    expect(() => box.open('plain-token', HERE)).toThrow(/not a sealed value/);
    // The key id is authenticated: a value relabelled to the other configured key does not open.
    const previous = key();
    const twoKeys = createSecretBox(key(), [previous]);
    const relabelled = twoKeys.seal('x', HERE).split('.');
    relabelled[1] = keyIdOf(previous);
    expect(() => twoKeys.open(relabelled.join('.'), HERE)).toThrow(/integrity/);
  });

  it('binds a value to its record: copied into another record, it does not open', () => {
    const box = createSecretBox(key());
    const sealed = box.seal('token-of-eu-prod', sealPlace('connection', 'T0HOME', 'eu-prod'));
    expect(box.open(sealed, sealPlace('connection', 'T0HOME', 'eu-prod'))).toBe('token-of-eu-prod');
    for (const elsewhere of [
      sealPlace('connection', 'T0OTHER', 'eu-prod'),
      sealPlace('connection', 'T0HOME', 'us-prod'),
      sealPlace('connection', undefined, 'eu-prod'),
      sealPlace('installation', 'T0HOME'),
    ]) {
      expect(() => box.open(sealed, elsewhere), elsewhere).toThrow(/integrity/);
    }
    const installation = box.seal('{"team":{"id":"T0HOME"}}', sealPlace('installation', 'T0HOME'));
    expect(() => box.open(installation, sealPlace('installation', 'T0OTHER'))).toThrow(/integrity/);
    // Ids cannot be joined into another record's place.
    expect(sealPlace('connection', 'T0', 'a:b')).not.toBe(sealPlace('connection', 'T0:a', 'b'));
  });

  it('opens a value sealed before record binding (v1) and says it is unbound, so it is sealed again', () => {
    const keyBytes = key();
    const box = createSecretBox(keyBytes);
    const legacy = sealedUnbound(keyBytes, 'old-token');
    expect(box.isUnbound(legacy)).toBe(true);
    expect(box.open(legacy, HERE)).toBe('old-token');
    const resealed = box.seal('old-token', HERE);
    expect(box.isUnbound(resealed)).toBe(false);
    expect(() => box.open(resealed, sealPlace('connection', 'T0HOME', 'other'))).toThrow(/integrity/);
  });

  it('decodes a 32-byte base64 key and names the problem otherwise, without echoing the key', () => {
    const encoded = key().toString('base64');
    expect(decodeKey(encoded)).toHaveLength(32);
    const short = randomBytes(16).toString('base64');
    expect(() => decodeKey(short)).toThrow(/32 bytes/);
    try {
      decodeKey(short);
    } catch (error) {
      expect(String(error)).not.toContain(short);
    }
  });
});
