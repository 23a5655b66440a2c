/**
 * Agents and the agent endpoints that change state: run start, follow-up, enable, disable.
 * Seed: "A disabled agent starts no new runs" — yet its error table says a run start answers 404
 * only when the agent is disabled *and* its trigger is not Alert, so a disabled Alert agent runs.
 */

import type { RunContextEcho } from './answer-text.js';
import { accountIdOf } from './auth.js';
import type { Handler, SimContext } from './context.js';
import { errorResponse, invalidBody, isObject, jsonOf, type ParsedBody } from './http-io.js';
import { isTerminal } from './runs.js';

/** Agent ids the simulator serves. */
export const SIM_AGENTS = {
  /** Active, API trigger. */
  api: 'sim-agent-api',
  /** Alert trigger, seeded disabled: it still runs (the seed's 404 is for non-Alert agents only). */
  alert: 'sim-agent-alert',
  /** Disabled, API trigger: run starts answer 404 until enabled. */
  disabled: 'sim-agent-disabled',
  /** Active, API trigger, configured with structured output: a done `message` is a JSON object. */
  structured: 'sim-agent-structured',
} as const;

interface AgentRecord {
  id: string;
  trigger: 'API' | 'Alert';
  active: boolean;
}

const SEED: readonly AgentRecord[] = [
  { id: SIM_AGENTS.api, trigger: 'API', active: true },
  { id: SIM_AGENTS.alert, trigger: 'Alert', active: false },
  { id: SIM_AGENTS.disabled, trigger: 'API', active: false },
  { id: SIM_AGENTS.structured, trigger: 'API', active: true },
];

/**
 * A done answer as an agent with structured output returns it: a JSON value, not a string (the
 * vendor's agent guide). The text answer becomes one member, beside typed findings.
 */
export function structuredMessage(agentId: string, status: string, message: string | undefined): unknown {
  if (agentId !== SIM_AGENTS.structured || status !== 'done' || message === undefined) return message;
  return {
    summary: message,
    severity: 'warning',
    findings: [
      { service: 'checkout', metric: 'p95_latency_ms', value: 640, threshold: 500 },
      { service: 'payments', metric: 'error_rate', value: 0.004, threshold: 0.01 },
    ],
  };
}

/** The agents and their activation state. */
export class AgentRegistry {
  private agents = new Map<string, AgentRecord>();

  constructor() {
    this.reset();
  }

  get(id: string): AgentRecord | undefined {
    return this.agents.get(id);
  }

  /** Sets an agent's active flag; throws on an unknown id so a test typo shows. */
  setActive(id: string, active: boolean): void {
    const agent = this.agents.get(id);
    if (!agent) throw new Error(`unknown simulator agent: ${id}`);
    agent.active = active;
  }

  reset(): void {
    this.agents = new Map(SEED.map((a) => [a.id, { ...a }]));
  }

  /** True when the agent exists and may start a turn. */
  mayRun(id: string): boolean {
    const agent = this.agents.get(id);
    return agent !== undefined && (agent.active || agent.trigger === 'Alert');
  }
}

/** The prompt of a valid agent run request, or the reason it is invalid. */
function parseRunRequest(body: ParsedBody): { prompt: string; context: RunContextEcho } | { error: string } {
  const value = jsonOf(body);
  if (!isObject(value)) return { error: 'Request body must be a JSON object' };
  const context = value.context;
  if (!isObject(context)) return { error: 'context is required and must be an object' };
  if (typeof context.message !== 'string')
    return { error: 'context.message is required and must be a string' };
  if (context.additionalContext !== undefined && typeof context.additionalContext !== 'string') {
    return { error: 'context.additionalContext must be a string' };
  }
  const range = context.timerange;
  if (range !== undefined) {
    if (!isObject(range) || !isIsoDate(range.startTime) || !isIsoDate(range.endTime)) {
      return { error: 'context.timerange needs startTime and endTime as ISO 8601 timestamps' };
    }
  }
  if (context.security !== undefined && !Array.isArray(context.security)) {
    return { error: 'context.security must be an array' };
  }
  if (value.integrations !== undefined && !Array.isArray(value.integrations)) {
    return { error: 'integrations must be an array' };
  }
  const received: RunContextEcho = {};
  if (typeof context.additionalContext === 'string') received.additionalContext = context.additionalContext;
  if (isObject(range)) {
    received.timerange = { startTime: String(range.startTime), endTime: String(range.endTime) };
  }
  return { prompt: context.message, context: received };
}

function isIsoDate(value: unknown): boolean {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value));
}

function refuseStart(ctx: SimContext, agentId: string) {
  if (ctx.faults.maintenance) {
    return errorResponse(503, 'SERVICE_UNAVAILABLE', 'The service is temporarily shut down for maintenance');
  }
  if (!ctx.agents.get(agentId)) return errorResponse(404, 'AGENT_NOT_FOUND', `Agent ${agentId} not found`);
  if (!ctx.agents.mayRun(agentId)) {
    return errorResponse(404, 'AGENT_NOT_FOUND', `Agent ${agentId} is disabled`);
  }
  return undefined;
}

/** POST /v2/ai-agent/<agent_id> */
export const startRun: Handler = (ctx, req) => {
  const agentId = req.params.agentId ?? '';
  const refused = refuseStart(ctx, agentId);
  if (refused) return refused;
  const parsed = parseRunRequest(req.body);
  if ('error' in parsed) return invalidBody(parsed.error);
  const record = ctx.runs.start(agentId, accountIdOf(req.token), parsed.prompt, ctx.now(), parsed.context);
  return { status: 200, body: { status: 'started', sessionId: record.sessionId } };
};

/**
 * POST /v2/ai-agent/<agent_id>/<session_id>: only once the previous turn is terminal (409 before;
 * the seed leaves that error unstated). A follow-up is a new run of the agent, so a disabled
 * non-Alert agent refuses it with 404 like a run start.
 */
export const followUp: Handler = (ctx, req) => {
  const agentId = req.params.agentId ?? '';
  const sessionId = req.params.sessionId ?? '';
  const refused = refuseStart(ctx, agentId);
  if (refused) return refused;
  const record = ctx.runs.get(sessionId);
  if (!record || record.agentId !== agentId) {
    return errorResponse(404, 'SESSION_NOT_FOUND', `Session ${sessionId} not found`);
  }
  const parsed = parseRunRequest(req.body);
  if ('error' in parsed) return invalidBody(parsed.error);
  const now = ctx.now();
  if (!isTerminal(ctx.runs.current(record, now).status)) {
    return errorResponse(409, 'TURN_IN_PROGRESS', 'The previous turn of this session has not finished');
  }
  ctx.runs.followUp(record, parsed.prompt, now, parsed.context);
  return { status: 200, body: { status: 'started', sessionId } };
};

/** POST /v2/ai-agent/<agent_id>/enable and …/disable */
export function setActivation(active: boolean): Handler {
  return (ctx, req) => {
    const agentId = req.params.agentId ?? '';
    if (!ctx.agents.get(agentId)) return errorResponse(404, 'AGENT_NOT_FOUND', `Agent ${agentId} not found`);
    ctx.agents.setActive(agentId, active);
    return { status: 200, body: { id: agentId, active } };
  };
}
