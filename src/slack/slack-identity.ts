// A leaf of its own: app.ts, the listeners, the installations and the thread output all import it.

/** Who the bot token belongs to, from `auth.test` at start-up (never from an event's envelope). */
export interface SlackIdentity {
  botUserId: string;
  botId: string;
  /** The app's own workspace (`team_id`). */
  teamId: string;
  /** The app's Enterprise Grid org (`enterprise_id`); undefined outside Grid. */
  enterpriseId?: string | undefined;
  /** The workspace's address (`url`, `https://x.slack.com/`): links to threads. */
  url?: string | undefined;
}
