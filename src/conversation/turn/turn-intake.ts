import { createWorkUnderWay } from '../../runtime/work-under-way.js';
import type { AnswerPlacement } from '../access/answer-place.js';
import type { OutsiderReason } from '../access/audience.js';
import { type Spending, unlimitedSpending } from '../access/spending.js';
import type { InsideCheck } from '../access/who-is-inside.js';
import type { TurnContext } from '../context/turn-context.js';
import type { IoGate } from '../polling/io-gate.js';
import type { ConversationStore } from '../ports.js';
import { tenantName } from '../tenancy.js';
import { threadKey as makeThreadKey } from '../thread-key.js';
import type { Refusal, RefusalDetail, ThreadOutput } from '../thread-output-port.js';
import { deliverWhileTransient } from './outcome-retry.js';
import { createRunStart, newFlatId, type RunStartDeps } from './run-start.js';
import type { TurnLedger } from './turn-ledger.js';
import type { ThreadRecord } from './turn-records.js';
import type { TurnRequest, TurnRequestResult } from './turn-request.js';

export interface TurnIntakeDeps extends Omit<RunStartDeps, 'ledger' | 'refuseBusy'> {
  store: ConversationStore;
  /** The agent, thread context and time range of a turn (see turn-context.ts). */
  context: Pick<TurnContext, 'prepare'>;
  /** Where the answer goes when outsiders can read the conversation (see answer-place.ts). */
  placement: AnswerPlacement;
  output: Pick<ThreadOutput, 'refuse' | 'removeProgress'>;
  settings: RunStartDeps['settings'] & { instanceId: string };
  /** Only people inside the organisation start turns (DESIGN "Who is inside"). */
  inside: InsideCheck;
  /** One turn start per turn of the event loop (io-gate.ts): a burst of mentions delays no ack. */
  gate?: IoGate;
  /** Runs per person per rolling hour (see spending.ts). @default no limit */
  spending?: Spending;
  /** The one writer of the turn's records and locks (made once in the composition root). */
  ledger: TurnLedger;
}

/** A refusal is retried while Slack fails transiently, but no longer than this: later it only confuses. */
const REFUSAL_GIVE_UP_MS = 10 * 60 * 1000;

/**
 * Turns a classified Slack message into one agent turn: dedupe, who may ask, the cheap refusals,
 * placement (where the answer goes), then run start (run-start.ts). A message not taken is told why.
 */
export function createTurnIntake(deps: TurnIntakeDeps) {
  const { store, clock, logger, ledger } = deps;
  const newId = deps.newId ?? newFlatId;
  const { tell, stop } = createRefusals(deps);
  const { place } = createPlacement(deps, tell);
  const runStart = createRunStart({
    ...deps,
    ledger,
    newId,
    refuseBusy: (request, workingForMs) => tell(request, 'busy', { workingForMs }),
  });

  /** Failures before the run starts (the store not answering) are logged and told to the sender. */
  async function handle(request: TurnRequest): Promise<TurnRequestResult> {
    try {
      await deps.gate?.pass();
      return await take(request);
    } catch (error) {
      logger.error(
        { err: error, channel: request.channel, ts: request.sourceTs },
        'could not take a message',
      );
      tell(request, 'unavailable');
      return 'failed';
    }
  }

  /**
   * Who may ask, then the cheap refusals before any Slack call (DESIGN "Limits before reading").
   * Run start checks the busy lock again, atomically.
   */
  async function take(asked: TurnRequest): Promise<TurnRequestResult> {
    const askedKey = makeThreadKey(asked.teamId, asked.channel, asked.threadTs);
    const askedThread = await store.getThread(askedKey);
    // A thread the bot has answered in (even with a notice, before any session) takes replies.
    if (!asked.mentioned && !asked.answerAll && !askedThread) return 'no-session';
    if (!(await firstDelivery(ledger, asked, newId))) return 'duplicate';
    if (!(await isInside(deps, asked, tell))) return 'outsider';
    if (asked.prompt.trim() === '') {
      tell(asked, 'empty-prompt');
      return 'refused';
    }
    const holder = await ledger.turnHolding(askedKey);
    if (holder) {
      tell(asked, 'busy', { workingForMs: clock.now() - holder.startedAt });
      return 'busy';
    }
    const spent = await (deps.spending ?? unlimitedSpending).take(asked.userId);
    if (!spent.ok) {
      tell(asked, spent.refusal, spent.detail);
      return 'over-limit';
    }
    const placed = await place(asked, askedThread);
    if (!placed) {
      await spent.giveBack();
      return 'refused';
    }
    return runStart.begin(placed.request, placed.thread, placed.prepared, spent);
  }

  /** Tells the sender (once per message) why their message does not become a turn. */
  async function refuse(request: TurnRequest, refusal: Refusal): Promise<TurnRequestResult> {
    if (!(await firstDelivery(ledger, request, newId))) return 'duplicate';
    tell(request, refusal);
    return 'refused';
  }

  return {
    handle,
    refuse,
    /** Ends the retries of refusals still waiting for Slack (shutdown); resolves once they settled. */
    stop,
  };
}

type Tell = (request: TurnRequest, refusal: Refusal, detail?: RefusalDetail) => void;

/** Slack delivers a mention twice and retries events: only the first sighting counts, per installation. */
function firstDelivery(ledger: TurnLedger, request: TurnRequest, newId: () => string): Promise<boolean> {
  return ledger.markSeen(tenantName(request.tenant.key, request.channel), request.sourceTs, newId());
}

/** An outsider who addressed the bot is told why it stays quiet; an unaddressed reply is only logged. */
async function isInside(deps: Pick<TurnIntakeDeps, 'inside' | 'logger'>, request: TurnRequest, tell: Tell) {
  const { userId, workspaceId, channel, sourceTs } = request;
  const verdict = await deps.inside.check({ userId, workspaceId });
  if (verdict.inside) return true;
  const fields = { channel, ts: sourceTs, userId, reason: verdict.reason };
  deps.logger.info(fields, 'message from outside the organisation refused');
  if (request.mentioned) tell(request, verdict.refusal);
  return false;
}

/** The refusals told to senders, retried beside the caller until they land or the bot stops. */
function createRefusals(deps: Pick<TurnIntakeDeps, 'output' | 'clock' | 'logger'>) {
  const { clock, logger } = deps;
  const stopping = new AbortController();
  const refusalsUnderWay = createWorkUnderWay();

  /** Tells a sender why their message was not taken, beside the caller, retried like an outcome. */
  function tell(request: TurnRequest, refusal: Refusal, detail?: RefusalDetail): void {
    const { teamId, channel, threadTs, userId, sourceTs } = request;
    const work = deliverWhileTransient(
      () => deps.output.refuse({ teamId, channel, threadTs }, userId, sourceTs, refusal, detail),
      { clock, signal: stopping.signal, giveUpAfterMs: REFUSAL_GIVE_UP_MS },
    ).then((result) => {
      if (!result.ok) logger.warn({ channel, refusal, code: result.code }, 'refusal not delivered');
    });
    refusalsUnderWay.track(work);
  }

  async function stop(): Promise<void> {
    stopping.abort();
    await refusalsUnderWay.settled();
  }

  return { tell, stop };
}

/** Where a taken turn's answer goes: its context, and the asker's DM when outsiders could read it. */
function createPlacement(deps: Pick<TurnIntakeDeps, 'context' | 'placement'>, tell: Tell) {
  /** A turn's context and where its answer goes; undefined when refused (the asker told why). */
  async function place(asked: TurnRequest, askedThread: ThreadRecord | undefined) {
    const prepared = await deps.context.prepare(asked, askedThread);
    if (prepared.kind === 'refused') {
      tell(asked, prepared.refusal);
      return undefined;
    }
    const placement = await deps.placement.decide(asked.channel);
    if (placement.kind === 'refused') {
      tell(asked, 'outsider-audience', { audience: placement.reason });
      return undefined;
    }
    const placed =
      placement.kind === 'private'
        ? await movePrivately(asked, placement.reason)
        : { request: asked, thread: askedThread };
    return placed && { ...placed, prepared };
  }

  /**
   * Moves the question to the asker's DM (OUTSIDER_AUDIENCE=dm): the turn lives in the private thread
   * from now on. Undefined (the asker told why) when Slack would not open the DM.
   */
  async function movePrivately(asked: TurnRequest, reason: OutsiderReason) {
    const { teamId, channel, threadTs, sourceTs } = asked;
    const origin = { teamId, channel, threadTs, sourceTs };
    const moved = await deps.placement.moveToPrivate(origin, asked.userId, asked.prompt, reason);
    if (!moved.moved) {
      tell(asked, 'private-thread-failed', { audience: reason });
      return undefined;
    }
    const where = moved.where;
    const request = { ...asked, channel: where.channel, threadTs: where.threadTs, sourceTs: where.threadTs };
    return { request, thread: undefined };
  }

  return { place };
}

export type TurnIntake = ReturnType<typeof createTurnIntake>;
