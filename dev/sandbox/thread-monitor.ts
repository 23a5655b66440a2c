import { type StandinView, type StoredMessage, visibleText } from '../slack-standin/index.js';

/** Metadata types the bot tags its thread messages with (see src/slack/thread-output.ts). */
const PROGRESS = 'agent_progress';
const OUTCOMES = new Set(['agent_answer', 'agent_notice']);

/** A thread: the conversation it is in and its parent's ts. */
export interface ThreadRef {
  channel: string;
  ts: string;
}

/** Something new a person would see in a watched thread (or as an ephemeral in a channel). */
export type SeenItem =
  | { kind: 'progress'; thread: ThreadRef; text: string }
  /** The bot's native thread status (Slack's "is working on it…" line). */
  | { kind: 'status'; thread: ThreadRef; text: string }
  /** `buttons`: the message ends with 👍 / 👎 feedback buttons. */
  | { kind: 'answer' | 'notice'; thread: ThreadRef; ts: string; text: string; buttons?: boolean }
  | { kind: 'file'; thread: ThreadRef; name: string; length: number }
  | { kind: 'ephemeral'; channel: string; text: string }
  /**
   * A new top-level message the bot posted on its own in the person's channel (a scheduled
   * question, an alert card): the monitor watches its thread from then on.
   */
  | { kind: 'root'; thread: ThreadRef; text: string }
  /**
   * The bot took the question `questionTs` asked in `from` to the person's DM (DESIGN "Who reads
   * the answer"): `to` is the thread its quote of the question roots there, where the turn continues.
   */
  | { kind: 'moved'; from: ThreadRef; questionTs: string; to: ThreadRef };

/** Who is looking, and the channel whose ephemerals (with the person's DM's) count from the start. */
export interface MonitorScope {
  channel: string;
  user: string;
  botUserId: string;
}

const stepOf = (text: string) => Number(/step (\d+)/.exec(text)?.[1] ?? 0);

const keyOf = (thread: ThreadRef) => `${thread.channel}/${thread.ts}`;

const hasFeedbackButtons = (message: StoredMessage) =>
  (message.blocks ?? []).some(
    (block) =>
      block.type === 'context_actions' &&
      Array.isArray(block.elements) &&
      block.elements.some((element: { type?: string }) => element.type === 'feedback_buttons'),
  );

/**
 * Whether a root message of the person's DM is the bot's quote of the question `questionTs` asked
 * in `channel`: the quote links to the question with its permalink (src/slack/views/private-answer.ts).
 */
const quotesQuestion = (message: StoredMessage, channel: string, questionTs: string) =>
  (message.text ?? visibleText(message)).includes(`/archives/${channel}/p${questionTs.replace('.', '')}`);

/**
 * Reads the stand-in the way a person reads Slack and reports each new thing once: the bot's
 * messages in the threads it watches (in any conversation), a progress message whenever its step
 * count changes, files uploaded there, ephemerals for the person in those conversations, and a
 * question the bot took to the person's DM (from then on the DM thread is watched too), and a new
 * top-level message the bot posts in the person's channel by itself (its thread is watched too). `poll()`
 * is synchronous and idempotent, so both a timer and any waiting code may call it.
 */
export class ThreadMonitor {
  private readonly threads = new Map<string, ThreadRef>();
  private readonly seenMessages = new Set<string>();
  private readonly seenFiles = new Set<string>();
  private readonly progressSteps = new Map<string, number>();
  private readonly statuses = new Map<string, string>();
  /** Ephemerals seen per conversation: Slack shows each where it was posted. */
  private readonly seenEphemerals = new Map<string, number>();
  /** The newest question asked in each watched non-DM thread, until the bot takes it to the DM. */
  private readonly questions = new Map<string, { thread: ThreadRef; questionTs: string }>();
  /** The bot's top-level messages in the person's channel already known (seen, or the person's own threads). */
  private readonly seenRoots = new Set<string>();
  /** While above 0, new roots wait: the person's own action posts one and watches it itself. */
  private rootsHeld = 0;

  constructor(
    private readonly slack: StandinView,
    private readonly scope: MonitorScope,
    private readonly report: (item: SeenItem) => void,
  ) {
    this.watchEphemerals(scope.channel);
    // From the start: what the bot says there only for the person may precede the move it follows.
    this.watchEphemerals(slack.dmChannel(scope.user));
    for (const root of this.botRoots()) this.seenRoots.add(root.ts);
  }

  /**
   * Holds back picking up new roots of the bot (an action of the person's own that makes the bot
   * post one, like /webhook, watches it itself); the returned function lets them through again.
   */
  holdRoots(): () => void {
    this.rootsHeld += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.rootsHeld -= 1;
    };
  }

  /** Starts watching a thread (by its conversation and its parent's ts). */
  watch(thread: ThreadRef): void {
    this.threads.set(keyOf(thread), { ...thread });
    this.watchEphemerals(thread.channel);
  }

  /**
   * The person asked `questionTs` in `thread`: if the bot answers them privately, its quote of
   * the question appears at the top of their DM, and the monitor follows the turn there.
   */
  followQuestion(thread: ThreadRef, questionTs: string): void {
    this.questions.set(keyOf(thread), { thread: { ...thread }, questionTs });
  }

  /** Reports everything new since the last poll. */
  poll(): void {
    this.followMoves();
    this.adoptRoots();
    for (const thread of this.threads.values()) this.pollThread(thread);
    for (const [channel, seen] of this.seenEphemerals) {
      const ephemerals = this.slack.ephemerals(channel, this.scope.user);
      for (const ephemeral of ephemerals.slice(seen)) {
        this.report({ kind: 'ephemeral', channel, text: visibleText(ephemeral) });
      }
      this.seenEphemerals.set(channel, ephemerals.length);
    }
  }

  /** How many ephemerals the person has seen, in every watched conversation (to tell a refusal from silence). */
  ephemeralCount(): number {
    let count = 0;
    for (const seen of this.seenEphemerals.values()) count += seen;
    return count;
  }

  /** Turn ids that ended in this thread (an answer or a notice), once its progress message is gone. */
  endedTurns(thread: ThreadRef): Set<string> | undefined {
    const messages = this.botMessages(thread);
    if (messages.some((m) => m.metadata?.event_type === PROGRESS)) return undefined;
    // A notice marked `final: false` ("still working past the deadline") does not end the turn.
    const ended = messages.filter(
      (m) => OUTCOMES.has(m.metadata?.event_type ?? '') && m.metadata?.event_payload.final !== false,
    );
    return new Set(ended.map((m) => String(m.metadata?.event_payload.turn_id ?? m.ts)));
  }

  /**
   * True when every answer in the thread has all its parts (their metadata counts them): a long
   * answer's later parts are still on their way until then.
   */
  answersComplete(thread: ThreadRef): boolean {
    const parts = new Map<string, { expected: number; seen: Set<number> }>();
    for (const message of this.botMessages(thread)) {
      const payload = message.metadata?.event_payload;
      if (message.metadata?.event_type !== 'agent_answer' || !payload) continue;
      const turn = String(payload.turn_id);
      const entry = parts.get(turn) ?? { expected: Number(payload.parts ?? 1), seen: new Set<number>() };
      entry.seen.add(Number(payload.part ?? 1));
      parts.set(turn, entry);
    }
    return [...parts.values()].every((entry) => entry.seen.size >= entry.expected);
  }

  /** The newest answer message in a thread that carries feedback buttons, if any. */
  lastRateableAnswer(thread: ThreadRef): StoredMessage | undefined {
    return this.botMessages(thread)
      .filter((m) => m.metadata?.event_type === 'agent_answer' && hasFeedbackButtons(m))
      .at(-1);
  }

  /** The ts of the newest answer message in a thread, if any. */
  lastAnswerTs(thread: ThreadRef): string | undefined {
    return this.botMessages(thread)
      .filter((m) => m.metadata?.event_type === 'agent_answer')
      .at(-1)?.ts;
  }

  private watchEphemerals(channel: string): void {
    if (this.seenEphemerals.has(channel)) return;
    this.seenEphemerals.set(channel, this.slack.ephemerals(channel, this.scope.user).length);
  }

  /** Finds the bot's quote of a pending question at the top of the person's DM. */
  private followMoves(): void {
    if (this.questions.size === 0) return;
    const dm = this.slack.dmChannel(this.scope.user);
    const quotes = this.slack.messages(dm).filter((m) => this.isTheBots(m) && (m.thread_ts ?? m.ts) === m.ts);
    for (const [key, { thread, questionTs }] of this.questions) {
      const quote = quotes.find((m) => quotesQuestion(m, thread.channel, questionTs));
      if (!quote) continue;
      this.questions.delete(key);
      const to = { channel: dm, ts: quote.ts };
      this.watch(to);
      this.report({ kind: 'moved', from: thread, questionTs, to });
    }
  }

  /** The bot's top-level messages in the person's channel. */
  private botRoots(): StoredMessage[] {
    return this.slack
      .messages(this.scope.channel)
      .filter((m) => this.isTheBots(m) && (m.thread_ts ?? m.ts) === m.ts);
  }

  /** Reports each new root the bot posted by itself, then watches its thread (the root is said once). */
  private adoptRoots(): void {
    if (this.rootsHeld > 0) return;
    for (const root of this.botRoots()) {
      if (this.seenRoots.has(root.ts)) continue;
      this.seenRoots.add(root.ts);
      const thread = { channel: this.scope.channel, ts: root.ts };
      if (this.threads.has(keyOf(thread))) continue;
      this.seenMessages.add(`${thread.channel}/${root.ts}`);
      this.report({ kind: 'root', thread, text: visibleText(root) });
      this.watch(thread);
    }
  }

  /** Other bots' posts (a /alert) are a thread's root, not the bot's output. */
  private isTheBots(message: StoredMessage): boolean {
    return (
      message.user === this.scope.botUserId ||
      (message.bot_id !== undefined && message.subtype !== 'bot_message')
    );
  }

  private botMessages(thread: ThreadRef): StoredMessage[] {
    return this.slack.messages(thread.channel, thread.ts).filter((m) => this.isTheBots(m));
  }

  private pollThread(thread: ThreadRef): void {
    const key = keyOf(thread);
    const status = this.slack.threadStatus(thread.channel, thread.ts) ?? '';
    if (status !== (this.statuses.get(key) ?? '')) {
      this.statuses.set(key, status);
      if (status !== '') this.report({ kind: 'status', thread, text: status });
    }
    for (const message of this.botMessages(thread)) {
      const text = visibleText(message);
      const messageKey = `${thread.channel}/${message.ts}`;
      if (message.metadata?.event_type === PROGRESS) {
        const steps = stepOf(text);
        if (this.progressSteps.get(messageKey) === steps) continue;
        this.progressSteps.set(messageKey, steps);
        this.report({ kind: 'progress', thread, text });
      } else if (!this.seenMessages.has(messageKey)) {
        this.seenMessages.add(messageKey);
        const kind = message.metadata?.event_type === 'agent_answer' ? 'answer' : 'notice';
        // A file share's own message has no text of its own; the file is reported below.
        if (text !== '')
          this.report({ kind, thread, ts: message.ts, text, buttons: hasFeedbackButtons(message) });
      }
    }
    for (const file of this.slack.files(thread.channel)) {
      if (file.thread_ts !== thread.ts || this.seenFiles.has(file.id)) continue;
      this.seenFiles.add(file.id);
      this.report({ kind: 'file', thread, name: file.name, length: file.length });
    }
  }
}
