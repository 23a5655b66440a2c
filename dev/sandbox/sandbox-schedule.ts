import type { StoredMessage } from '../slack-standin/index.js';
import { SPEAKER, speak } from './render-terminal.js';
import type { ChatOutput } from './sandbox-session.js';
import { turnTimeoutMs } from './sandbox-session.js';
import { runAgentCommand } from './sandbox-slash-command.js';
import { SANDBOX_CHANNEL, SANDBOX_ZONE, type SandboxStack } from './sandbox-stack.js';
import { minuteAhead } from './schedule-clock.js';
import type { ThreadMonitor } from './thread-monitor.js';
import { markTurn, waitForTurn } from './turn-wait.js';

/**
 * `/schedule [--now] <question>` in the sandbox (DESIGN "Scheduled questions"): the person (an
 * admin) runs the real `/agent schedule add daily <HH:MM> <question>` in #sandbox for the next
 * minute in their zone, and the bot's reply names the zone and the next run. `--now` then moves the
 * bot's schedule clock (only the ticker's: runs keep real time) to that minute, so the ticker asks
 * at once or at its next round (≤ 20 s) rather than at the real minute. The bot's post at the top
 * of #sandbox and its thread are shown by the session's monitor, which picks up the bot's new
 * roots by itself; this waits until that thread's answer is in, so the prompt comes after it.
 */

/** The bot's post of a scheduled question (src/slack/views/schedule-replies.ts). */
const SCHEDULED_POST = /^Scheduled question, added by /;

/** How long the ticker may take after the clock moved: one round, and room to post. */
const AFTER_JUMP_MS = 20_000 + 15_000;

export interface ScheduleContext {
  stack: SandboxStack;
  out: ChatOutput;
  monitor: ThreadMonitor;
}

const isScheduledPost = (stack: SandboxStack, message: StoredMessage) =>
  (message.user === stack.slack.botUserId || message.bot_id !== undefined) &&
  (message.thread_ts ?? message.ts) === message.ts &&
  SCHEDULED_POST.test(message.text ?? '');

export async function scheduleQuestion(ctx: ScheduleContext, question: string, now: boolean): Promise<void> {
  const { stack, out, monitor } = ctx;
  const { slack, scheduleClock } = stack;
  // A margin: a command that reached the bot after the minute began would schedule tomorrow's.
  const minute = minuteAhead(scheduleClock.now(), SANDBOX_ZONE);
  const command = `schedule add daily ${minute.hhmm} ${question}`;
  out.line(speak(SPEAKER.sandbox, `you type /agent ${command} in #sandbox`));
  const postsBefore = new Set(
    slack
      .messages(SANDBOX_CHANNEL.id)
      .filter((m) => isScheduledPost(stack, m))
      .map((m) => m.ts),
  );
  const replies = await runAgentCommand({ stack, out }, command);
  // Refused (the reply said why): nothing will be asked.
  if (!replies.some((reply) => reply.startsWith('Scheduled `'))) return;
  const at = `${minute.hhmm} ${SANDBOX_ZONE}`;
  if (now) {
    scheduleClock.jumpTo(minute.at);
    out.line(
      speak(
        SPEAKER.sandbox,
        `--now moved the bot's schedule clock to ${at} (only the ticker's: runs keep real time): the question comes at its next round (≤ 20 s)`,
      ),
    );
  } else {
    out.line(
      speak(SPEAKER.sandbox, `waiting for ${at} (under a minute and a half; /schedule --now skips the wait)`),
    );
  }
  const postedWithin = now ? AFTER_JUMP_MS : minute.at - scheduleClock.now() + AFTER_JUMP_MS;
  const posted = await slack.waitFor(
    () => {
      monitor.poll(); // shows the post, and watches its thread, as soon as it is there
      return slack
        .messages(SANDBOX_CHANNEL.id)
        .find((m) => isScheduledPost(stack, m) && !postsBefore.has(m.ts));
    },
    { timeoutMs: Math.max(postedWithin, AFTER_JUMP_MS), description: `the scheduled question at ${at}` },
  );
  const thread = { channel: SANDBOX_CHANNEL.id, ts: posted.ts };
  await waitForTurn(slack, monitor, thread, markTurn(monitor, undefined), {
    timeoutMs: turnTimeoutMs(question, stack.script),
    description: `the answer to the scheduled question "${question}"`,
  });
}
