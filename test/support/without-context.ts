import type { TurnContext } from '../../src/conversation/context/turn-context.js';

/** No context at all: the thread's agent (else `defaultAgentId`), no thread read, no time range. */
export function withoutContext(defaultAgentId: string): Pick<TurnContext, 'prepare'> {
  return {
    prepare: async (_request, thread) => ({
      kind: 'ready',
      agentId: thread?.agentId ?? defaultAgentId,
      ...(thread?.connection !== undefined ? { connection: thread.connection } : {}),
      context: {},
    }),
  };
}
