import { expect } from 'vitest';

/** The error `promise` rejects with, asserted to be an instance of `kind` (a resolve fails the test). */
export async function rejectionOf<E>(
  promise: Promise<unknown>,
  kind: abstract new (...args: never[]) => E,
): Promise<E> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(kind);
  return error as E;
}
