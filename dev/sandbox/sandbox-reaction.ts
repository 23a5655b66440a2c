import type { RunView, Simulator } from '../simulator/index.js';
import { eventCallback, postEvent, reactionAddedEvent } from '../slack-standin/index.js';
import { feedbackLine, SPEAKER, speak } from './render-terminal.js';
import type { ChatOutput, SandboxThread } from './sandbox-session.js';
import { SANDBOX_USER, type SandboxStack } from './sandbox-stack.js';
import type { ThreadMonitor } from './thread-monitor.js';

/** What a reaction needs from the session. */
export interface ReactionContext {
  stack: SandboxStack;
  monitor: ThreadMonitor;
  out: ChatOutput;
  /** The current thread, if the person has started one. */
  thread: SandboxThread | undefined;
  /** Every thread of the session, so a session is claimed by one thread only. */
  threads: readonly SandboxThread[];
}

/**
 * The agent session behind a thread: a run that started after the thread's first message, not
 * claimed by another thread, preferably the one whose first prompt holds that message's text.
 */
export function findSession(
  thread: SandboxThread,
  threads: readonly SandboxThread[],
  runs: readonly RunView[],
): string | undefined {
  if (thread.sessionId) return thread.sessionId;
  const claimed = new Set(threads.map((t) => t.sessionId));
  const fresh = runs.filter(
    (run) => !thread.sessionsBefore.has(run.sessionId) && !claimed.has(run.sessionId),
  );
  const match = fresh.find((run) => run.prompts[0]?.includes(thread.firstText)) ?? fresh[0];
  if (match) thread.sessionId = match.sessionId;
  return match?.sessionId;
}

export const feedbackPosts = (sim: Simulator) =>
  sim.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/feedback'));

/**
 * The person reacts to the last answer in the current thread: the stand-in records the reaction,
 * the bot gets a signed `reaction_added`, and once the bot has sent the feedback the simulator's
 * record is printed (the line tests check).
 */
export async function reactToAnswer(ctx: ReactionContext, name: string): Promise<void> {
  const { stack, out, thread } = ctx;
  const answerTs = thread && ctx.monitor.lastAnswerTs(thread);
  if (!thread || !answerTs) {
    out.line(speak(SPEAKER.sandbox, 'nothing to react to yet: there is no answer in this thread'));
    return;
  }
  // The thread's conversation: the DM when the bot answered there.
  const { channel } = thread;
  try {
    stack.slack.addUserReaction(channel, answerTs, name, SANDBOX_USER.id);
  } catch (error) {
    out.line(speak(SPEAKER.sandbox, `Slack did not add :${name}: (${(error as Error).message})`));
    return;
  }
  const sentBefore = feedbackPosts(stack.sim).length;
  const event = reactionAddedEvent({
    channel,
    ts: answerTs,
    reaction: name,
    user: SANDBOX_USER.id,
  });
  const acked = await postEvent(stack.appUrl, stack.signingSecret, eventCallback(event));
  if (acked.status !== 200) throw new Error(`the bot answered HTTP ${acked.status} to reaction_added`);
  out.line(speak(SPEAKER.sandbox, `you reacted :${name}: to the last answer`));
  const { positiveEmoji, negativeEmoji } = stack.config.feedback;
  if (![...positiveEmoji, ...negativeEmoji].includes(name)) {
    out.line(speak(SPEAKER.sandbox, `:${name}: is not a feedback emoji, so the bot leaves it alone`));
    return;
  }
  const sent = await stack.slack.waitFor(() => feedbackPosts(stack.sim)[sentBefore], {
    timeoutMs: 10_000,
    description: `the bot to send the :${name}: feedback to the agent service`,
  });
  await reportFeedback(ctx, thread, sent.status);
}

/** Prints the simulator's record for the thread's session once the bot sent feedback. */
export async function reportFeedback(
  ctx: ReactionContext,
  thread: SandboxThread,
  status: number,
): Promise<void> {
  const { stack, out } = ctx;
  if (status !== 200) {
    out.line(speak(SPEAKER.sandbox, `the agent service refused the feedback (HTTP ${status})`));
    return;
  }
  const sessionId = findSession(thread, ctx.threads, stack.sim.runs());
  const record = sessionId === undefined ? undefined : stack.sim.feedback(sessionId);
  if (!sessionId || !record) throw new Error('the simulator has no feedback for this thread’s session');
  out.line(speak(SPEAKER.sandbox, feedbackLine(record.score, sessionId)));
}
