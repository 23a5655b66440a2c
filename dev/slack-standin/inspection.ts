import { randomBytes } from 'node:crypto';
import type { AgentSessionBook } from './agent-session-book.js';
import { recordRefusal } from './answer-rules.js';
import { liveStatusOf } from './methods/assistant.js';
import { addReaction } from './methods/reactions.js';
import type { StandinState } from './state.js';
import { nextSlackTs } from './ts-clock.js';
import type {
  Block,
  MessageFile,
  Reaction,
  SlackResult,
  StandinCall,
  StandinUser,
  StoredEphemeral,
  StoredFile,
  StoredMessage,
  StoredRefusal,
  StoredResponse,
  StoredView,
} from './types.js';

/** A person's message to put in the stand-in's history (so threads, replies and reactions resolve). */
export interface UserMessageInput {
  channel: string;
  user: string;
  text: string;
  /** Default: a fresh ts from the shared clock. */
  ts?: string;
  thread_ts?: string;
  blocks?: Block[];
  /** Default: the stand-in's team. */
  team?: string;
  /** The author's own workspace, as Slack adds it (with `source_team`) for a Slack Connect author. */
  user_team?: string;
  /** Files shared with the message (`shareFile`'s objects): a `file_share` message. */
  files?: MessageFile[];
}

/** Another bot's or integration's message (a monitoring alert, say) to put in the history. */
export interface BotMessageInput {
  channel: string;
  text?: string;
  attachments?: Array<Record<string, unknown>>;
  blocks?: Block[];
  /** Default 'B0MONITOR'. */
  bot_id?: string;
  /** The integration's name. Default 'Monitor'. */
  username?: string;
  ts?: string;
  thread_ts?: string;
  /**
   * Posted by an app's bot user through the Web API (chat.postMessage with a bot token): no
   * `bot_message` subtype, the bot user as `user`, `app_id` and `bot_profile.app_id`. Without
   * it, an integration's post (incoming webhook, legacy integration): subtype `bot_message`, no user.
   */
  app?: { user: string; app_id: string };
  /** The posting workspace; default the app's own. Another organisation's in a Slack Connect channel. */
  team?: string;
}

/** Options of {@link StandinView.waitFor}. */
export interface WaitForOptions {
  /** Default 5,000 ms. */
  timeoutMs?: number;
  /** Named in the timeout error. */
  description?: string;
}

/**
 * The stand-in seen the way a person (or a test) sees Slack: messages, threads, ephemerals, files,
 * reactions, statuses; plus the few seeding calls tests need. Returned values are copies.
 */
export class StandinView {
  constructor(protected readonly state: StandinState) {}

  /** A thread (parent first, then replies) when `threadTs` is given; otherwise the channel's own view. */
  messages(channel: string, threadTs?: string): StoredMessage[] {
    const list = threadTs ? this.state.thread(channel, threadTs) : this.state.channelView(channel);
    return structuredClone(list);
  }

  /** Every message in every channel, in ts order (deleted excluded). */
  allMessages(): StoredMessage[] {
    return structuredClone(this.state.allMessages());
  }

  /** Ephemeral messages, optionally only in `channel` and/or only for `user`. */
  ephemerals(channel?: string, user?: string): StoredEphemeral[] {
    const list = this.state.ephemerals.filter(
      (e) => (!channel || e.channel === channel) && (!user || e.user === user),
    );
    return structuredClone(list);
  }

  /** Completed file uploads, optionally only those shared in `channel`. */
  files(channel?: string): StoredFile[] {
    return [...this.state.files.values()]
      .filter((f) => f.completed && (!channel || f.channel === channel))
      .map((f) => ({ ...f, content: Buffer.from(f.content) }));
  }

  /** Reactions on a message (empty when none or no such message). */
  reactionsOn(channel: string, ts: string): Reaction[] {
    return structuredClone(this.state.findMessage(channel, ts)?.reactions ?? []);
  }

  /** Every Web API call answered so far (tokens left out), in order. */
  get calls(): readonly StandinCall[] {
    return this.state.calls;
  }

  /** How many times `method` was called (successful or not). */
  callCount(method: string): number {
    return this.state.calls.filter((c) => c.method === method).length;
  }

  /** Every assistant status set on a thread, oldest first (the last one is what shows). */
  statuses(channel: string, threadTs: string): string[] {
    return this.state.statuses
      .filter((s) => s.channel === channel && s.thread_ts === threadTs)
      .map((s) => s.status);
  }

  /** The status a person sees in the thread now (set, not cleared by a bot post, not expired), if any. */
  threadStatus(channel: string, threadTs: string): string | undefined {
    return liveStatusOf(this.state.liveStatuses, channel, threadTs);
  }

  /** Every setStatus call on a thread, with its loading messages, oldest first. */
  statusCalls(channel: string, threadTs: string): Array<{ status: string; loading_messages?: string[] }> {
    return structuredClone(
      this.state.statuses
        .filter((s) => s.channel === channel && s.thread_ts === threadTs)
        .map(({ status, loading_messages }) => ({
          status,
          ...(loading_messages ? { loading_messages } : {}),
        })),
    );
  }

  /**
   * From now on assistant.threads.setStatus answers `error` (as in a workspace where the method is
   * not available to the app, e.g. `not_allowed_token_type`); `false` undoes it.
   */
  refuseThreadStatus(error: string | false = 'not_allowed_token_type'): void {
    this.state.statusRefusal = error === false ? undefined : error;
  }

  /** Agent sessions (agents.sessions.*): calls, sessions, Stop shown, and a refusal switch. */
  get agentSessions(): AgentSessionBook {
    return this.state.agentSessions;
  }

  /** The title set on a thread with assistant.threads.setTitle. */
  threadTitle(channel: string, threadTs: string): string | undefined {
    return this.state.titles.get(`${channel}:${threadTs}`);
  }

  /** The bot's DM channel with `user` (the one conversations.open answers). */
  dmChannel(user: string): string {
    return this.state.dmChannelFor(user);
  }

  /** The Home tab `user` sees now (the last views.publish for them), if any. */
  homeOf(user: string): { blocks: Block[] } | undefined {
    const home = this.state.homes.get(user);
    return home ? (structuredClone(home.view) as { blocks: Block[] }) : undefined;
  }

  /** How many times the bot published `user`'s Home tab. */
  homePublishes(user: string): number {
    return this.state.homes.get(user)?.publishes ?? 0;
  }

  /** Modals opened with views.open, oldest first. */
  openedViews(): StoredView[] {
    return structuredClone(this.state.views);
  }

  /**
   * A trigger_id as Slack puts in an interaction payload: views.open accepts it once, within 3 s.
   */
  issueTriggerId(): string {
    const id = `${Date.now()}.${randomBytes(4).readUInt32BE()}.${randomBytes(16).toString('hex')}`;
    this.state.triggers.set(id, Date.now());
    return id;
  }

  /** The latest suggested prompts for a channel (and thread, if given). */
  suggestedPrompts(channel: string, threadTs?: string): unknown[] | undefined {
    return structuredClone(this.state.suggestedPrompts.get(`${channel}:${threadTs ?? ''}`));
  }

  /** What Slack refused outside the Web API (response_url bodies, command acks, view_submission answers). */
  refusals(): StoredRefusal[] {
    return structuredClone(this.state.refusals);
  }

  /** Records a refused answer (answer-rules.ts) and returns it. */
  refuse(surface: StoredRefusal['surface'], result: SlackResult, body: unknown): StoredRefusal {
    return recordRefusal(this.state, surface, result, body);
  }

  /** What was POSTed to response URL `id`, in order. */
  responses(id: string): StoredResponse[] {
    return structuredClone(this.state.responses.get(id) ?? []);
  }

  /** From now on the bot is not a member of `channel` (writes answer not_in_channel); `false` undoes it. */
  setNotInChannel(channel: string, notIn = true): void {
    if (notIn) this.state.notInChannel.add(channel);
    else this.state.notInChannel.delete(channel);
  }

  /** From now on `channel` does not exist (channel_not_found). */
  setChannelMissing(channel: string): void {
    this.state.missingChannels.add(channel);
  }

  /** Adds or replaces a user in the users.info table (unset flags default to false, team to the stand-in's). */
  addUser(user: Partial<StandinUser> & { id: string }): void {
    this.state.users.set(user.id, {
      team_id: this.state.identity.teamId,
      name: user.id.toLowerCase(),
      real_name: user.id,
      is_admin: false,
      is_owner: false,
      is_bot: false,
      ...user,
    });
  }

  /** Records a person's message (as Slack would have it) and returns it; send the matching event yourself. */
  recordUserMessage(input: UserMessageInput): StoredMessage {
    const message: StoredMessage = {
      type: 'message',
      channel: input.channel,
      ts: input.ts ?? nextSlackTs(),
      user: input.user,
      team: input.team ?? this.state.identity.teamId,
      ...(input.user_team ? { user_team: input.user_team, source_team: input.user_team } : {}),
      text: input.text,
      ...(input.thread_ts ? { thread_ts: input.thread_ts } : {}),
      ...(input.blocks ? { blocks: input.blocks } : {}),
      ...(input.files ? { subtype: 'file_share', files: input.files, upload: false } : {}),
    };
    return structuredClone(this.state.addMessage(message));
  }

  /**
   * Records another bot's message (subtype `bot_message`, `bot_id`, `username`, `bot_profile`, as
   * integrations post alerts) and returns it; send the matching event yourself, if any.
   */
  recordBotMessage(input: BotMessageInput): StoredMessage {
    const botId = input.bot_id ?? 'B0MONITOR';
    const name = input.username ?? 'Monitor';
    const message: StoredMessage = {
      type: 'message',
      ...(input.app ? {} : { subtype: 'bot_message' }),
      channel: input.channel,
      ts: input.ts ?? nextSlackTs(),
      user: input.app?.user ?? '',
      bot_id: botId,
      ...(input.app
        ? { app_id: input.app.app_id, bot_profile: { id: botId, name, app_id: input.app.app_id } }
        : { username: name, bot_profile: { id: botId, name } }),
      team: input.team ?? this.state.identity.teamId,
      text: input.text ?? '',
      ...(input.thread_ts ? { thread_ts: input.thread_ts } : {}),
      ...(input.blocks ? { blocks: input.blocks } : {}),
      ...(input.attachments ? { attachments: input.attachments } : {}),
    };
    return structuredClone(this.state.addMessage(message));
  }

  /** A person reacts to a message; throws with Slack's error name if Slack would refuse. */
  addUserReaction(channel: string, ts: string, name: string, user: string): void {
    const result = addReaction(this.state, channel, ts, name, user);
    if (!result.ok) throw new Error(`reaction refused: ${result.error}`);
  }

  /**
   * Resolves with the first truthy value `probe` returns, checked on every change and every 10 ms;
   * rejects after `timeoutMs` naming `description` and the last calls.
   */
  waitFor<T>(probe: () => T | undefined | null | false, options: WaitForOptions = {}): Promise<T> {
    const { timeoutMs = 5_000, description = 'condition' } = options;
    return new Promise((resolve, reject) => {
      const check = () => {
        let value: T | undefined | null | false;
        try {
          value = probe();
        } catch (error) {
          finish();
          reject(error);
          return;
        }
        if (value) {
          finish();
          resolve(value);
        }
      };
      const finish = () => {
        clearInterval(poll);
        clearTimeout(timer);
        this.state.changed.off('change', check);
      };
      const poll = setInterval(check, 10);
      const timer = setTimeout(() => {
        finish();
        const last = this.state.calls.slice(-5).map((c) => `${c.method}:${c.ok ? 'ok' : c.error}`);
        reject(
          new Error(
            `timed out after ${timeoutMs} ms waiting for ${description}; last calls: ${last.join(', ')}`,
          ),
        );
      }, timeoutMs);
      this.state.changed.on('change', check);
      check();
    });
  }
}
