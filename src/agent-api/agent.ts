import { z } from 'zod';
import type { RunInput } from '../conversation/ports.js';
import { type AgentCallOptions, type CallContext, parseBody, segment } from './call-context.js';
import type { NotFoundMeaning } from './errors-from-failures.js';

/** Agent runs and activation: `/v2/ai-agent/<agent_id>…` (seed: "Agent endpoints"). */

/** Run start (and follow-up) response. */
export const runStartSchema = z.looseObject({ status: z.string().optional(), sessionId: z.string().min(1) });

/** Run status response: `message` may be missing while loading, or any JSON value (structured output). */
export const runStatusSchema = z.looseObject({
  status: z.enum(['loading', 'done', 'error', 'canceled', 'timeout']),
  message: z.unknown().optional(),
  totalSteps: z.number().int().min(0).nullish(),
});

export const agentActivationSchema = z.looseObject({ id: z.string(), active: z.boolean() });

/** The run's `message` as Markdown: a structured-output agent's JSON value becomes a `json` fence. */
export function messageAsMarkdown(message: unknown): string | undefined {
  if (message === undefined || message === null) return undefined;
  if (typeof message === 'string') return message;
  const json = JSON.stringify(message, null, 2);
  const longestRun = [...json.matchAll(/`+/g)].reduce((longest, run) => Math.max(longest, run[0].length), 0);
  const fence = '`'.repeat(Math.max(3, longestRun + 1));
  return `${fence}json\n${json}\n${fence}`;
}

const agentPath = (agentId: string) => `/v2/ai-agent/${segment(agentId)}`;

/** The seed's run request: the prompt and optional context under `context` (JSON omits unset members). */
export function runRequestBody({ message, additionalContext, timerange }: RunInput) {
  return { context: { message, additionalContext, timerange } };
}

/** Run starts, follow-ups, status polls and activation, as the client's methods. */
export function agentCalls({ send }: CallContext) {
  /** A run start or follow-up: never retried once it may have reached the service. */
  async function run(
    endpoint: string,
    path: string,
    input: RunInput,
    notFound: NotFoundMeaning,
    options: AgentCallOptions | undefined,
  ): Promise<{ sessionId: string }> {
    const response = await send(
      { endpoint, method: 'POST', path, body: runRequestBody(input), retry: 'unsent-only', notFound },
      options,
    );
    return { sessionId: parseBody(response, runStartSchema).sessionId };
  }

  /** POST /v2/ai-agent/<agent_id>/enable or /disable. Setting a state twice is harmless: retried. */
  async function setActive(agentId: string, action: 'enable' | 'disable', options?: AgentCallOptions) {
    const endpoint = `${action}Agent`;
    const path = `${agentPath(agentId)}/${action}`;
    const response = await send(
      { endpoint, method: 'POST', path, retry: 'idempotent', notFound: 'agent-unavailable' },
      options,
    );
    return parseBody(response, agentActivationSchema);
  }

  return {
    /** POST /v2/ai-agent/<agent_id>. */
    startRun: (agentId: string, input: RunInput, options?: AgentCallOptions) =>
      run('startRun', agentPath(agentId), input, 'agent-disabled', options),

    /** POST /v2/ai-agent/<agent_id>/<session_id>: the next turn of the same session. */
    followUp: (agentId: string, sessionId: string, input: RunInput, options?: AgentCallOptions) =>
      run('followUp', `${agentPath(agentId)}/${segment(sessionId)}`, input, 'agent-unavailable', options),

    /** GET /v2/ai-agent/<agent_id>/<session_id>, a long poll: status `timeout` is "nothing new yet". */
    async getRunStatus(agentId: string, sessionId: string, options?: AgentCallOptions) {
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
      const { status, message, totalSteps } = parseBody(response, runStatusSchema);
      return { status, message: messageAsMarkdown(message), totalSteps: totalSteps ?? undefined };
    },

    enableAgent: (agentId: string, options?: AgentCallOptions) => setActive(agentId, 'enable', options),
    disableAgent: (agentId: string, options?: AgentCallOptions) => setActive(agentId, 'disable', options),
  };
}
