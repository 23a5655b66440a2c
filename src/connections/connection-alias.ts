/** Connection aliases (DESIGN "Many accounts"): one word in a command, safe in a store key and a log. */

/** The connection built from AGENT_API_URL / AGENT_API_TOKEN; it cannot be added or removed. */
export const DEFAULT_CONNECTION = 'default';

export const ALIAS_PATTERN = /^[a-z0-9][a-z0-9-]{0,31}$/;
export const ALIAS_RULE =
  'lower-case letters, digits and “-”, starting with a letter or digit, at most 32 characters';

/** Why `alias` is not a usable alias, as the end of a sentence; undefined when it is one. */
export function aliasProblem(alias: string): string | undefined {
  if (alias.trim() === '') return 'the alias is empty';
  if (/\s/.test(alias.trim())) return `an alias is one word without spaces (${ALIAS_RULE})`;
  if (alias.length > 32) return `the alias is ${alias.length} characters long; at most 32 (${ALIAS_RULE})`;
  if (!ALIAS_PATTERN.test(alias)) return `“${alias.slice(0, 40)}” is not an alias (${ALIAS_RULE})`;
  return undefined;
}
