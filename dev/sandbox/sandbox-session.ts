import { parseDirective, type SimScript } from '../simulator/index.js';
import { agentSessionStoppedEvent, alertMessage, type MessageFile } from '../slack-standin/index.js';
import { createPersonDriver } from '../slack-standin/person.js';
import { renderSeen, SPEAKER, speak, withoutRepeatedWindow } from './render-terminal.js';
import { answerAllLine, answerAllSwitch, newThreadLine } from './sandbox-answer-all.js';
import { shareLocalFile } from './sandbox-file.js';
import { showHome } from './sandbox-home.js';
import { postAsPerson } from './sandbox-post.js';
import { rateAnswer } from './sandbox-rate.js';
import { reactToAnswer } from './sandbox-reaction.js';
import { scheduleQuestion } from './sandbox-schedule.js';
import { moveThread, sandboxView, setSandboxSharing, sharingLines } from './sandbox-sharing.js';
import { runAgentCommand } from './sandbox-slash-command.js';
import { SANDBOX_CHANNEL, SANDBOX_USER, type SandboxStack } from './sandbox-stack.js';
import { fireSampleAlert, type WebhookAnswer } from './sandbox-webhook.js';
import { type SeenItem, ThreadMonitor, type ThreadRef } from './thread-monitor.js';
import { markTurn, waitForTurn } from './turn-wait.js';

/** Where the chat writes: one call per block of lines. */
export interface ChatOutput {
  line(text: string): void;
}

/**
 * A thread the person started, and what is needed to find its agent session later. When the bot
 * takes the turn to the person's DM, `channel` and `ts` become the DM thread's: the turn continues
 * there.
 */
export interface SandboxThread extends ThreadRef {
  /** The first message's text: its run's first prompt contains it. */
  firstText: string;
  /** Sessions the simulator had before this thread's first turn. */
  sessionsBefore: Set<string>;
  sessionId?: string;
  /** Another bot's root (a /alert): the next message mentions the bot in it. */
  awaitingMention?: boolean;
}

/** The chat's actions; each resolves once its outcome is shown (a timeout rejects). */
export interface SandboxSession {
  say(text: string): Promise<void>;
  react(name: string): Promise<void>;
  command(text: string): Promise<void>;
  /** Clicks 👍 / 👎 under the last answer, and submits a comment through the form. */
  rate(positive: boolean, comment?: string): Promise<void>;
  newThread(): void;
  /** A monitoring integration posts an alert as a new thread root; the next message asks about it. */
  alert(text: string): void;
  /** The alert webhook fires: the bot posts a card and investigates in its thread on its own. */
  webhook(text: string): Promise<void>;
  /** Shares the channel with another organisation (Slack Connect), or stops sharing it. */
  toggleShared(): Promise<void>;
  /** Opens the bot's Home tab and prints what the bot published there. */
  home(): Promise<void>;
  /** Presses Stop on the current thread's agent session (Slack sends agent_session_stopped). */
  stop(): Promise<void>;
  /**
   * `/schedule [--now] <question>`: a daily scheduled question for the next minute; resolves once
   * the bot has posted it and answered in its thread (`now`: the schedule clock jumps there).
   */
  schedule(question: string, now: boolean): Promise<void>;
  /** Shares a local file (`path`, from the working directory) with a question, as `say` asks it. */
  shareFile(path: string, question?: string): Promise<void>;
  close(): void;
}

const sameThread = (a: ThreadRef, b: ThreadRef) => a.channel === b.channel && a.ts === b.ts;

/** `thread "why are errors up?"`: how a line from a thread other than the person's says which. */
export function threadLabel(thread: SandboxThread): string {
  if (thread.firstText === '') return 'the alert thread';
  const words = thread.firstText.replace(/\s*\[sim [^\]]*\]/g, '').trim();
  return `thread "${words.length > 40 ? `${words.slice(0, 39)}…` : words}"`;
}

/** What `/stop` says when the thread's agent is not working. */
export const NOTHING_TO_STOP =
  'nothing to stop: the agent is not working in this thread (Slack shows Stop only while it works)';

/** Slack's limit for acking an event is 3 s, and a bot answers quickly: anything else is a bug. */
function checkAck(result: { status: number; body: string }, what: string): void {
  if (result.status !== 200)
    throw new Error(`the bot answered HTTP ${result.status} to ${what}: ${result.body}`);
}

/** How long a turn may take: its script's steps, plus room for polling and posting. */
export function turnTimeoutMs(text: string, script: SimScript): number {
  const parsed = parseDirective(text);
  const directive = parsed?.ok ? parsed.directive : {};
  const steps = directive.steps ?? script.steps;
  const stepMs = directive.stepMs ?? script.stepMs;
  return (steps + 1) * stepMs + 20_000;
}

/**
 * The person's side of Slack, driven from the terminal: messages become events the bot receives
 * (signed, as Slack sends them), and a {@link ThreadMonitor} prints what appears in the threads.
 */
export function createSandboxSession(
  stack: SandboxStack,
  out: ChatOutput,
  options: { workingDir?: string } = {},
): SandboxSession {
  const { slack, sim } = stack;
  const workingDir = options.workingDir ?? process.cwd();
  const scope = { channel: SANDBOX_CHANNEL.id, user: SANDBOX_USER.id, botUserId: slack.botUserId };
  const dm = slack.dmChannel(SANDBOX_USER.id);
  let shared = false;
  const view = sandboxView(dm, () => shared);
  let current: SandboxThread | undefined;
  /** #sandbox is an answer channel (`/agent channel answer-all on`): new threads start unmentioned. */
  let answerAll = false;
  const threads: SandboxThread[] = [];
  /** Per thread, the window its latest receipt said it looked at (the footer need not say it again). */
  const windows = new Map<string, string>();
  /** A thread the person is not in, named by its first words; theirs goes unsaid. */
  const threadOf = (ref: ThreadRef) => {
    if (current && sameThread(current, ref)) return undefined;
    const thread = threads.find((candidate) => sameThread(candidate, ref));
    return thread ? threadLabel(thread) : undefined;
  };
  const monitor = new ThreadMonitor(slack, scope, (item: SeenItem) => {
    if (item.kind === 'moved') follow(item);
    if (item.kind === 'root') adopt(item);
    if (item.kind === 'answer') {
      const key = `${item.thread.channel}/${item.thread.ts}`;
      const { text, said } = withoutRepeatedWindow(item.text, windows.get(key));
      if (said) windows.set(key, said);
      item = { ...item, text };
    }
    out.line(renderSeen(item, { ...view, threadOf }));
  });
  const timer = setInterval(() => monitor.poll(), 100);

  const person = createPersonDriver(stack.slack, stack, {
    user: scope.user,
    channel: scope.channel,
    // In a Slack Connect channel Slack marks every event's envelope.
    envelope: (event) => ({ isExtSharedChannel: shared && event.channel === scope.channel }),
  });
  const send = (event: Record<string, unknown>, what: string) =>
    person.send(event).then((result) => checkAck(result, what));

  /** The bot took a thread's turn to the DM: the thread is the DM thread from now on. */
  function follow(moved: Extract<SeenItem, { kind: 'moved' }>): void {
    const thread = threads.find((t) => t.channel === moved.from.channel && t.ts === moved.from.ts);
    const question = slack.messages(moved.from.channel, moved.from.ts).find((m) => m.ts === moved.questionTs);
    if (thread) moveThread(thread, moved.to, question?.text);
  }

  /** A thread the bot started by itself (a scheduled question): its lines are labelled with its words. */
  function adopt(root: Extract<SeenItem, { kind: 'root' }>): void {
    if (threads.some((thread) => sameThread(thread, root.thread))) return;
    const firstText = root.text.replace(/^Scheduled question, added by [^:]*: /, '');
    const sessionsBefore = new Set(sim.runs().map((run) => run.sessionId));
    threads.push({ ...root.thread, firstText, sessionsBefore });
  }

  /** What `/webhook` fired: the endpoint's answer, and its card's thread, which becomes the person's. */
  function showCard(
    answer: WebhookAnswer,
    text: string,
    sessionsBefore: Set<string>,
  ): SandboxThread | undefined {
    const said = `POST /alerts → ${answer.status} ${answer.outcome ?? answer.error ?? ''}`;
    out.line(speak(SPEAKER.sandbox, `the alert webhook fired: ${said}`));
    if (!answer.ts || answer.channel !== scope.channel) return undefined;
    const card = slack.messages(scope.channel, answer.ts)[0];
    const explore = /"url":"([^"]*view-in-explore[^"]*)"/.exec(JSON.stringify(card?.blocks ?? []))?.[1];
    if (explore) out.line(speak(SPEAKER.sandbox, `the card's View in Explore button opens ${explore}`));
    const thread: SandboxThread = { channel: scope.channel, ts: answer.ts, firstText: text, sessionsBefore };
    threads.push(thread);
    current = thread; // your next message is a follow-up in the investigation's thread
    monitor.watch(thread);
    return thread;
  }

  async function startThread(
    text: string,
    files: MessageFile[],
    under?: SandboxThread,
  ): Promise<SandboxThread> {
    const sessionsBefore = new Set(sim.runs().map((run) => run.sessionId));
    if (under) threads.splice(threads.indexOf(under), 1);
    let thread: SandboxThread | undefined;
    // Under an alert the question mentions the bot; in an answer channel a new post needs none.
    const style = { mention: under !== undefined || !answerAll, files };
    const acks = await postAsPerson(person, text, { threadTs: under?.ts }, style, (ts) => {
      thread = { channel: scope.channel, ts: under?.ts ?? ts, firstText: text, sessionsBefore };
      threads.push(thread);
      current = thread; // before any await: a line typed meanwhile is a reply in this thread
      monitor.watch(thread);
      monitor.followQuestion(thread, ts);
    });
    for (const { ack, what } of acks) checkAck(ack, what);
    return thread as SandboxThread;
  }

  async function reply(thread: SandboxThread, text: string, files: MessageFile[]): Promise<void> {
    const where = { channel: thread.channel, threadTs: thread.ts };
    const acks = await postAsPerson(person, text, where, { mention: false, files }, (ts) => {
      if (thread.channel !== dm) monitor.followQuestion(thread, ts);
    });
    for (const { ack } of acks) checkAck(ack, 'a reply');
  }

  async function say(text: string, files: MessageFile[] = []): Promise<void> {
    const mark = markTurn(monitor, current);
    const existing = current?.awaitingMention ? undefined : current;
    if (existing) await reply(existing, text, files);
    const thread = existing ?? (await startThread(text, files, current));
    await waitForTurn(slack, monitor, thread, mark, {
      timeoutMs: turnTimeoutMs(text, stack.script),
      description: `the answer to "${text}"`,
    });
  }

  return {
    say,
    react: (name) => reactToAnswer({ stack, monitor, out, thread: current, threads }, name),
    async command(text) {
      await runAgentCommand({ stack, out }, text);
      const switched = answerAllSwitch(text);
      if (switched === undefined) return;
      answerAll = switched;
      current = undefined; // the next line is a new top-level post, to show what the switch does
      out.line(speak(SPEAKER.sandbox, answerAllLine(switched)));
    },
    rate: (positive, comment) =>
      rateAnswer({ stack, monitor, out, thread: current, threads }, positive, comment),
    newThread() {
      current = undefined;
      out.line(speak(SPEAKER.sandbox, newThreadLine(answerAll)));
    },
    alert(text) {
      const root = slack.recordBotMessage(alertMessage(scope.channel, text));
      const thread: SandboxThread = {
        channel: scope.channel,
        ts: root.ts,
        firstText: '',
        sessionsBefore: new Set(),
        awaitingMention: true,
      };
      threads.push(thread);
      current = thread;
      out.line(
        speak(
          SPEAKER.sandbox,
          `Grafana posted an alert in #sandbox: [FIRING:1] ${text} — your next message asks the bot about it in its thread`,
        ),
      );
    },
    async webhook(text) {
      const mark = markTurn(monitor, undefined);
      // The card is this command's own root: the monitor leaves it to the lines below.
      const release = monitor.holdRoots();
      let thread: SandboxThread | undefined;
      let investigating = false;
      try {
        const sessionsBefore = new Set(sim.runs().map((run) => run.sessionId));
        const answer = await fireSampleAlert(stack, text);
        investigating = answer.outcome === 'investigating';
        thread = showCard(answer, text, sessionsBefore);
      } finally {
        release();
      }
      if (!thread || !investigating) return;
      await waitForTurn(slack, monitor, thread, mark, {
        timeoutMs: turnTimeoutMs(text, stack.script),
        description: `the investigation of "${text}"`,
      });
    },
    async toggleShared() {
      shared = !shared;
      await setSandboxSharing(slack, shared, send);
      const policy = stack.config.audience.outsiderPolicy;
      out.line(speak(SPEAKER.sandbox, sharingLines(shared, policy, current?.channel === dm)));
    },
    home: () => showHome(stack, out),
    async stop() {
      if (!current || current.awaitingMention) {
        out.line(speak(SPEAKER.sandbox, 'no thread to stop: ask something first'));
        return;
      }
      const thread = current;
      // Slack shows Stop only while the thread's agent session is `processing`: with the answer
      // in, there is no button to press.
      if (!slack.agentSessions.showsStop(thread.channel, thread.ts)) {
        out.line(speak(SPEAKER.sandbox, NOTHING_TO_STOP));
        return;
      }
      const mark = markTurn(monitor, thread);
      out.line(speak(SPEAKER.sandbox, 'you pressed Stop on the thread: the bot stops following the run'));
      await send(
        agentSessionStoppedEvent({ channel: thread.channel, thread_ts: thread.ts, user: scope.user }),
        'agent_session_stopped',
      );
      // The bot's note says what it did; it is printed before the next prompt.
      await waitForTurn(slack, monitor, thread, mark, {
        timeoutMs: 20_000,
        description: 'the note after Stop',
      });
    },
    schedule: (question, now) => scheduleQuestion({ stack, out, monitor }, question, now),
    shareFile: (path, question) =>
      shareLocalFile({ slack, out, user: scope.user, workingDir, ask: say }, path, question),
    close: () => clearInterval(timer),
  };
}
