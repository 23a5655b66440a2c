import { expect } from 'vitest';
import type { SlackStandin } from '../../dev/slack-standin/index.js';
import type { Harness } from './bridge-harness.js';

/** The visible text (section blocks, else `text`) of an `/agent` reply, unescaped. */
export function replyText(slack: SlackStandin, responseId: string): string | undefined {
  const [reply] = slack.responses(responseId);
  if (!reply) return undefined;
  const blocks = (reply.blocks ?? []) as Array<{ text?: { text?: string } }>;
  const text = blocks.map((block) => block.text?.text ?? '').join('\n') || reply.text || '';
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** `/agent <text>` by `user` in `channel`, acked 200; resolves with the reply's text. */
export async function agentCommandReply(harness: Harness, text: string, user: string, channel: string) {
  const posted = await harness.command(text, { user, channel });
  expect(posted.status).toBe(200);
  return harness.slack.waitFor(() => replyText(harness.slack, posted.responseId), {
    description: `the reply to /agent ${text}`,
  });
}
