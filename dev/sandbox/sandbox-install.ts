import { setTimeout as sleep } from 'node:timers/promises';
import { appHomeOpenedEvent, eventCallback, postEvent } from '../slack-standin/index.js';
import { SPEAKER, speak } from './render-terminal.js';
import type { ChatOutput } from './sandbox-session.js';
import { SANDBOX_USER, SANDBOX_WORKSPACE, type SandboxStack } from './sandbox-stack.js';

/** How long the sandbox waits for someone to click through the install pages. */
const INSTALL_WAIT_MS = 30 * 60_000;

/** What `--oauth` prints before the chat: where to install the app. */
export function installInstructions(installUrl: string): string {
  return [
    `${SPEAKER.sandbox} the bot runs as a distributed app (OAuth): install it first, as a workspace admin would.`,
    `${SPEAKER.sandbox} open ${installUrl} in a browser, click "Add to Slack", then "Allow in ${SANDBOX_WORKSPACE.teamName}".`,
    `${SPEAKER.sandbox} (the authorize page is the Slack stand-in's; the chat starts once the app is installed)`,
  ].join('\n');
}

/** Printed once the installation is in: the chat runs with the token the install gave the bot. */
export const INSTALLED_LINE = speak(
  SPEAKER.sandbox,
  `installed in ${SANDBOX_WORKSPACE.teamName} (${SANDBOX_WORKSPACE.teamId}): the bot now uses the token oauth.v2.access gave it. Ask away.`,
);

/**
 * Waits until the person installed the app through the pages: the stand-in issued a token for the
 * sandbox workspace and the bot's installer checked it (`auth.test`, just before it stores the
 * installation), then until the bot takes the workspace's events (an event it cannot authorize
 * yet is answered 401). `signal` ends the wait (Ctrl-C).
 */
export async function waitForInstall(stack: SandboxStack, signal: AbortSignal): Promise<void> {
  const { slack } = stack;
  const aborted = new Promise<never>((_, reject) =>
    signal.addEventListener('abort', () => reject(new Error('interrupted before the app was installed')), {
      once: true,
    }),
  );
  const checked = slack.waitFor(
    () =>
      slack.calls.some(
        (call) => call.method === 'auth.test' && call.ok && call.team === SANDBOX_WORKSPACE.teamId,
      ),
    { timeoutMs: INSTALL_WAIT_MS, description: 'the app to be installed' },
  );
  await Promise.race([checked, aborted]);
  const dm = slack.dmChannel(SANDBOX_USER.id);
  // Opening the agent view is harmless and needs the installation: the probe the person would make.
  const event = eventCallback(appHomeOpenedEvent({ user: SANDBOX_USER.id, channel: dm, tab: 'messages' }));
  for (let attempt = 0; ; attempt += 1) {
    const ack = await postEvent(stack.appUrl, stack.signingSecret, event);
    if (ack.status === 200) return;
    if (attempt >= 50)
      throw new Error(`the bot still refuses the installed workspace's events (HTTP ${ack.status})`);
    await sleep(100);
  }
}

/** The install step of `npm run sandbox -- --oauth`: instructions, the wait, the line after it. */
export async function installFirst(stack: SandboxStack, out: ChatOutput, signal: AbortSignal): Promise<void> {
  if (!stack.installUrl) return;
  out.line(installInstructions(stack.installUrl));
  await waitForInstall(stack, signal);
  out.line(INSTALLED_LINE);
}
