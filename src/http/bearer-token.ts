import { secretCheck } from './secret-check.js';

/** Checks `Authorization: Bearer <token>` (RFC 6750) against the one token in constant time (secretCheck). */
export function bearerTokenCheck(expected: string): (authorization: string | undefined) => boolean {
  const check = secretCheck(expected);
  return (authorization) => check([/^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? '')?.[1]]);
}
