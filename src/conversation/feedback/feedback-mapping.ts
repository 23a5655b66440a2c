/** Reaction feedback (DESIGN "React to answers"): https://docs.slack.dev/reference/events/reaction_added */

/** Slack reports the canonical name; settings may use a well-known alias. */
const ALIASES: Readonly<Record<string, string>> = {
  thumbsup: '+1',
  thumbsdown: '-1',
  thumbs_up: '+1',
  thumbs_down: '-1',
};

/** `:+1::skin-tone-2:` → `+1`: no colons, no skin tone, lower case, aliases resolved. */
export function normaliseReaction(name: string): string {
  const bare = name
    .trim()
    .toLowerCase()
    .replace(/^:|:$/g, '')
    .replace(/::skin-tone-\d+$/, '');
  return ALIASES[bare] ?? bare;
}

/** The reaction's score; undefined for any other, or one in both sets (a misconfiguration: no guess). */
export function reactionToScore(
  reaction: string,
  sets: { positive: readonly string[]; negative: readonly string[] },
): boolean | undefined {
  const name = normaliseReaction(reaction);
  const positive = sets.positive.some((candidate) => normaliseReaction(candidate) === name);
  const negative = sets.negative.some((candidate) => normaliseReaction(candidate) === name);
  if (positive === negative) return undefined;
  return positive;
}
