import { type Clock, DONE_WAITING } from '../../runtime/clock.js';
import type { Logger } from '../../runtime/logger.js';
import type { AgentSessions } from '../agent-session.js';
import type { PollScheduler } from '../polling/poll-contract.js';
import type { ConversationMetrics, ConversationStore } from '../ports.js';
import type { ThreadOutput, TurnNotice } from '../thread-output-port.js';
import type { AudienceAtPost } from './audience-at-post.js';
import { createOutcomeDeliverer } from './outcome-deliverer.js';
import type { FinalOutcome, TurnInFlight } from './turn-in-flight.js';
import { createTurnLedger, type TurnLedger } from './turn-ledger.js';
import { stateOfRecord, storedPhase, transition } from './turn-machine.js';
import type { TurnObserver } from './turn-observer.js';
import type { TurnProgress } from './turn-progress.js';
import type { TurnOutcome, TurnRecord } from './turn-records.js';
import type { TurnEffect, TurnEvent } from './turn-states.js';

const STOP: TurnEvent = { type: 'stop-requested' };

export interface TurnDeliveryDeps {
  store: ConversationStore;
  output: ThreadOutput;
  poller: Pick<PollScheduler, 'add' | 'remove'>;
  progress: Pick<TurnProgress, 'follow' | 'step' | 'settle' | 'end'>;
  /** The thread's agent session: set `active` once a turn's outcome is posted. @default none */
  sessions?: Pick<AgentSessions, 'end'> | undefined;
  clock: Clock;
  logger: Logger;
  metrics: ConversationMetrics;
  /**
   * `lateWatchMs`: how long past its deadline a run is still watched for a late answer (0: the
   * deadline ends the turn). Default 0.
   */
  settings: { instanceId: string; lateWatchMs?: number | undefined };
  newReferenceId: () => string;
  /** Error codes after which polling a session is pointless (token rejected, unknown session…). */
  isPermanentPollError: (error: unknown) => boolean;
  errorCode: (error: unknown) => string;
  /** Default `Math.random` (the jitter of delivery retries). */
  random?: (() => number) | undefined;
  /** @default a ledger over `store` */
  ledger?: TurnLedger | undefined;
  /** Told when a turn's outcome is posted (App Home's recent threads and tallies). */
  observer?: Pick<TurnObserver, 'finished'> | undefined;
  /** Who reads the thread, asked again just before service data is posted (audience-at-post.ts). */
  audienceAtPost?: AudienceAtPost | undefined;
}

/**
 * From a started run to its outcome in the thread: every turn this instance holds is fed through
 * the turn machine — poll results and deadlines from the shared scheduler in, progress, the late
 * watch and the outcome out. What the machine decides ends the turn goes to the outcome deliverer
 * (outcome-deliverer.ts), which posts it exactly once.
 */
export function createTurnDelivery(deps: TurnDeliveryDeps) {
  const { store, output, poller, progress, clock, logger, metrics, settings } = deps;
  const lateWatchMs = settings.lateWatchMs ?? 0;
  const ledger = deps.ledger ?? createTurnLedger({ store, clock, instanceId: settings.instanceId });
  /** Every turn this instance polls or delivers, with its machine state. */
  const tracked = new Map<string, TurnInFlight>();
  /** Deliveries under way, so stop() can wait for them. */
  const running = new Set<Promise<void>>();
  const deliverer = createOutcomeDeliverer({
    ledger,
    store,
    output,
    progress,
    sessions: deps.sessions,
    clock,
    logger,
    metrics,
    random: deps.random,
    observer: deps.observer,
    audienceAtPost: deps.audienceAtPost,
    isCurrent: (entry) => tracked.get(entry.turn.turnId) === entry,
    onFinished(entry) {
      const { turnId } = entry.turn;
      if (tracked.get(turnId) === entry) tracked.delete(turnId);
      poller.remove(turnId);
      metrics.turnsInFlight(tracked.size);
    },
    stopPolling: (turnId) => poller.remove(turnId),
  });

  function newEntry(turn: TurnRecord, takenOver: boolean): TurnInFlight {
    const entry: TurnInFlight = {
      turn,
      takenOver,
      state: stateOfRecord(turn),
      abort: new AbortController(),
      released: false,
      noticeChain: Promise.resolve(),
    };
    tracked.get(turn.turnId)?.abort.abort(DONE_WAITING);
    tracked.set(turn.turnId, entry);
    metrics.turnsInFlight(tracked.size);
    return entry;
  }

  /** Polls a started turn (fresh, resumed or taken over) until the machine decides its outcome. */
  function track(turn: TurnRecord, options: { takenOver: boolean }): void {
    if (!turn.sessionId) return;
    const entry = newEntry(turn, options.takenOver);
    if (entry.state.phase === 'late') {
      // Resumed past its deadline: the thread was (or is being) told; keep watching slowly.
      if (!turn.deadlineNoticed) entry.noticeChain = background(deliverer.postDeadlineNotice(entry));
      watchLate(entry);
      return;
    }
    progress.follow(turn);
    poll(entry, { deadlineAt: turn.deadlineAt, pace: 'normal' }, () => ({
      type: 'deadline-passed',
      watchLate: lateWatchMs > 0,
    }));
  }

  function poll(
    entry: TurnInFlight,
    at: { deadlineAt: number; pace: 'normal' | 'late' },
    onDeadline: () => TurnEvent,
  ) {
    const { turn } = entry;
    poller.add(
      {
        id: turn.turnId,
        agentId: turn.agentId,
        sessionId: turn.sessionId ?? '',
        ...(turn.connection !== undefined ? { connection: turn.connection } : {}),
        teamId: turn.teamId,
        ...at,
      },
      {
        // A stop pressed on another replica reaches the holder through the store, at its next poll.
        onReport: async (report) =>
          step(entry, (await stopMarked(turn)) ? STOP : { type: 'status-report', report }),
        onError: (error) => onPollError(entry, error),
        onDeadline: async () => {
          await step(entry, onDeadline());
        },
      },
    );
  }

  function watchLate(entry: TurnInFlight): void {
    poll(entry, { deadlineAt: entry.turn.watchUntil ?? clock.now(), pace: 'late' }, () => ({
      type: 'watch-ended',
    }));
  }

  /** True when someone stopped the turn (a store failure reads as "not stopped": polling goes on). */
  function stopMarked(turn: TurnRecord): Promise<boolean> {
    return ledger.isStopped(turn.turnId).catch(() => false);
  }

  /**
   * Someone stopped a turn (the mark is in the store): if this instance follows it, the machine
   * ends it now. Called by the replica that heard the stop, and by lease renewal on the holder.
   */
  async function stopTurn(turnId: string): Promise<void> {
    const entry = tracked.get(turnId);
    if (entry) await step(entry, STOP);
  }

  async function onPollError(entry: TurnInFlight, error: unknown) {
    const code = deps.errorCode(error);
    metrics.statusPoll({ ok: false, errorCode: code });
    metrics.serviceError(code);
    return step(entry, { type: 'poll-failed', error, permanent: deps.isPermanentPollError(error) });
  }

  /** Feeds an event to the turn machine and carries out its effects; 'stop' ends polling. */
  async function step(entry: TurnInFlight, event: TurnEvent): Promise<'stop' | undefined> {
    if (event.type === 'status-report') metrics.statusPoll({ ok: true });
    const { state, effects } = transition(entry.state, event);
    entry.state = state;
    let verdict: 'stop' | undefined;
    for (const effect of effects) {
      if ((await perform(entry, effect)) === 'stop') verdict = 'stop';
    }
    return verdict;
  }

  /**
   * Carries out one effect. Every outcome stops polling: delivery goes on (and retries) on its own.
   * `schedule-poll` needs nothing: the scheduler polls again by itself unless a handler says 'stop'.
   */
  async function perform(entry: TurnInFlight, effect: TurnEffect): Promise<'stop' | undefined> {
    const { turn } = entry;
    const waitedMs = () => clock.now() - turn.startedAt;
    switch (effect.type) {
      case 'show-progress':
        entry.steps = effect.steps;
        progress.step(turn, effect.steps);
        return undefined;
      case 'deliver-answer':
      case 'deliver-outcome':
        return end(entry, { kind: 'report', report: effect.report, late: effect.late === true });
      case 'notify-poll-failed':
        return endWithNotice(entry, serviceError(turn, effect.error, 'polling stopped'), 'service_error');
      case 'notify-start-failed':
        return endWithNotice(entry, serviceError(turn, effect.error, 'run start failed'), 'service_error');
      case 'notify-lost':
        logger.warn({ threadKey: turn.threadKey, turnId: turn.turnId }, 'turn lost before its run started');
        return endWithNotice(entry, { kind: 'lost-turn' }, 'lost');
      case 'notify-deadline':
        if (effect.watching) return startLateWatch(entry);
        return endWithNotice(entry, { kind: 'deadline', waitedMs: waitedMs() }, 'deadline');
      case 'watch-late':
        watchLate(entry);
        return undefined;
      case 'notify-watch-ended':
        return endWithNotice(entry, { kind: 'watch-ended', waitedMs: waitedMs() }, 'deadline');
      case 'notify-stopped':
        logger.info(
          { threadKey: turn.threadKey, turnId: turn.turnId, sessionId: turn.sessionId },
          'run stopped',
        );
        poller.remove(turn.turnId);
        return endWithNotice(entry, { kind: 'stopped' }, 'stopped');
      default:
        return undefined;
    }
  }

  function endWithNotice(entry: TurnInFlight, notice: TurnNotice, outcome: TurnOutcome): 'stop' {
    return end(entry, { kind: 'notice', notice, outcome });
  }

  function end(entry: TurnInFlight, outcome: FinalOutcome): 'stop' {
    void background(deliverer.deliver(entry, outcome));
    return 'stop';
  }

  /** The service failed the turn: logged with a reference id the thread's notice repeats. */
  function serviceError(turn: TurnRecord, error: unknown, message: string): TurnNotice {
    const referenceId = deps.newReferenceId();
    const { threadKey, turnId, sessionId } = turn;
    logger.error({ err: error, threadKey, turnId, sessionId, referenceId }, message);
    return { kind: 'service-error', error, referenceId };
  }

  /** Runs `work` beside the caller, so stop() can wait for it; its failures are logged. */
  function background(work: Promise<void>): Promise<void> {
    const settled = work.catch((error: unknown) => logger.error({ err: error }, 'turn delivery failed'));
    running.add(settled);
    void settled.finally(() => running.delete(settled));
    return settled;
  }

  /** Past the deadline with a late watch: record it (a takeover keeps watching), tell the thread. */
  async function startLateWatch(entry: TurnInFlight): Promise<undefined> {
    const phase = storedPhase(entry.state) ?? 'late';
    entry.turn = { ...entry.turn, phase, watchUntil: clock.now() + lateWatchMs };
    // The record lets a takeover keep watching; with the store down this instance watches on anyway.
    await ledger
      .saveTurn(entry.turn)
      .catch((error: unknown) =>
        logger.warn({ err: error, turnId: entry.turn.turnId }, 'late watch not recorded; watching on'),
      );
    entry.noticeChain = background(deliverer.postDeadlineNotice(entry));
    return undefined;
  }

  /** The start or follow-up request of a turn (still `starting`) failed: say why, free the thread. */
  async function failStart(turn: TurnRecord, error: unknown): Promise<void> {
    metrics.serviceError(deps.errorCode(error));
    await step(newEntry(turn, false), { type: 'run-start-failed', error });
  }

  /**
   * A turn found still starting (or without a session id) after a restart: its run may never
   * have started. Another replica may have posted the notice before dying: look in the thread first.
   */
  async function abandonLostTurn(turn: TurnRecord): Promise<void> {
    await step(newEntry(turn, true), { type: 'start-lost' });
  }

  /** Stops polling and delivering a turn without touching its stored state (another instance took it). */
  function untrack(turnId: string): void {
    poller.remove(turnId);
    tracked.get(turnId)?.abort.abort(DONE_WAITING);
    tracked.delete(turnId);
    deliverer.forget(turnId);
    void progress.settle(turnId);
    metrics.turnsInFlight(tracked.size);
  }

  /** Ends every wait between delivery attempts and resolves once attempts under way settled. */
  async function stop(): Promise<void> {
    for (const entry of tracked.values()) entry.abort.abort();
    await Promise.all([...running]);
  }

  return {
    track,
    stopTurn,
    untrack,
    failStart,
    abandonLostTurn,
    stop,
    tracking: () => [...tracked.keys()],
    /** The record of a turn this instance polls or delivers (recovery saves it again if Redis lost it). */
    turnOf: (turnId: string): TurnRecord | undefined => tracked.get(turnId)?.turn,
  };
}

export type TurnDelivery = ReturnType<typeof createTurnDelivery>;
