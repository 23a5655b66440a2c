import { type StandinView, type StoredMessage, visibleText } from './slack-standin/index.js';

/** Metadata types the bot tags its thread messages with (see src/slack/thread-output.ts). */
const PROGRESS = 'agent_progress';
const OUTCOMES = new Set(['agent_answer', 'agent_notice']);

/** Something new a person would see in a watched thread (or as an ephemeral in the channel). */
export type SeenItem =
  | { kind: 'progress'; threadTs: string; text: string }
  /** The bot's native thread status (Slack's "is working on it…" line). */
  | { kind: 'status'; threadTs: string; text: string }
  /** `buttons`: the message ends with 👍 / 👎 feedback buttons. */
  | { kind: 'answer' | 'notice'; threadTs: string; ts: string; text: string; buttons?: boolean }
  | { kind: 'file'; threadTs: string; name: string; length: number }
  | { kind: 'ephemeral'; text: string };

/** Where the monitor looks and who is looking. */
export interface MonitorScope {
  channel: string;
  user: string;
  botUserId: string;
}

const stepOf = (text: string) => Number(/step (\d+)/.exec(text)?.[1] ?? 0);

const hasFeedbackButtons = (message: StoredMessage) =>
  (message.blocks ?? []).some(
    (block) =>
      block.type === 'context_actions' &&
      Array.isArray(block.elements) &&
      block.elements.some((element: { type?: string }) => element.type === 'feedback_buttons'),
  );

/**
 * Reads the stand-in the way a person reads Slack and reports each new thing once: the bot's
 * messages in the threads it watches, a progress message whenever its step count changes, files
 * uploaded there, and ephemerals for the person. `poll()` is synchronous and idempotent, so both a
 * timer and any waiting code may call it.
 */
export class ThreadMonitor {
  private readonly threads = new Set<string>();
  private readonly seenMessages = new Set<string>();
  private readonly seenFiles = new Set<string>();
  private readonly progressSteps = new Map<string, number>();
  private readonly statuses = new Map<string, string>();
  private seenEphemerals = 0;

  constructor(
    private readonly slack: StandinView,
    private readonly scope: MonitorScope,
    private readonly report: (item: SeenItem) => void,
  ) {
    this.seenEphemerals = slack.ephemerals(scope.channel, scope.user).length;
  }

  /** Starts watching a thread (by its parent's ts). */
  watch(threadTs: string): void {
    this.threads.add(threadTs);
  }

  /** Reports everything new since the last poll. */
  poll(): void {
    for (const threadTs of this.threads) this.pollThread(threadTs);
    const ephemerals = this.slack.ephemerals(this.scope.channel, this.scope.user);
    for (const ephemeral of ephemerals.slice(this.seenEphemerals)) {
      this.report({ kind: 'ephemeral', text: visibleText(ephemeral) });
    }
    this.seenEphemerals = ephemerals.length;
  }

  /** How many ephemerals the person has seen (to tell a refusal from silence). */
  ephemeralCount(): number {
    return this.seenEphemerals;
  }

  /** Turn ids that ended in this thread (an answer or a notice), once its progress message is gone. */
  endedTurns(threadTs: string): Set<string> | undefined {
    const messages = this.botMessages(threadTs);
    if (messages.some((m) => m.metadata?.event_type === PROGRESS)) return undefined;
    // A notice marked `final: false` ("still working past the deadline") does not end the turn.
    const ended = messages.filter(
      (m) => OUTCOMES.has(m.metadata?.event_type ?? '') && m.metadata?.event_payload.final !== false,
    );
    return new Set(ended.map((m) => String(m.metadata?.event_payload.turn_id ?? m.ts)));
  }

  /** The newest answer message in a thread that carries feedback buttons, if any. */
  lastRateableAnswer(threadTs: string): StoredMessage | undefined {
    return this.botMessages(threadTs)
      .filter((m) => m.metadata?.event_type === 'agent_answer' && hasFeedbackButtons(m))
      .at(-1);
  }

  /** The ts of the newest answer message in a thread, if any. */
  lastAnswerTs(threadTs: string): string | undefined {
    return this.botMessages(threadTs)
      .filter((m) => m.metadata?.event_type === 'agent_answer')
      .at(-1)?.ts;
  }

  private botMessages(threadTs: string): StoredMessage[] {
    return (
      this.slack
        .messages(this.scope.channel, threadTs)
        // Other bots' posts (a /alert) are the thread's root, not the bot's output.
        .filter(
          (m) => m.user === this.scope.botUserId || (m.bot_id !== undefined && m.subtype !== 'bot_message'),
        )
    );
  }

  private pollThread(threadTs: string): void {
    const status = this.slack.threadStatus(this.scope.channel, threadTs) ?? '';
    if (status !== (this.statuses.get(threadTs) ?? '')) {
      this.statuses.set(threadTs, status);
      if (status !== '') this.report({ kind: 'status', threadTs, text: status });
    }
    for (const message of this.botMessages(threadTs)) {
      const text = visibleText(message);
      if (message.metadata?.event_type === PROGRESS) {
        const steps = stepOf(text);
        if (this.progressSteps.get(message.ts) === steps) continue;
        this.progressSteps.set(message.ts, steps);
        this.report({ kind: 'progress', threadTs, text });
      } else if (!this.seenMessages.has(message.ts)) {
        this.seenMessages.add(message.ts);
        const kind = message.metadata?.event_type === 'agent_answer' ? 'answer' : 'notice';
        // A file share's own message has no text of its own; the file is reported below.
        if (text !== '')
          this.report({ kind, threadTs, ts: message.ts, text, buttons: hasFeedbackButtons(message) });
      }
    }
    for (const file of this.slack.files(this.scope.channel)) {
      if (file.thread_ts !== threadTs || this.seenFiles.has(file.id)) continue;
      this.seenFiles.add(file.id);
      this.report({ kind: 'file', threadTs, name: file.name, length: file.length });
    }
  }
}
