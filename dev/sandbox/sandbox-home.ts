import { DEFAULT_BOT_USER_ID, eventCallback, homeTabOpenedEvent, postEvent } from '../slack-standin/index.js';
import { renderHomeText } from './render-home.js';
import { SPEAKER, speak } from './render-terminal.js';
import type { ChatOutput } from './sandbox-session.js';
import { SANDBOX_CHANNEL, SANDBOX_USER, type SandboxStack } from './sandbox-stack.js';

/**
 * `/home`: the person opens the bot's Home tab. Slack sends `app_home_opened` (tab `home`), the bot
 * publishes the person's home (`views.publish`), and the sandbox prints it as text.
 */
export async function showHome(stack: SandboxStack, out: ChatOutput): Promise<void> {
  const { slack } = stack;
  const before = slack.homePublishes(SANDBOX_USER.id);
  const current = slack.homeOf(SANDBOX_USER.id);
  const event = homeTabOpenedEvent({
    user: SANDBOX_USER.id,
    channel: slack.dmChannel(SANDBOX_USER.id),
    view: current ? { blocks: current.blocks } : undefined,
  });
  await postEvent(stack.appUrl, stack.signingSecret, eventCallback(event as never));
  const home = await slack
    .waitFor(() => slack.homePublishes(SANDBOX_USER.id) > before && slack.homeOf(SANDBOX_USER.id), {
      timeoutMs: 5_000,
      description: 'the home published',
    })
    .catch(() => undefined);
  if (!home) {
    out.line(speak(SPEAKER.sandbox, 'the bot published no home (see the bot log)'));
    return;
  }
  out.line(
    renderHomeText(home.blocks, {
      [SANDBOX_CHANNEL.id]: SANDBOX_CHANNEL.name,
      [DEFAULT_BOT_USER_ID]: 'agent',
    }),
  );
}
