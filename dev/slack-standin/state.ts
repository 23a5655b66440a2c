import { EventEmitter } from 'node:events';
import { AgentSessionBook } from './agent-session-book.js';
import { SharedFileBook } from './shared-files.js';
import { compareTs } from './ts-clock.js';
import type {
  StandinCall,
  StandinConversation,
  StandinUser,
  StoredEphemeral,
  StoredFile,
  StoredHome,
  StoredMessage,
  StoredRefusal,
  StoredResponse,
  StoredStatus,
  StoredView,
} from './types.js';

/** Identity of the workspace and the bot the stand-in plays. */
export interface StandinIdentity {
  teamId: string;
  botUserId: string;
  botId: string;
  appId: string;
  /** The Enterprise Grid org of the workspace (auth.test `enterprise_id`); undefined outside Grid. */
  enterpriseId?: string | undefined;
}

/**
 * Everything the stand-in remembers. Method handlers mutate it; the inspection API reads it.
 * `changed` fires after every mutation so waiters can re-check at once.
 */
export class StandinState {
  readonly changed = new EventEmitter();
  /** channel → messages in ts order (top-level and replies together). */
  readonly channels = new Map<string, StoredMessage[]>();
  readonly ephemerals: StoredEphemeral[] = [];
  readonly files = new Map<string, StoredFile>();
  /** Files people shared (file_share messages) and their downloads at url_private_download. */
  readonly sharedFiles = new SharedFileBook();
  readonly users = new Map<string, StandinUser>();
  readonly notInChannel = new Set<string>();
  readonly missingChannels = new Set<string>();
  readonly dmChannels = new Map<string, string>();
  /** Conversations declared by a test or the sandbox (sharing flags, members); others get a default. */
  readonly conversations = new Map<string, StandinConversation>();
  readonly statuses: StoredStatus[] = [];
  readonly suggestedPrompts = new Map<string, unknown[]>();
  /** `channel:thread_ts` → the status showing now (set, not yet cleared by a bot post or expiry). */
  readonly liveStatuses = new Map<string, StoredStatus>();
  /** `channel:thread_ts` → the title set with assistant.threads.setTitle. */
  readonly titles = new Map<string, string>();
  /** agents.sessions.*: the calls, the sessions, and a refusal a test can switch on. */
  readonly agentSessions = new AgentSessionBook();
  /** When set, assistant.threads.setStatus answers this error (a workspace without the feature). */
  statusRefusal: string | undefined;
  /** trigger_id → when it was issued; views.open consumes it (single use, 3 s). */
  readonly triggers = new Map<string, number>();
  /** Modals opened with views.open, in order. */
  readonly views: StoredView[] = [];
  /** user id → their Home tab, as views.publish left it. */
  readonly homes = new Map<string, StoredHome>();
  readonly responses = new Map<string, StoredResponse[]>();
  /** What Slack refused outside the Web API: response_url bodies, command acks, view_submission answers. */
  readonly refusals: StoredRefusal[] = [];
  readonly calls: StandinCall[] = [];

  constructor(readonly identity: StandinIdentity) {
    this.changed.setMaxListeners(0);
  }

  /** Tells waiters that something changed. */
  touch(): void {
    this.changed.emit('change');
  }

  /** Stores a message, keeping the channel in ts order. A bot post in a thread clears its status. */
  addMessage(message: StoredMessage): StoredMessage {
    if (message.thread_ts && message.user === this.identity.botUserId) {
      this.liveStatuses.delete(`${message.channel}:${message.thread_ts}`);
    }
    const list = this.channels.get(message.channel) ?? [];
    list.push(message);
    list.sort((a, b) => compareTs(a.ts, b.ts));
    this.channels.set(message.channel, list);
    this.touch();
    return message;
  }

  /** A message by channel and ts, deleted ones excluded. */
  findMessage(channel: string, ts: string): StoredMessage | undefined {
    return this.channels.get(channel)?.find((m) => m.ts === ts && !m.deleted);
  }

  /** The thread rooted at `threadTs`: the parent (if known) first, then replies in order; no deleted ones. */
  thread(channel: string, threadTs: string): StoredMessage[] {
    const list = this.channels.get(channel) ?? [];
    return list.filter((m) => !m.deleted && (m.ts === threadTs || m.thread_ts === threadTs));
  }

  /** What a person sees in the channel itself: top-level messages and broadcast replies. */
  channelView(channel: string): StoredMessage[] {
    const list = this.channels.get(channel) ?? [];
    return list.filter((m) => !m.deleted && (!m.thread_ts || m.thread_ts === m.ts || m.reply_broadcast));
  }

  /** Every message in every channel (deleted excluded), in ts order. */
  allMessages(): StoredMessage[] {
    return [...this.channels.values()]
      .flat()
      .filter((m) => !m.deleted)
      .sort((a, b) => compareTs(a.ts, b.ts));
  }

  /** A conversation as declared, or the default its id implies (see StandinConversation). */
  conversation(id: string): Required<Pick<StandinConversation, 'members'>> & StandinConversation {
    const declared = this.conversations.get(id);
    if (declared?.members) return { ...declared, members: declared.members };
    const dmUser = [...this.dmChannels].find(([, channel]) => channel === id)?.[0];
    const members = dmUser
      ? [dmUser, this.identity.botUserId]
      : [
          ...[...this.users.values()]
            .filter(
              (user) =>
                user.team_id === this.identity.teamId &&
                !user.is_restricted &&
                !user.is_ultra_restricted &&
                !user.is_stranger &&
                !user.deleted &&
                user.id !== this.identity.botUserId,
            )
            .map((user) => user.id),
          this.identity.botUserId,
        ];
    return { ...declared, id, members };
  }

  /** The DM channel id for a user, created on first use (`D` + a stable suffix). */
  dmChannelFor(user: string): string {
    let id = this.dmChannels.get(user);
    if (!id) {
      id = `D${String(this.dmChannels.size + 1).padStart(8, '0')}`;
      this.dmChannels.set(user, id);
    }
    return id;
  }

  /** Records one answered call. */
  logCall(call: StandinCall): void {
    this.calls.push(call);
    this.touch();
  }
}
