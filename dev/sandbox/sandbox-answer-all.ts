import { SANDBOX_CHANNEL } from './sandbox-stack.js';

/**
 * `/agent channel answer-all on|off` in the sandbox (DESIGN "Answer channels"). The sandbox makes a
 * new thread's first line a mention, so that the bot answers it; in an answer channel people post
 * without one, so the sandbox follows the switch: while it is on, a new thread's first line is a
 * plain top-level message, which only the answer-all switch makes the bot answer.
 */

/**
 * The switch an `/agent …` command sets (`channel answer-all on` → true), or undefined for any
 * other command. The sandbox person is an admin, so the bot takes it.
 */
export function answerAllSwitch(commandText: string): boolean | undefined {
  const switched = /^channel\s+answer-all\s+(on|off)$/i.exec(commandText.trim())?.[1];
  return switched === undefined ? undefined : switched.toLowerCase() === 'on';
}

/** What the sandbox does with the next line, once the switch is set. */
export function answerAllLine(on: boolean): string {
  const channel = `#${SANDBOX_CHANNEL.name}`;
  return on
    ? `${channel} is an answer channel now: your next line is a new top-level message without a mention, as people post there, and the bot answers it in its thread (later lines reply there; /new posts another)`
    : `${channel} answers mentions only again: your next line starts a new thread that mentions the bot`;
}

/** What `/new` says: whether the next line mentions the bot. */
export function newThreadLine(answerAll: boolean): string {
  return answerAll
    ? `new thread: your next message is posted in #${SANDBOX_CHANNEL.name} without a mention (answer-all is on)`
    : 'new thread: your next message mentions the bot';
}
