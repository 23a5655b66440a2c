/** Everything a turn sends besides the person's words (DESIGN "Thread context", "Time range"). */
import type { Clock } from '../../runtime/clock.js';
import type { Logger } from '../../runtime/logger.js';
import type { InsideCheck } from '../access/who-is-inside.js';
import type { RunInput } from '../run-types.js';
import type { Tenant } from '../tenancy.js';
import type { Refusal } from '../thread-output-port.js';
import type { ThreadRecord } from '../turn/turn-records.js';
import type { ChannelAgents } from './channel-agents.js';
import type { BotUser, PeopleDirectory, ThreadMessage, ThreadReader } from './context-ports.js';
import type { FileReport, SharedFile } from './file-context.js';
import type { FileGathering } from './file-gathering.js';
import { mentionedUserIds, messageMarkup } from './message-content.js';
import { quotableMessages } from './thread-authors.js';
import { buildThreadContext } from './thread-context.js';
import { alertWindow, parseTimeRange } from './time-range.js';

/** The part of a turn request context depends on; `tenant`'s channel bindings decide the agent. */
export interface ContextRequest {
  /** The installation the message came in through (DESIGN "One installation, one tenant"). */
  tenant: Tenant;
  channel: string;
  /** The thread the answer goes to (the message's own ts for a new thread). */
  threadTs: string;
  sourceTs: string;
  userId: string;
  prompt: string;
  /** Files shared with the message: text files are read as context (DESIGN "Files are context"). */
  files?: SharedFile[] | undefined;
}

export type PreparedTurn =
  /** `unreadable`: the thread could not be read (the turn runs without its context). */
  | {
      kind: 'ready';
      agentId: string;
      connection?: string | undefined;
      context: Omit<RunInput, 'message'>;
      unreadable?: true | undefined;
      /** The files the turn saw: which were sent, which not and why (the answer's footer). */
      files?: FileReport | undefined;
    }
  | { kind: 'refused'; refusal: Refusal };

/** Most distinct people whose names one context looks up (users.info is cached, but bounded). */
const MAX_NAME_LOOKUPS = 50;

/** Slack ts order (numeric: string order breaks when the seconds part grows a digit). */
function compareTs(a: string, b: string): number {
  const [as = '0', af = '0'] = a.split('.');
  const [bs = '0', bf = '0'] = b.split('.');
  return Number(as) - Number(bs) || Number(af.padEnd(6, '0')) - Number(bf.padEnd(6, '0'));
}

interface TurnContextDeps {
  threads: ThreadReader;
  people: PeopleDirectory;
  inside: Pick<InsideCheck, 'check' | 'judgeWorkspace'>;
  channelAgents: Pick<ChannelAgents, 'agentFor'>;
  /** Files as context (file-gathering.ts); unset: files are not read. */
  files?: Pick<FileGathering, 'gather'> | undefined;
  /** The bot's own messages are never a follow-up's context (they are in the session already). */
  bot: BotUser;
  clock: Clock;
  logger: Logger;
  settings: {
    /** THREAD_CONTEXT_MAX_CHARS; 0 turns thread context off. */
    maxChars: number;
    /** ALERT_LOOKBACK_MINUTES. */
    alertLookbackMinutes: number;
  };
}

export function createTurnContext(deps: TurnContextDeps) {
  const { people, clock, logger, settings } = deps;
  const readThread = createThreadReading(deps);

  async function prepare(request: ContextRequest, thread: ThreadRecord | undefined): Promise<PreparedTurn> {
    const now = clock.now();
    const asker = await people.profile(request.userId).catch(() => undefined);
    const phrase = parseTimeRange(request.prompt, now, asker?.tz);
    if (phrase.kind === 'refused') return { kind: 'refused', refusal: `time-${phrase.reason}` };
    const agent = await agentOf(deps.channelAgents, request, thread);
    if (!agent) return { kind: 'refused', refusal: 'unbound-channel' };
    const read = await readThread(request, thread);
    const underOthersRoot =
      !thread?.sessionId && request.threadTs !== request.sourceTs && read.rootUser !== request.userId;
    const timerange =
      phrase.kind === 'range'
        ? phrase.range
        : underOthersRoot
          ? alertWindow(request.threadTs, now, settings.alertLookbackMinutes)
          : undefined;
    logger.info(
      {
        channel: request.channel,
        ts: request.sourceTs,
        contextMessages: read.included,
        contextOmitted: read.omitted,
        contextOutsiders: read.outsiders,
        contextUnchecked: read.unchecked,
        contextChars: read.text?.length ?? 0,
        timerange: timerange ? (phrase.kind === 'range' ? 'phrase' : 'alert-window') : 'none',
      },
      'turn context prepared',
    );
    // Files keep a budget of their own (FILE_CONTEXT_MAX_CHARS), after the thread's messages.
    const files = await deps.files?.gather(request, read.quoted);
    const additionalContext = [read.text, files?.text].filter(Boolean).join('\n\n') || undefined;
    return {
      kind: 'ready',
      ...agent,
      context: { additionalContext, timerange },
      ...(read.unreadable ? { unreadable: true as const } : {}),
      ...(files ? { files: files.report } : {}),
    };
  }

  return { prepare };
}

export type TurnContext = ReturnType<typeof createTurnContext>;

/** A thread keeps the agent and the service connection it started with; a new one takes the channel's. */
async function agentOf(
  channelAgents: Pick<ChannelAgents, 'agentFor'>,
  request: ContextRequest,
  thread: ThreadRecord | undefined,
): Promise<{ agentId: string; connection?: string } | undefined> {
  // A thread started on the default connection before its installation stopped being home.
  if (thread && thread.connection === undefined && !request.tenant.home) return undefined;
  const { agentId, connection } = thread ?? (await channelAgents.agentFor(request.tenant, request.channel));
  // Unbound (no agent): not a home installation, and no connection of its own bound here.
  if (agentId === undefined) return undefined;
  return { agentId, ...(connection !== undefined ? { connection } : {}) };
}

/** New session in a thread: everything before the message. Follow-up: what came since the last turn. */
function createThreadReading(deps: TurnContextDeps) {
  const { threads, inside, bot, logger, settings } = deps;
  const isOwn = (message: ThreadMessage) =>
    message.user === bot.botUserId || (bot.botId !== undefined && message.bot_id === bot.botId);

  return async function readThread(request: ContextRequest, thread: ThreadRecord | undefined) {
    const none = {
      text: undefined as string | undefined,
      included: 0,
      omitted: 0,
      outsiders: 0,
      unchecked: 0,
      rootUser: undefined as string | undefined,
      unreadable: false,
      /** The earlier messages that may be quoted (their files may be read too). */
      quoted: [] as ThreadMessage[],
    };
    const followUp = thread?.sessionId !== undefined;
    const since = followUp ? thread?.lastTurnTs : undefined;
    if (settings.maxChars <= 0) return none;
    if (followUp ? since === undefined : request.threadTs === request.sourceTs) return none;
    let messages: ThreadMessage[];
    let truncated: boolean;
    try {
      ({ messages, truncated } = await threads.read({
        channel: request.channel,
        threadTs: request.threadTs,
      }));
    } catch (error) {
      logger.warn(
        { channel: request.channel, ts: request.sourceTs, error: errorName(error) },
        'could not read the thread; the turn runs without its context',
      );
      return { ...none, unreadable: true };
    }
    const root = messages.find((message) => message.ts === request.threadTs);
    const candidates = messages.filter(
      (message) =>
        compareTs(message.ts, request.sourceTs) < 0 &&
        (since === undefined || (compareTs(message.ts, since) > 0 && !isOwn(message))),
    );
    const { shown, outsiders, unchecked } = await quotableMessages(candidates, inside);
    const built = buildThreadContext({
      messages: shown,
      names: await namesOf(deps.people, shown),
      outsiders,
      unchecked,
      maxChars: settings.maxChars,
      heading: followUp
        ? 'Posted in this Slack thread since the previous question'
        : 'Earlier messages in this Slack thread',
      unread: truncated ? Math.max(1, (root?.reply_count ?? 0) + 1 - messages.length) : 0,
    });
    const rootUser = root?.bot_id ? undefined : root?.user;
    return { ...none, ...built, outsiders, unchecked, rootUser, quoted: shown };
  };
}

/** Names of the people who wrote or are mentioned in the messages (deleted or unknown: left out). */
async function namesOf(people: PeopleDirectory, messages: ThreadMessage[]): Promise<Map<string, string>> {
  const ids = new Set<string>();
  for (const message of messages) {
    if (message.user && !message.bot_id) ids.add(message.user);
    for (const id of mentionedUserIds(messageMarkup(message))) ids.add(id);
  }
  const wanted = [...ids].slice(0, MAX_NAME_LOOKUPS);
  const profiles = await Promise.all(wanted.map((id) => people.profile(id).catch(() => undefined)));
  const names = new Map<string, string>();
  for (const [index, id] of wanted.entries()) {
    const name = profiles[index]?.name;
    if (name) names.set(id, name);
  }
  return names;
}

function errorName(error: unknown): string {
  const data = (error as { data?: { error?: unknown } }).data;
  if (typeof data?.error === 'string') return data.error;
  return (error as { code?: string }).code ?? (error as Error).message ?? 'unknown';
}
