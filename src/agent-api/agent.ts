import { z } from 'zod';
import type { RunInput, RunStatusReport, TimeRange } from '../conversation/ports.js';
import { type AgentCallOptions, type CallContext, parseBody, segment } from './call-context.js';

/** Agent runs and activation: `/v2/ai-agent/<agent_id>…` (seed: "Agent endpoints"). */

/** Run start (and follow-up) response. */
export const runStartSchema = z.looseObject({
  status: z.string().optional(),
  sessionId: z.string().min(1),
});

/**
 * Run status response. `message` and `totalSteps` may be missing (or null) while loading; a
 * `message` may be any JSON value when the agent has structured output.
 */
export const runStatusSchema = z.looseObject({
  status: z.enum(['loading', 'done', 'error', 'canceled', 'timeout']),
  message: z.unknown().optional(),
  totalSteps: z.number().int().min(0).nullish(),
});

/** Agent activation response. */
export const agentActivationSchema = z.looseObject({ id: z.string(), active: z.boolean() });
export type AgentActivation = z.infer<typeof agentActivationSchema>;

/**
 * Agents configured with structured output answer a done run with a JSON value instead of text
 * (the vendor's agent guide). The bot renders Markdown, so such a value becomes a JSON code block:
 * readable, copyable, and never mistaken for an invalid response.
 */

/** The longest run of backticks in `text`. */
function longestBacktickRun(text: string): number {
  let longest = 0;
  for (const match of text.matchAll(/`+/g)) longest = Math.max(longest, match[0].length);
  return longest;
}

/**
 * The run's `message` as Markdown: a string as it is, null/absent as undefined, any other JSON
 * value pretty-printed in a `json` code fence longer than any backtick run inside it.
 */
export function messageAsMarkdown(message: unknown): string | undefined {
  if (message === undefined || message === null) return undefined;
  if (typeof message === 'string') return message;
  const json = JSON.stringify(message, null, 2);
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(json) + 1));
  return `${fence}json\n${json}\n${fence}`;
}

const agentPath = (agentId: string) => `/v2/ai-agent/${segment(agentId)}`;

/** The seed's run request: the prompt and optional context under `context`. */
export function runRequestBody(input: RunInput) {
  const context: { message: string; additionalContext?: string; timerange?: TimeRange } = {
    message: input.message,
  };
  if (input.additionalContext !== undefined) context.additionalContext = input.additionalContext;
  if (input.timerange !== undefined) context.timerange = input.timerange;
  return { context };
}

/** Run starts, follow-ups, status polls and activation, as the client's methods. */
export function agentCalls({ send }: CallContext) {
  return {
    /** POST /v2/ai-agent/<agent_id>. Never retried once it may have reached the service. */
    async startRun(
      agentId: string,
      input: RunInput,
      options?: AgentCallOptions,
    ): Promise<{ sessionId: string }> {
      const response = await send(
        {
          endpoint: 'startRun',
          method: 'POST',
          path: agentPath(agentId),
          body: runRequestBody(input),
          retry: 'unsent-only',
          notFound: 'agent-disabled',
        },
        options,
      );
      return { sessionId: parseBody(response, runStartSchema).sessionId };
    },

    /** POST /v2/ai-agent/<agent_id>/<session_id>: the next turn of the same session. */
    async followUp(
      agentId: string,
      sessionId: string,
      input: RunInput,
      options?: AgentCallOptions,
    ): Promise<{ sessionId: string }> {
      const response = await send(
        {
          endpoint: 'followUp',
          method: 'POST',
          path: `${agentPath(agentId)}/${segment(sessionId)}`,
          body: runRequestBody(input),
          retry: 'unsent-only',
          notFound: 'agent-unavailable',
        },
        options,
      );
      return { sessionId: parseBody(response, runStartSchema).sessionId };
    },

    /**
     * GET /v2/ai-agent/<agent_id>/<session_id>, a long poll (hence its own timeout). Status
     * `timeout` is an ordinary result ("nothing new yet"). A 404 is AgentUnavailable, like every
     * agent-scoped call (DESIGN "404 on an agent-scoped call").
     */
    async getRunStatus(
      agentId: string,
      sessionId: string,
      options?: AgentCallOptions,
    ): Promise<RunStatusReport> {
      const response = await send(
        {
          endpoint: 'getRunStatus',
          method: 'GET',
          path: `${agentPath(agentId)}/${segment(sessionId)}`,
          kind: 'poll',
          retry: 'idempotent',
          notFound: 'agent-unavailable',
        },
        options,
      );
      const body = parseBody(response, runStatusSchema);
      return {
        status: body.status,
        message: messageAsMarkdown(body.message),
        totalSteps: body.totalSteps ?? undefined,
      };
    },

    enableAgent: (agentId: string, options?: AgentCallOptions) => setActive(send, agentId, 'enable', options),
    disableAgent: (agentId: string, options?: AgentCallOptions) =>
      setActive(send, agentId, 'disable', options),
  };
}

/** POST /v2/ai-agent/<agent_id>/enable or /disable. Setting a state twice is harmless: retried. */
async function setActive(
  send: CallContext['send'],
  agentId: string,
  action: 'enable' | 'disable',
  options: AgentCallOptions | undefined,
): Promise<AgentActivation> {
  const response = await send(
    {
      endpoint: `${action}Agent`,
      method: 'POST',
      path: `${agentPath(agentId)}/${action}`,
      retry: 'idempotent',
      notFound: 'agent-unavailable',
    },
    options,
  );
  return parseBody(response, agentActivationSchema);
}
