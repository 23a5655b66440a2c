import { randomUUID } from 'node:crypto';
import type { Clock } from '../../runtime/clock.js';
import type { Logger } from '../../runtime/logger.js';
import type { AnswerPlacement } from '../access/answer-place.js';
import type { OutsiderReason } from '../access/audience.js';
import { type Spending, unlimitedSpending } from '../access/spending.js';
import type { InsideCheck } from '../access/who-is-inside.js';
import type { AgentSessions } from '../agent-session.js';
import type { ConnectionRuns } from '../connection-runs.js';
import type { TurnContext } from '../context/turn-context.js';
import type { IoGate } from '../polling/io-gate.js';
import type { AgentRunsPort, ConversationMetrics, ConversationStore } from '../ports.js';
import { tenantName } from '../tenancy.js';
import { threadKey as makeThreadKey } from '../thread-key.js';
import type { Refusal, RefusalDetail, ThreadLocation, ThreadOutput } from '../thread-output-port.js';
import { deliverWhileTransient } from './outcome-retry.js';
import { createRunStart, type ReadyTurn } from './run-start.js';
import { createTurnLedger, type TurnLedger } from './turn-ledger.js';
import type { TurnObserver } from './turn-observer.js';
import type { TurnProgress } from './turn-progress.js';
import type { ThreadRecord } from './turn-records.js';
import type { TurnRequest, TurnRequestResult } from './turn-request.js';
import type { TurnRunner } from './turn-runner.js';

export type { TurnRequest, TurnRequestResult } from './turn-request.js';

/** A refusal is retried while Slack fails transiently, but no longer than this: later it only confuses. */
const REFUSAL_GIVE_UP_MS = 10 * 60 * 1000;

export interface TurnIntakeDeps {
  store: ConversationStore;
  agent: AgentRunsPort;
  /** The other service connections' runs (DESIGN "Many accounts"). */
  connections?: ConnectionRuns | undefined;
  output: ThreadOutput;
  runner: Pick<TurnRunner, 'begin' | 'started' | 'failStart'>;
  progress: Pick<TurnProgress, 'begin'>;
  /** The thread's agent session (agent-session.ts). @default none */
  sessions?: Pick<AgentSessions, 'begin'> | undefined;
  clock: Clock;
  logger: Logger;
  metrics: ConversationMetrics;
  /** `lateWatchMs`: how long past its deadline a run is still watched (the thread stays busy). */
  settings: {
    defaultAgentId: string;
    instanceId: string;
    turnDeadlineMs: number;
    leaseTtlMs: number;
    lateWatchMs?: number | undefined;
  };
  /** Only people inside the organisation start turns (DESIGN "Who is inside"). */
  inside: InsideCheck;
  newId?: () => string;
  /**
   * Turn starts take turns with Slack's incoming requests, one per turn of the event loop (see
   * io-gate.ts): a burst of mentions then neither delays acks nor starves the poller.
   */
  gate?: IoGate;
  /** The agent, thread context and time range of a turn (see turn-context.ts). */
  context: Pick<TurnContext, 'prepare'>;
  /** Where the answer goes when outsiders can read the conversation (see answer-place.ts). */
  placement: AnswerPlacement;
  /** Runs per person per rolling hour (see spending.ts). @default no limit */
  spending?: Spending;
  /** @default a ledger over `store` */
  ledger?: TurnLedger | undefined;
  /** Told when a run starts (App Home's recent threads and tallies). */
  observer?: Pick<TurnObserver, 'started'> | undefined;
}

/**
 * A random UUID held as one flat string. `randomUUID` joins 20 pieces, which V8 keeps as a tree of
 * string fragments (about 500 bytes instead of 60), and every turn keeps several ids in its records
 * and locks; `toLowerCase` (a no-op on the text) returns it flattened.
 */
const newFlatId = (): string => randomUUID().toLowerCase();

/**
 * Turns a classified Slack message into an agent turn: dedupe, who may ask, the turn's agent and
 * context, where the answer goes, the spending limit, then the run (run-start.ts: the thread's
 * busy lock, the durable records, the start request, hand-off to the poller). Exactly one turn
 * results per Slack message; every message not taken is told why.
 */
export function createTurnIntake(deps: TurnIntakeDeps) {
  const { store, agent, output, clock, logger, metrics, settings } = deps;
  const newId = deps.newId ?? newFlatId;
  const ledger = deps.ledger ?? createTurnLedger({ store, clock, instanceId: settings.instanceId });
  const runStart = createRunStart({
    ledger,
    agent,
    connections: deps.connections,
    output,
    runner: deps.runner,
    progress: deps.progress,
    sessions: deps.sessions,
    clock,
    logger,
    metrics,
    settings,
    newId,
    observer: deps.observer,
    refuseBusy: (request, workingForMs) => tell(locationOf(request), request, 'busy', { workingForMs }),
  });
  /** Ends the retries of refusals still waiting for Slack (shutdown). */
  const stopping = new AbortController();
  const refusalsUnderWay = new Set<Promise<unknown>>();

  /**
   * Tells the sender why their message was not taken, through the same retry as outcomes (a
   * refusal must not be lost to a passing Slack failure), beside the caller.
   */
  function tell(where: ThreadLocation, request: TurnRequest, refusal: Refusal, detail?: RefusalDetail): void {
    const work = deliverWhileTransient(
      () => output.refuse(where, request.userId, request.sourceTs, refusal, detail),
      { clock, signal: stopping.signal, giveUpAfterMs: REFUSAL_GIVE_UP_MS },
    ).then((result) => {
      if (!result.ok)
        logger.warn({ channel: request.channel, refusal, code: result.code }, 'refusal not delivered');
    });
    refusalsUnderWay.add(work);
    void work.finally(() => refusalsUnderWay.delete(work));
  }

  /**
   * Handles one classified message. Failures before the run starts (the store not answering) are
   * logged and told to the sender, so a message is never dropped in silence.
   */
  async function handle(request: TurnRequest): Promise<TurnRequestResult> {
    try {
      await deps.gate?.pass();
      return await take(request);
    } catch (error) {
      logger.error(
        { err: error, channel: request.channel, ts: request.sourceTs },
        'could not take a message',
      );
      const where = { teamId: request.teamId, channel: request.channel, threadTs: request.threadTs };
      tell(where, request, 'unavailable');
      return 'failed';
    }
  }

  /**
   * Who may ask, then the cheap refusals — an empty question, a busy thread, the spending limit —
   * before anything that costs Slack calls (DESIGN "Limits before reading"): the thread read and
   * the time zone of the turn's context, the audience's member scan. A person over the limit, or
   * replying in a busy thread, costs Slack nothing but the refusal. The run start checks the busy
   * lock again, atomically.
   */
  async function take(asked: TurnRequest): Promise<TurnRequestResult> {
    const askedWhere = locationOf(asked);
    const askedKey = makeThreadKey(asked.teamId, asked.channel, asked.threadTs);
    const askedThread = await store.getThread(askedKey);
    // A thread the bot has answered in (even with an error or "ask again" notice, before any
    // session) takes replies as turns; the turn starts a new run when there is no session yet.
    if (!asked.mentioned && !asked.answerAll && !askedThread) return 'no-session';
    if (!(await firstDelivery(asked))) return 'duplicate';
    if (!(await isInside(asked, askedWhere))) return 'outsider';
    if (asked.prompt.trim() === '') {
      tell(askedWhere, asked, 'empty-prompt');
      return 'refused';
    }
    const holder = await ledger.turnHolding(askedKey);
    if (holder) {
      tell(askedWhere, asked, 'busy', { workingForMs: clock.now() - holder.startedAt });
      return 'busy';
    }
    const spent = await (deps.spending ?? unlimitedSpending).take(asked.userId);
    if (!spent.ok) {
      tell(askedWhere, asked, spent.refusal, spent.detail);
      return 'over-limit';
    }
    const placed = await placeAndPrepare(asked, askedThread);
    if (placed.kind === 'refused') {
      await spent.giveBack();
      return 'refused';
    }
    return runStart.begin(placed.request, placed.thread, placed.prepared, spent);
  }

  /** The turn's context and where its answer goes; refusals are told here. */
  async function placeAndPrepare(
    asked: TurnRequest,
    askedThread: ThreadRecord | undefined,
  ): Promise<
    | { kind: 'refused' }
    | { kind: 'ready'; request: TurnRequest; thread: ThreadRecord | undefined; prepared: ReadyTurn }
  > {
    const askedWhere = locationOf(asked);
    const prepared = await deps.context.prepare(asked, askedThread);
    if (prepared.kind === 'refused') {
      tell(askedWhere, asked, prepared.refusal);
      return { kind: 'refused' };
    }
    const placement = await deps.placement.decide(asked.channel);
    if (placement.kind === 'refused') {
      tell(askedWhere, asked, 'outsider-audience', { audience: placement.reason });
      return { kind: 'refused' };
    }
    const placed =
      placement.kind === 'private'
        ? await movePrivately(asked, placement.reason)
        : { request: asked, thread: askedThread };
    return placed ? { kind: 'ready', ...placed, prepared } : { kind: 'refused' };
  }

  /**
   * Moves the question to the asker's DM (OUTSIDER_AUDIENCE=dm): from here on the turn lives in the
   * private thread, whose root (the quote of the question) is the turn's message. Undefined (the
   * asker told why) when Slack would not open the DM.
   */
  async function movePrivately(asked: TurnRequest, reason: OutsiderReason) {
    const askedWhere = locationOf(asked);
    const moved = await deps.placement.moveToPrivate(
      { ...askedWhere, sourceTs: asked.sourceTs },
      asked.userId,
      asked.prompt,
      reason,
    );
    if (!moved.moved) {
      tell(askedWhere, asked, 'private-thread-failed', { audience: reason });
      return undefined;
    }
    const { channel, threadTs } = moved.where;
    return { request: { ...asked, channel, threadTs, sourceTs: threadTs }, thread: undefined };
  }

  /**
   * Asked once per message (after dedupe). An outsider who addressed the bot is told why it stays
   * quiet; an outsider's unaddressed reply in a shared thread is only logged.
   */
  async function isInside(request: TurnRequest, where: ThreadLocation): Promise<boolean> {
    const verdict = await deps.inside.check({ userId: request.userId, workspaceId: request.workspaceId });
    if (verdict.inside) return true;
    logger.info(
      { channel: request.channel, ts: request.sourceTs, userId: request.userId, reason: verdict.reason },
      'message from outside the organisation refused',
    );
    if (request.mentioned) {
      const refusal = verdict.refusal;
      tell(where, request, refusal);
    }
    return false;
  }

  function locationOf(request: TurnRequest): ThreadLocation {
    return { teamId: request.teamId, channel: request.channel, threadTs: request.threadTs };
  }

  /**
   * Slack delivers a mention twice and retries events: only the first sighting counts — per
   * installation, as each installation sees a shared channel's messages as its own events.
   */
  function firstDelivery(request: TurnRequest): Promise<boolean> {
    return ledger.markSeen(tenantName(request.tenant.key, request.channel), request.sourceTs, newId());
  }

  /** Tells the sender (once per message) why their message does not become a turn. */
  async function refuse(request: TurnRequest, refusal: Refusal): Promise<TurnRequestResult> {
    if (!(await firstDelivery(request))) return 'duplicate';
    const where = { teamId: request.teamId, channel: request.channel, threadTs: request.threadTs };
    tell(where, request, refusal);
    return 'refused';
  }

  /** Ends the retries of refusals still waiting for Slack; resolves once they settled. */
  async function stop(): Promise<void> {
    stopping.abort();
    await Promise.all([...refusalsUnderWay]);
  }

  return { handle, refuse, stop };
}

export type TurnIntake = ReturnType<typeof createTurnIntake>;
