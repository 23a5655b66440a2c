import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecretBox, decodeKey, keyIdOf, SecretBoxError } from '../../src/secrets/secret-box.js';

const key = () => randomBytes(32);

describe('secret box', () => {
  it('opens what it sealed, and the sealed text holds no trace of the plain text', () => {
    const box = createSecretBox(key());
    const plain = 'fake-service-token-0000';
    const sealed = box.seal(plain);
    expect(sealed).not.toContain(plain);
    expect(sealed).not.toContain(Buffer.from(plain).toString('base64'));
    expect(sealed.startsWith(`v1.${box.keyId}.`)).toBe(true);
    expect(box.open(sealed)).toBe(plain);
  });

  it('seals the same text differently each time (a fresh IV per value)', () => {
    const box = createSecretBox(key());
    expect(box.seal('same')).not.toBe(box.seal('same'));
  });

  it('opens values sealed under a previous key after a rotation, and seals with the new one', () => {
    const oldKey = key();
    const newKey = key();
    const sealedBefore = createSecretBox(oldKey).seal('before');
    const rotated = createSecretBox(newKey, [oldKey]);
    expect(rotated.open(sealedBefore)).toBe('before');
    expect(rotated.keyId).toBe(keyIdOf(newKey));
    expect(rotated.seal('after').split('.')[1]).toBe(keyIdOf(newKey));
  });

  it('refuses a value under an unknown key, a tampered value, a relabelled value and junk', () => {
    const box = createSecretBox(key());
    const other = createSecretBox(key());
    expect(() => box.open(other.seal('x'))).toThrow(/not configured/);
    const sealed = box.seal('secret');
    const parts = sealed.split('.');
    const body = Buffer.from(parts[4] as string, 'base64url');
    body[0] = (body[0] as number) ^ 1;
    parts[4] = body.toString('base64url');
    expect(() => box.open(parts.join('.'))).toThrow(SecretBoxError);
    expect(() => box.open('plain-token')).toThrow(/not a sealed value/);
    // The key id is authenticated: a value relabelled to the other configured key does not open.
    const previous = key();
    const twoKeys = createSecretBox(key(), [previous]);
    const relabelled = twoKeys.seal('x').split('.');
    relabelled[1] = keyIdOf(previous);
    expect(() => twoKeys.open(relabelled.join('.'))).toThrow(/integrity/);
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
