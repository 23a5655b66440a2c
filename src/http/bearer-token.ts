import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * A check of `Authorization: Bearer <token>` against the one token configured (RFC 6750). Both
 * sides are hashed first, so `timingSafeEqual` compares equal-length digests: neither the
 * token's characters nor its length leak through the time a refusal takes.
 */
export function bearerTokenCheck(expected: string): (authorization: string | undefined) => boolean {
  const expectedDigest = sha256(expected);
  return (authorization) => {
    const presented = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? '')?.[1];
    // Hash even when nothing was presented: every refusal costs the same.
    return timingSafeEqual(sha256(presented ?? ''), expectedDigest) && presented !== undefined;
  };
}

const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest();
