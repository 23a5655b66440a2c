/** The ports the context features talk through (threads, people, bindings): src/slack/, src/store/. */

/** A Slack attachment (legacy "secondary" content), the fields thread context reads. */
export interface SlackAttachment {
  pretext?: string | undefined;
  title?: string | undefined;
  text?: string | undefined;
  fallback?: string | undefined;
  fields?: Array<{ title?: string | undefined; value?: string | undefined }> | undefined;
  [key: string]: unknown;
}

/** A message of a thread as `conversations.replies` returns it (only what context reads is typed). */
export interface ThreadMessage {
  ts: string;
  user?: string | undefined;
  /** The author's workspace (Slack Connect), else `team`, else `source_team`: see who-is-inside.ts. */
  user_team?: string | undefined;
  team?: string | undefined;
  source_team?: string | undefined;
  bot_id?: string | undefined;
  app_id?: string | undefined;
  /** A bot's or integration's display name, chosen per message (incoming webhooks, legacy integrations). */
  username?: string | undefined;
  /** The posting app's bot as installed (name, app). */
  bot_profile?:
    | {
        name?: string | undefined;
        app_id?: string | undefined;
        /** The workspace the posting app is installed in: another organisation's, in Slack Connect. */
        team_id?: string | undefined;
      }
    | undefined;
  subtype?: string | undefined;
  text?: string | undefined;
  attachments?: SlackAttachment[] | undefined;
  blocks?: Array<{ type?: string; [key: string]: unknown }> | undefined;
  /** Files shared with the message, in Slack's shape (file-context.ts reads them). */
  files?: unknown[] | undefined;
  reply_count?: number | undefined;
}

/** A thread as read: its messages (root first, oldest to newest) and whether reading stopped early. */
export interface ThreadRead {
  messages: ThreadMessage[];
  /** True when the thread had more messages than the reader's cap. */
  truncated: boolean;
}

/** Reads a thread's history (`conversations.replies`, paged). Errors are the adapter's. */
export interface ThreadReader {
  read(where: { channel: string; threadTs: string }): Promise<ThreadRead>;
}

/** What the context needs to know about a person. */
export interface PersonProfile {
  /** Display name (or real name, or handle), without "@". */
  name: string;
  /** IANA time zone (users.info `tz`), when Slack has one. */
  tz?: string | undefined;
}

/** People by Slack user id (users.info, cached). undefined when unknown or the look-up failed. */
export interface PeopleDirectory {
  profile(userId: string): Promise<PersonProfile | undefined>;
}

/** A channel bound to an agent (`/agent channel use`). */
export interface ChannelBinding {
  agentId: string;
  /** The service connection the agent is on (`… on <alias>`); undefined: the default one. */
  connection?: string | undefined;
  /** Who bound it, and when (epoch ms): for `/agent channel` and the audit trail. */
  boundBy: string;
  boundAt: number;
  /** With OAuth: the installation whose admin bound it (its admins' App Home lists it). */
  installation?: string | undefined;
}

/** Where channel bindings are kept (the state store: shared by every replica, no expiry). */
export interface ChannelBindingStore {
  getChannelBinding(channel: string): Promise<ChannelBinding | undefined>;
  saveChannelBinding(channel: string, binding: ChannelBinding): Promise<void>;
  deleteChannelBinding(channel: string): Promise<void>;
}

/** The bot as Slack knows it; read per use, never copied: with OAuth it is the installation's in scope. */
export interface BotUser {
  readonly botUserId: string;
  readonly botId?: string | undefined;
}
