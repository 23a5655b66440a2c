import type { Clock } from '../../runtime/clock.js';
import type { Logger } from '../../runtime/logger.js';
import type { RunStatusReport } from '../ports.js';
import type { BackoffOptions } from './backoff.js';

/** What the poll scheduler is asked to do and what it calls back: its contract with the turn. */

/** `'stop'` ends polling of the entry (the turn is over); anything else keeps polling. */
// biome-ignore lint/suspicious/noConfusingVoidType: handlers that return nothing must fit.
export type PollVerdict = void | 'stop';

export interface PollHandlers {
  onReport(report: RunStatusReport): PollVerdict | Promise<PollVerdict>;
  /** `attempt` counts consecutive failures of this entry, from 1. */
  onError(error: unknown, attempt: number): PollVerdict | Promise<PollVerdict>;
  /** The entry passed `deadlineAt`; it is already removed. */
  onDeadline(): void | Promise<void>;
}

export interface PollEntry {
  /** The turn id; adding an id again replaces the earlier entry. */
  id: string;
  agentId: string;
  sessionId: string;
  /** The service connection the run is on; undefined: the default one. */
  connection?: string | undefined;
  /**
   * The turn's installation (its thread key's team): its status request and handlers (`runFor`) run
   * as it, never as whichever event started the scheduler. Unset only in the scheduler's own tests.
   */
  teamId?: string | undefined;
  /** Clock time after which the turn is given up on. */
  deadlineAt: number;
  /**
   * `late`: a run past its deadline, polled at most every `lateIntervalMs`, only when no on-time turn
   * waits for a slot, at most `lateSlots` at once. Default `normal`.
   */
  pace?: 'normal' | 'late' | undefined;
}

export interface PollSchedulerDeps {
  getStatus(
    agentId: string,
    sessionId: string,
    options: { signal: AbortSignal; timeoutMs: number } & Pick<PollEntry, 'connection' | 'teamId'>,
  ): Promise<RunStatusReport>;
  /** Runs an entry's handler as the installation `teamId` names (slack-wiring.ts `within`). @default as is */
  runFor?: (<T>(teamId: string, work: () => Promise<T>) => Promise<T>) | undefined;
  /** Status requests allowed in flight: the poll share of the process's request budget. */
  slots: number;
  /** Client-side timeout of one status request (it should outlast the service's long poll). */
  requestTimeoutMs: number;
  clock: Clock;
  /** Default `Math.random`. */
  random?: (() => number) | undefined;
  /** Default 500 ms base, 30 s cap. */
  backoff?: BackoffOptions | undefined;
  /** Least time between the starts of two polls of one entry. Default 250 ms. */
  minIntervalMs?: number | undefined;
  /** Least time between the starts of two polls of a `late` entry. Default 30 s. */
  lateIntervalMs?: number | undefined;
  /** Status requests of `late` entries allowed in flight. Default a quarter of `slots` (at least 1). */
  lateSlots?: number | undefined;
  logger?: Logger | undefined;
}

export interface PollScheduler {
  /** Starts polling an entry; it is polled at once when a slot is free. Throws after `stop()`. */
  add(entry: PollEntry, handlers: PollHandlers): void;
  /** Stops polling an entry, aborting its request; no handler of it is called afterwards. */
  remove(id: string): boolean;
  has(id: string): boolean;
  /** Ids of every entry being polled (e.g. to renew their leases). */
  ids(): string[];
  size(): number;
  inFlight(): number;
  /** Aborts in-flight requests, drops every entry; resolves once requests and handlers settled. */
  stop(): Promise<void>;
}
