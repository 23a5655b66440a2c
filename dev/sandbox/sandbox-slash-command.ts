import { postSlashCommand, visibleText } from '../slack-standin/index.js';
import { fileLine, readableSlack, SPEAKER, speak } from './render-terminal.js';
import { fillConnectionForm } from './sandbox-connection-form.js';
import type { ChatOutput } from './sandbox-session.js';
import { SANDBOX_CHANNEL, SANDBOX_NAMES, SANDBOX_USER, type SandboxStack } from './sandbox-stack.js';

/** How long a command may take before the sandbox gives up (exports fetch a lot). */
const COMMAND_TIMEOUT_MS = 30_000;

/** What the command's HTTP ack said, if it said anything (`{"text": …}` for slow commands). */
export function ackText(body: string): string | undefined {
  if (body.trim() === '') return undefined;
  try {
    const parsed = JSON.parse(body) as { text?: unknown };
    return typeof parsed.text === 'string' && parsed.text !== '' ? parsed.text : undefined;
  } catch {
    return body;
  }
}

/**
 * `/agent <text>` as the person (an admin): a signed slash command whose response_url is the
 * stand-in's, then every reply posted there and any file the bot sent to the person's DM. Returns
 * the replies' text, as the person reads them.
 */
export async function runAgentCommand(
  ctx: { stack: SandboxStack; out: ChatOutput },
  text: string,
): Promise<string[]> {
  const { stack, out } = ctx;
  const responseUrl = stack.slack.responseUrl();
  const responseId = decodeURIComponent(responseUrl.split('/').pop() ?? '');
  const filesBefore = new Set(stack.slack.files().map((file) => file.id));
  const viewsBefore = stack.slack.openedViews().length;
  const posted = await postSlashCommand(stack.appUrl, stack.signingSecret, {
    command: '/agent',
    text,
    user_id: SANDBOX_USER.id,
    user_name: SANDBOX_USER.name,
    channel_id: SANDBOX_CHANNEL.id,
    channel_name: SANDBOX_CHANNEL.name,
    team_id: stack.slack.teamId,
    response_url: responseUrl,
    // Issued by the stand-in, as Slack's: a command that opens a form (views.open) needs it.
    trigger_id: stack.slack.issueTriggerId(),
  });
  if (posted.status !== 200) throw new Error(`the bot answered HTTP ${posted.status} to /agent ${text}`);
  const ack = ackText(posted.body);
  if (ack) out.line(speak(SPEAKER.onlyYou, readableSlack(ack, SANDBOX_NAMES)));
  const replies = await stack.slack.waitFor(
    () => {
      const list = stack.slack.responses(responseId);
      return list.length > 0 ? list : undefined;
    },
    { timeoutMs: COMMAND_TIMEOUT_MS, description: `the reply to /agent ${text}` },
  );
  // As Slack shows them: `<#C0SANDBOX>` reads #sandbox.
  const read = replies.map((reply) => readableSlack(visibleText(reply), SANDBOX_NAMES));
  for (const reply of read) out.line(speak(SPEAKER.onlyYou, reply));
  if (stack.slack.openedViews().length > viewsBefore) await fillConnectionForm(ctx);
  for (const file of stack.slack.files()) {
    if (filesBefore.has(file.id) || file.channel === SANDBOX_CHANNEL.id) continue;
    out.line(speak(SPEAKER.onlyYou, fileLine(file, 'sent to your DM')));
  }
  return read;
}
