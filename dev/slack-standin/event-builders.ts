import { randomBytes, randomUUID } from 'node:crypto';
import { DEFAULT_APP_ID, DEFAULT_BOT_USER_ID, DEFAULT_TEAM_ID } from './defaults.js';
import { nextSlackTs } from './ts-clock.js';

/**
 * Builders for what Slack sends an app: message, app_mention and reaction_added events and the
 * event_callback envelope around them, shaped like Slack's. Defaults: workspace T0TEST, channel
 * C0GENERAL, user UALICE, bot UBOT. https://docs.slack.dev/reference/events
 */

type Extra = Record<string, unknown>;

/** A built `message` or `app_mention` event: the fields tests read most, typed; the rest as sent. */
export type BuiltMessageEvent = Extra & {
  type: 'message' | 'app_mention';
  channel: string;
  ts: string;
  event_ts: string;
  text: string;
  user?: string;
  thread_ts?: string;
};

/** A built `reaction_added` event. */
export type BuiltReactionEvent = Extra & {
  type: 'reaction_added';
  user: string;
  reaction: string;
  item: { type: 'message'; channel: string; ts: string };
  item_user: string;
  event_ts: string;
};

/** Slack's channel_type from an id's first letter (C channel, G private, D DM). */
export function channelTypeOf(channel: string): 'channel' | 'group' | 'im' {
  if (channel.startsWith('D')) return 'im';
  if (channel.startsWith('G')) return 'group';
  return 'channel';
}

function slackId(prefix: string, length = 10): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  return prefix + [...randomBytes(length)].map((b) => alphabet[b % alphabet.length]).join('');
}

/** The rich_text block Slack's composer attaches to a typed message. */
function richTextBlocks(text: string): Extra[] {
  return [
    {
      type: 'rich_text',
      block_id: slackId('', 5),
      elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text }] }],
    },
  ];
}

/** Fields of a `message` event. */
export interface MessageEventInput {
  channel?: string;
  /** Default 'UALICE'; pass `null` with `bot_id` for a message without a user. */
  user?: string | null;
  text?: string;
  ts?: string;
  thread_ts?: string;
  /** Default: from the channel id. */
  channel_type?: 'channel' | 'group' | 'im' | 'mpim';
  /** Default none; 'file_share' when `files` are given. */
  subtype?: string;
  bot_id?: string;
  /**
   * The user's workspace. Default T0TEST. `null` leaves out `team`, `user_team` and `source_team`,
   * as Slack's `file_share` and `thread_broadcast` messages sometimes come.
   */
  team?: string | null;
  /** Slack Connect: the user's own workspace. Default: `team`. */
  user_team?: string;
  /** The workspace the message was sent from. Default: `user_team`. */
  source_team?: string;
  files?: Extra[];
  /** Merged in last (e.g. `message`, `previous_message` for message_changed). */
  extra?: Extra;
}

/** The sender's workspace fields of a message, or none (`team: null`). */
function teamFields(input: { team?: string | null; user_team?: string; source_team?: string }): Extra {
  if (input.team === null) return {};
  const team = input.team ?? DEFAULT_TEAM_ID;
  const userTeam = input.user_team ?? team;
  return { team, user_team: userTeam, source_team: input.source_team ?? userTeam };
}

/** A `message` event (message.channels / .groups / .im / .mpim). */
export function messageEvent(input: MessageEventInput = {}): BuiltMessageEvent {
  const channel = input.channel ?? 'C0GENERAL';
  const ts = input.ts ?? nextSlackTs();
  const text = input.text ?? 'hello';
  const user = input.user === null ? undefined : (input.user ?? 'UALICE');
  const subtype = input.subtype ?? (input.files ? 'file_share' : undefined);
  return {
    type: 'message',
    ...(subtype ? { subtype } : {}),
    ...(user ? { user } : {}),
    ...(input.bot_id ? { bot_id: input.bot_id } : { client_msg_id: randomUUID() }),
    text,
    ts,
    ...(input.thread_ts ? { thread_ts: input.thread_ts } : {}),
    ...teamFields(input),
    blocks: richTextBlocks(text),
    ...(input.files ? { files: input.files, upload: false } : {}),
    channel,
    event_ts: ts,
    channel_type: input.channel_type ?? channelTypeOf(channel),
    ...input.extra,
  };
}

/** Fields of an `app_mention` event. */
export interface AppMentionEventInput {
  channel?: string;
  user?: string;
  /** `<@BOT> ` is put in front unless the text already mentions the bot. */
  text?: string;
  ts?: string;
  thread_ts?: string;
  /** As for messageEvent: `null` leaves out every workspace field. */
  team?: string | null;
  user_team?: string;
  source_team?: string;
  /** Default 'UBOT'. */
  botUserId?: string;
  extra?: Extra;
}

/** An `app_mention` event. */
export function appMentionEvent(input: AppMentionEventInput = {}): BuiltMessageEvent {
  const bot = input.botUserId ?? DEFAULT_BOT_USER_ID;
  const raw = input.text ?? 'hello';
  const text = raw.includes(`<@${bot}>`) ? raw : `<@${bot}> ${raw}`;
  const ts = input.ts ?? nextSlackTs();
  return {
    type: 'app_mention',
    user: input.user ?? 'UALICE',
    client_msg_id: randomUUID(),
    text,
    ts,
    ...(input.thread_ts ? { thread_ts: input.thread_ts } : {}),
    ...teamFields(input),
    blocks: richTextBlocks(text),
    channel: input.channel ?? 'C0GENERAL',
    event_ts: ts,
    ...input.extra,
  };
}

/** Fields of a `reaction_added` event. */
export interface ReactionAddedEventInput {
  /** Who reacted. Default 'UALICE'. */
  user?: string;
  /** Emoji name without colons. Default '+1'. */
  reaction?: string;
  channel?: string;
  /** The ts of the message reacted to (required: it names the message). */
  ts: string;
  /** Author of the message reacted to. Default the bot. */
  item_user?: string;
  event_ts?: string;
}

/** A `reaction_added` event (no thread_ts: Slack does not send one). */
export function reactionAddedEvent(input: ReactionAddedEventInput): BuiltReactionEvent {
  return {
    type: 'reaction_added',
    user: input.user ?? 'UALICE',
    reaction: input.reaction ?? '+1',
    item: { type: 'message', channel: input.channel ?? 'C0GENERAL', ts: input.ts },
    item_user: input.item_user ?? DEFAULT_BOT_USER_ID,
    event_ts: input.event_ts ?? nextSlackTs(),
  };
}

/**
 * Envelope fields of an event_callback. In a Slack Connect channel Slack puts the workspace that
 * created the channel in `team_id` (and `enterprise_id`), while `authorizations` name the app's
 * own installation: give `teamId` for the former and `appTeamId` for the latter.
 */
export interface EventCallbackOptions {
  /** The envelope's `team_id`. Default T0TEST. */
  teamId?: string;
  /** The envelope's `enterprise_id` (the channel creator's Grid org). Default none. */
  enterpriseId?: string;
  /** The app's own workspace, named in `authorizations` and `context_team_id`. Default: `teamId`. */
  appTeamId?: string;
  /** The app's own Grid org, named in `authorizations` and `context_enterprise_id`. Default: `enterpriseId`. */
  appEnterpriseId?: string;
  /** `is_ext_shared_channel`: the event happened in a Slack Connect channel. Default false. */
  isExtSharedChannel?: boolean;
  /** Default: a fresh 'Ev…' id (Slack sometimes re-sends an event with a new one). */
  eventId?: string;
  apiAppId?: string;
  botUserId?: string;
  /** Default: one bot authorization for the app's team (and enterprise). */
  authorizations?: Extra[];
  /** Unix seconds. Default now. */
  eventTime?: number;
}

/** The event_callback body Slack POSTs (or sends as a Socket Mode `events_api` payload). */
export function eventCallback(event: Extra, options: EventCallbackOptions = {}): Extra {
  const teamId = options.teamId ?? DEFAULT_TEAM_ID;
  const appTeamId = options.appTeamId ?? teamId;
  const appEnterpriseId = options.appEnterpriseId ?? options.enterpriseId ?? null;
  return {
    token: 'verification-token-unused',
    team_id: teamId,
    ...(options.enterpriseId ? { enterprise_id: options.enterpriseId } : {}),
    context_team_id: appTeamId,
    context_enterprise_id: appEnterpriseId,
    api_app_id: options.apiAppId ?? DEFAULT_APP_ID,
    event,
    type: 'event_callback',
    event_id: options.eventId ?? slackId('Ev'),
    event_time: options.eventTime ?? Math.floor(Date.now() / 1000),
    authorizations: options.authorizations ?? [
      {
        enterprise_id: appEnterpriseId,
        team_id: appTeamId,
        user_id: options.botUserId ?? DEFAULT_BOT_USER_ID,
        is_bot: true,
        is_enterprise_install: false,
      },
    ],
    is_ext_shared_channel: options.isExtSharedChannel ?? false,
    event_context: `4-${randomBytes(24).toString('base64url')}`,
  };
}

/** Fields of a slash command; the rest are filled in as Slack does. */
export interface SlashCommandInput {
  command?: string;
  text?: string;
  user_id?: string;
  user_name?: string;
  channel_id?: string;
  channel_name?: string;
  /** The workspace the payload names (Slack's `team_id`). Default T0TEST. */
  team_id?: string;
  /** The payload's `enterprise_id` (Grid). Default none. */
  enterprise_id?: string;
  response_url?: string;
  trigger_id?: string;
  api_app_id?: string;
}

/** The form fields Slack POSTs for a slash command (default `/agent` by UALICE in C0GENERAL). */
export function slashCommandFields(input: SlashCommandInput = {}): Record<string, string> {
  return {
    token: 'verification-token-unused',
    team_id: input.team_id ?? DEFAULT_TEAM_ID,
    team_domain: 'standin-workspace',
    channel_id: input.channel_id ?? 'C0GENERAL',
    channel_name: input.channel_name ?? 'general',
    user_id: input.user_id ?? 'UALICE',
    user_name: input.user_name ?? (input.user_id ?? 'UALICE').toLowerCase(),
    command: input.command ?? '/agent',
    text: input.text ?? '',
    ...(input.enterprise_id ? { enterprise_id: input.enterprise_id } : {}),
    api_app_id: input.api_app_id ?? DEFAULT_APP_ID,
    is_enterprise_install: 'false',
    response_url: input.response_url ?? 'http://127.0.0.1:9/response/unused',
    trigger_id:
      input.trigger_id ?? `${Date.now()}.${randomBytes(4).readUInt32BE()}.${randomBytes(16).toString('hex')}`,
  };
}

/** Who acts in an interaction: the person and their own workspace (Slack Connect: another one). */
export interface InteractionActorInput {
  /** Default 'UALICE'. */
  user?: string;
  /** The person's workspace (`user.team_id`). Default T0TEST. */
  userTeam?: string;
  /** The workspace the interaction happened in (`team.id`). Default T0TEST. */
  team?: string;
  /** The Enterprise Grid org, if any. */
  enterpriseId?: string;
}

function interactionEnvelope(input: InteractionActorInput & { triggerId: string }): Extra {
  const user = input.user ?? 'UALICE';
  const team = input.team ?? DEFAULT_TEAM_ID;
  const enterprise = input.enterpriseId ? { id: input.enterpriseId, name: 'Standin Grid' } : null;
  return {
    user: {
      id: user,
      username: user.toLowerCase(),
      name: user.toLowerCase(),
      team_id: input.userTeam ?? team,
    },
    api_app_id: DEFAULT_APP_ID,
    token: 'verification-token-unused',
    trigger_id: input.triggerId,
    team: {
      id: team,
      domain: 'standin-workspace',
      ...(input.enterpriseId ? { enterprise_id: input.enterpriseId } : {}),
    },
    enterprise,
    is_enterprise_install: false,
  };
}

/** A click on a block element of a message (a `block_actions` payload, as Slack POSTs it). */
export interface BlockActionInput extends InteractionActorInput {
  channel: string;
  /** The clicked message as the stand-in stores it (ts, thread_ts, blocks…); absent for an ephemeral. */
  message?: Extra & { ts: string; thread_ts?: string };
  /** For an ephemeral message: its message_ts. */
  ephemeralTs?: string;
  /** The clicked element: its type, action_id, block_id and value. */
  action: { type: string; action_id: string; block_id?: string; value?: string; text?: Extra };
  /** From {@link StandinView.issueTriggerId}, so views.open accepts it. */
  triggerId: string;
}

/** A `block_actions` payload: https://docs.slack.dev/reference/interaction-payloads/block_actions-payload */
export function blockActionsPayload(input: BlockActionInput): Extra {
  const messageTs = input.message?.ts ?? input.ephemeralTs ?? nextSlackTs();
  return {
    type: 'block_actions',
    ...interactionEnvelope(input),
    container: {
      type: 'message',
      message_ts: messageTs,
      channel_id: input.channel,
      is_ephemeral: input.message === undefined,
      ...(input.message?.thread_ts ? { thread_ts: input.message.thread_ts } : {}),
    },
    channel: { id: input.channel, name: input.channel.toLowerCase() },
    ...(input.message ? { message: input.message } : {}),
    state: { values: {} },
    response_url: 'http://127.0.0.1:9/response/unused',
    actions: [
      {
        block_id: input.action.block_id ?? slackId('', 5),
        action_ts: nextSlackTs(),
        ...input.action,
      },
    ],
  };
}

/** A modal submitted: https://docs.slack.dev/reference/interaction-payloads/view-interactions-payload */
export interface ViewSubmissionInput extends InteractionActorInput {
  /** The view as opened (callback_id, private_metadata, blocks…) and its id. */
  view: Extra & { id?: string };
  /** block_id → action_id → value typed by the person (plain_text_input). */
  values: Record<string, Record<string, string>>;
  triggerId?: string;
}

export function viewSubmissionPayload(input: ViewSubmissionInput): Extra {
  const values = Object.fromEntries(
    Object.entries(input.values).map(([blockId, actions]) => [
      blockId,
      Object.fromEntries(
        Object.entries(actions).map(([actionId, value]) => [actionId, { type: 'plain_text_input', value }]),
      ),
    ]),
  );
  return {
    type: 'view_submission',
    ...interactionEnvelope({ ...input, triggerId: input.triggerId ?? `${Date.now()}.1.${slackId('', 16)}` }),
    view: {
      id: input.view.id ?? slackId('V'),
      team_id: input.team ?? DEFAULT_TEAM_ID,
      app_id: DEFAULT_APP_ID,
      bot_id: 'B0BOT',
      hash: `${Date.now()}.${slackId('', 8)}`,
      previous_view_id: null,
      root_view_id: input.view.id ?? null,
      ...input.view,
      state: { values },
    },
    response_urls: [],
  };
}

/** An `app_home_opened` event (the agent view's Messages tab by default). */
export function appHomeOpenedEvent(
  input: { user?: string; channel?: string; tab?: 'messages' | 'home' } = {},
): Extra {
  return {
    type: 'app_home_opened',
    user: input.user ?? 'UALICE',
    channel: input.channel ?? 'D00000001',
    tab: input.tab ?? 'messages',
    event_ts: nextSlackTs(),
  };
}
