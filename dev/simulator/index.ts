/**
 * A faithful stand-in for the agent service, written from its API document: a real HTTP server with
 * in-memory state, for tests, the local sandbox and benchmarks. It imports nothing from the bot.
 */
import type { AddressInfo } from 'node:net';
import { AccountStore } from './accounts.js';
import { AgentRegistry } from './agents.js';
import { SIM_TOKENS } from './auth.js';
import type { SimContext } from './context.js';
import { clearFaults, createFaults, seededRandom } from './faults.js';
import { FeedbackStore } from './feedback.js';
import { RunStore } from './runs.js';
import { createSimServer } from './server.js';
import type { PutLogEntry, SimScript, Simulator, SimulatorOptions } from './types.js';

export { RESPONSE_ONLY_FIELDS, SIM_ADMIN_EMAILS, SIM_MAIN_ACCOUNT } from './accounts.js';
export { SIM_AGENTS } from './agents.js';
export { SIM_ACCOUNT_IDS, SIM_MAIN_ACCOUNT_NAME, SIM_TOKENS } from './auth.js';
export { type Directive, MENTION_TEXT, type MentionKind, parseDirective, simDirective } from './directive.js';
export { EXPORT_TYPES, type ExportType } from './export-fixtures.js';
export type {
  ErrorBodyShape,
  FeedbackRecord,
  PutLogEntry,
  RequestRecord,
  RunStatus,
  RunView,
  SimOutcome,
  SimScript,
  Simulator,
  SimulatorFaults,
  SimulatorOptions,
  SubAccount,
  TokenKind,
} from './types.js';

/** Script of runs without a directive unless options.defaultScript says otherwise. */
export const DEFAULT_SIM_SCRIPT: SimScript = { steps: 3, stepMs: 200, outcome: 'done' };

/** Starts a simulator listening on options.host:options.port (default 127.0.0.1, ephemeral port). */
export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const closing = new AbortController();
  const faults = createFaults(options.faults);
  const putLog: PutLogEntry[] = [];
  const ctx: SimContext = {
    options: {
      region: options.region ?? 'us-east-1',
      longPollMs: options.longPollMs ?? 2000,
      maxConcurrent: options.maxConcurrent ?? 100,
      putStatus: options.putStatus ?? 204,
      agentToken: options.agentToken ?? SIM_TOKENS.agent,
      agentAccount: options.agentAccount,
    },
    faults,
    runs: new RunStore(
      { ...(options.defaultScript ?? DEFAULT_SIM_SCRIPT) },
      options.staleAfterFollowUpMs ?? 0,
    ),
    agents: new AgentRegistry(),
    feedback: new FeedbackStore(),
    accounts: new AccountStore(),
    counters: { listings: 0 },
    putLog,
    closing: closing.signal,
    random: seededRandom(options.seed ?? 1),
    now: () => Date.now(),
  };
  const { server, stats } = createSimServer(ctx, {
    quiet: options.quiet ?? false,
    ...(options.accountPathPrefix !== undefined && { accountPathPrefix: options.accountPathPrefix }),
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port, address } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  let closed: Promise<void> | undefined;

  return {
    url: `http://${host}:${port}`,
    port,
    requests: stats.requests,
    get maxInFlightSeen() {
      return stats.maxInFlightSeen;
    },
    inFlight: () => stats.inFlight,
    runs: () => ctx.runs.all().map((r) => ctx.runs.view(r, ctx.now())),
    run: (sessionId) => {
      const record = ctx.runs.get(sessionId);
      return record && ctx.runs.view(record, ctx.now());
    },
    feedback: (sessionId) => ctx.feedback.get(sessionId),
    accounts: () => ctx.accounts.all(),
    putLog,
    setAgentActive: (agentId, active) => ctx.agents.setActive(agentId, active),
    faults,
    reset() {
      ctx.runs.clear();
      ctx.feedback.clear();
      ctx.accounts.reset();
      ctx.agents.reset();
      clearFaults(faults);
      ctx.counters.listings = 0;
      stats.requests.length = 0;
      putLog.length = 0;
      stats.maxInFlightSeen = stats.inFlight;
    },
    close() {
      closed ??= new Promise<void>((resolve) => {
        closing.abort(); // held polls answer {status:'timeout'} now
        server.close(() => resolve());
        server.closeIdleConnections();
        // Give the aborted polls a moment to flush their answers, then cut whatever is left.
        setTimeout(() => server.closeAllConnections(), 100).unref();
      });
      return closed;
    },
  };
}
