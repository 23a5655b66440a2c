// A leaf, so access/who-is-inside.ts names refusals without importing thread-output-port.ts.

/** Why a message did not become a turn, shown to its sender only. */
export type Refusal =
  | 'busy'
  | 'external-user'
  /** A guest of the workspace (ALLOW_GUESTS is off). */
  | 'guest'
  /** `users.info` did not answer, so the bot could not tell whether the sender is inside. */
  | 'identity-unchecked'
  | 'channel-not-allowed'
  | 'empty-prompt'
  | 'unavailable'
  /** A time phrase that cannot be a range: wholly in the future, reversed, or over 31 days. */
  | 'time-future'
  | 'time-reversed'
  | 'time-too-long'
  /** `OUTSIDER_AUDIENCE=refuse` and people outside the organisation can read the conversation. */
  | 'outsider-audience'
  /** The answer had to go to a DM (`OUTSIDER_AUDIENCE=dm`), and Slack would not open one. */
  | 'private-thread-failed'
  /** The sender used up `RUNS_PER_PERSON_PER_HOUR`; the detail says when they can ask again. */
  | 'over-limit'
  /** Not a home installation, and the channel is bound to none of its connections. */
  | 'unbound-channel';
