/** Shapes the stand-in stores and returns. Field names follow Slack's own JSON. */

/** A value a Web API method answers with: `{ok:true, …}` or `{ok:false, error, …}`. */
export type SlackResult = { ok: boolean; error?: string; [key: string]: unknown };

/** A Block Kit block as posted (only `type` is known to be there). */
export type Block = { type: string; [key: string]: unknown };

/** Message metadata as Slack returns it. */
export interface MessageMetadata {
  event_type: string;
  event_payload: Record<string, unknown>;
}

/** A reaction on a message, as `reactions.get` / `conversations.replies` show it. */
export interface Reaction {
  name: string;
  users: string[];
  count: number;
}

/** A file reference on a message. */
export interface MessageFile {
  id: string;
  name?: string;
  title?: string;
  /** A person's shared file carries Slack's whole file object (shared-files.ts). */
  [field: string]: unknown;
}

/** A message in a channel, in Slack's shape (plus `channel` and `deleted` for the stand-in's own use). */
export interface StoredMessage {
  type: 'message';
  subtype?: string;
  channel: string;
  ts: string;
  thread_ts?: string;
  user: string;
  bot_id?: string;
  app_id?: string;
  team: string;
  /** A Slack Connect author's own workspace (and the one the message came from). */
  user_team?: string;
  source_team?: string;
  text: string;
  blocks?: Block[];
  /** Legacy attachments, as monitoring integrations still post alerts. */
  attachments?: Array<Record<string, unknown>>;
  /** Another bot's or integration's name (bot messages only). */
  username?: string;
  bot_profile?: { id: string; name: string; app_id?: string };
  metadata?: MessageMetadata;
  reactions?: Reaction[];
  files?: MessageFile[];
  edited?: { user: string; ts: string };
  reply_broadcast?: boolean;
  /** On a `file_share` message: false when the file was shared, not uploaded, with it. */
  upload?: boolean;
  /** Set by chat.delete; deleted messages are hidden from every view. */
  deleted?: boolean;
}

/** An ephemeral message: only `user` sees it. */
export interface StoredEphemeral {
  channel: string;
  user: string;
  message_ts: string;
  thread_ts?: string;
  text: string;
  blocks?: Block[];
}

/** A file uploaded through files.getUploadURLExternal → upload → files.completeUploadExternal. */
export interface StoredFile {
  id: string;
  name: string;
  title: string;
  length: number;
  /** undefined until completed with a channel */
  channel?: string;
  thread_ts?: string;
  initial_comment?: string;
  /** Full bytes as uploaded. */
  content: Buffer;
  /** Convenience: content decoded as UTF-8. */
  text: string;
  completed: boolean;
}

/** A person (or bot) in users.info. */
export interface StandinUser {
  id: string;
  /** Their home workspace. */
  team_id: string;
  /** Their Enterprise Grid org: users.info then carries `enterprise_user`. */
  enterprise_id?: string;
  /** IANA time zone; default `Europe/London`. */
  tz?: string;
  name: string;
  real_name: string;
  is_admin: boolean;
  is_owner: boolean;
  is_bot: boolean;
  /** A deactivated account: users.info still answers, with `deleted: true`. */
  deleted?: boolean;
  /** A multi-channel guest (`is_restricted`). */
  is_restricted?: boolean;
  /** A single-channel guest (`is_ultra_restricted`; Slack sets `is_restricted` too). */
  is_ultra_restricted?: boolean;
  /** Another organisation's person seen through Slack Connect (`is_stranger`). */
  is_stranger?: boolean;
}

/**
 * A conversation as conversations.info / conversations.members describe it. Undeclared ids get a
 * default by their first letter (`D` a DM with one person, `G` a private channel, else public),
 * with the workspace's own people (not guests, not strangers) and the bot as members.
 */
export interface StandinConversation {
  id: string;
  name?: string;
  is_private?: boolean;
  /** A group DM (`is_mpim`; Slack marks these private too). */
  is_mpim?: boolean;
  /** Slack Connect: shared with another organisation. */
  is_ext_shared?: boolean;
  /** An invitation to share with another organisation is pending. */
  is_pending_ext_shared?: boolean;
  /** Shared between workspaces of one Enterprise Grid org. */
  is_org_shared?: boolean;
  /** Member ids (people and bots). */
  members?: string[];
}

/** One entry of the call log (the token is never recorded). */
export interface StandinCall {
  method: string;
  args: Record<string, unknown>;
  ok: boolean;
  error?: string;
  /** OAuth: the installation whose token made the call (`T…`, or `E…` org-wide). */
  team?: string;
  /** Date.now() when answered. */
  at: number;
}

/** What was POSTed to a slash command's response_url. */
/** A body Slack refused on a surface that is not a Web API method, with Slack's words. */
export interface StoredRefusal {
  surface: 'response_url' | 'command_ack' | 'view_submission';
  error: string;
  messages: string[];
  body: unknown;
}

export interface StoredResponse {
  text?: string;
  blocks?: Block[];
  response_type?: string;
  replace_original?: boolean;
  delete_original?: boolean;
  [key: string]: unknown;
}

/** A thread's assistant status and suggested prompts. */
export interface StoredStatus {
  channel: string;
  thread_ts?: string;
  status: string;
  loading_messages?: string[];
  at: number;
}

/** A modal opened with views.open. */
/** A person's Home tab as the last views.publish left it, and how many publishes it took. */
export interface StoredHome {
  view: Record<string, unknown>;
  publishes: number;
  at: number;
}

export interface StoredView {
  id: string;
  trigger_id: string;
  /** The view as sent (`type: 'modal'`, `callback_id`, `blocks`, `private_metadata`, …). */
  view: Record<string, unknown>;
  at: number;
}
