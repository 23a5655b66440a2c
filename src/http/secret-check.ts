import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * A check of presented secrets against the one configured, each hashed and compared: the time a
 * refusal takes tells neither the secret, nor its length, nor which candidate was tried.
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
