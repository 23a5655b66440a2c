import { appHomeOpenedEvent, eventCallback, postEvent } from '../slack-standin/index.js';
import { renderSuggestedPrompts } from './render-terminal.js';
import type { ChatOutput } from './sandbox-session.js';
import { SANDBOX_USER, type SandboxStack } from './sandbox-stack.js';

/**
 * The person opens the bot's agent view (its Messages tab): Slack sends `app_home_opened`, the
 * bot sets suggested prompts, and the sandbox prints them. Best effort, like the bot's side.
 */
export async function showSuggestedPrompts(stack: SandboxStack, out: ChatOutput): Promise<void> {
  const dm = stack.slack.dmChannel(SANDBOX_USER.id);
  const event = appHomeOpenedEvent({ user: SANDBOX_USER.id, channel: dm, tab: 'messages' });
  await postEvent(stack.appUrl, stack.signingSecret, eventCallback(event));
  const prompts = await stack.slack
    .waitFor(() => stack.slack.suggestedPrompts(dm), { timeoutMs: 3_000, description: 'suggested prompts' })
    .catch(() => undefined);
  if (prompts) out.line(renderSuggestedPrompts(prompts as Array<{ title: string; message: string }>));
}
