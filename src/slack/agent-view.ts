import type { WebClient } from '@slack/web-api';
import type { Logger } from '../runtime/logger.js';
import { threadTitleFrom } from './views/agent-view.js';

/** The agent view's courtesies, suggested prompts and DM titles: a failure is logged, never shown. */
export function createAgentView(deps: {
  prompts: ReadonlyArray<{ title: string; message: string }>;
  logger: Logger;
}) {
  const { prompts, logger } = deps;

  /** `assistant.threads.setSuggestedPrompts` on the DM, with no thread_ts: the view's start screen. */
  async function offerSuggestedPrompts(client: WebClient, channel: string): Promise<void> {
    if (prompts.length === 0) return;
    try {
      await client.assistant.threads.setSuggestedPrompts({ channel_id: channel, prompts: [...prompts] });
    } catch (error) {
      logger.warn({ err: error, channel }, 'suggested prompts not set');
    }
  }

  /** `assistant.threads.setTitle` from the conversation's first question, shortened. */
  async function titleConversation(client: WebClient, channel: string, threadTs: string, question: string) {
    const title = threadTitleFrom(question);
    if (!title) return;
    try {
      await client.assistant.threads.setTitle({ channel_id: channel, thread_ts: threadTs, title });
    } catch (error) {
      logger.warn({ err: error, channel, threadTs }, 'thread title not set');
    }
  }

  return { offerSuggestedPrompts, titleConversation };
}

export type AgentView = ReturnType<typeof createAgentView>;
