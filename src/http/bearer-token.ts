import { secretCheck } from './secret-check.js';

/**
 * A check of `Authorization: Bearer <token>` against the one token configured (RFC 6750), in time
 * that tells neither the token nor its length (secret-check.ts).
 */
export function bearerTokenCheck(expected: string): (authorization: string | undefined) => boolean {
  const check = secretCheck(expected);
  return (authorization) => check([/^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? '')?.[1]]);
}
