import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * A check of presented secrets against the one configured. Both sides are hashed first, so
 * `timingSafeEqual` compares equal-length digests: neither the secret's characters nor its length
 * leak through the time a refusal takes. Every candidate is compared, so the time does not tell
 * which of them was tried either.
 */
export function secretCheck(expected: string): (presented: ReadonlyArray<string | undefined>) => boolean {
  const expectedDigest = sha256(expected);
  return (presented) => {
    let matched = false;
    for (const candidate of presented.length > 0 ? presented : [undefined]) {
      const equal = timingSafeEqual(sha256(candidate ?? ''), expectedDigest);
      matched = (equal && candidate !== undefined) || matched;
    }
    return matched;
  };
}

const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest();
