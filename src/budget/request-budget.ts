/** `poll` is a run-status request; everything else is `other`. */
export type RequestKind = 'poll' | 'other';

export interface RequestBudgetOptions {
  /** Requests in flight at most, all kinds together. Default 50. */
  limit?: number;
  /** Share of `limit` that polls may hold, in (0, 1]. Default 0.8. */
  pollShare?: number;
  /** The account's budget across replicas: this process uses at most what it was granted. */
  account?: AccountShare;
}

/** This process's part of an account-wide budget (see account-share.ts). */
export interface AccountShare {
  /** Slots this process may hold now. */
  granted(): number;
  /** How many slots this process would use now (in flight and waiting); called on every change. */
  demand(slots: number): void;
  /** Calls `listener` whenever the grant changes. */
  onGrant(listener: () => void): void;
}

/** A held slot of the budget: the handle its holder gives back. */
export interface BudgetSlot {
  /** Frees the slot for the next waiter. Releasing twice frees it once. */
  release(): void;
}

/**
 * A cap on requests in flight to the agent service in this process (within an `account` share's
 * grant). Polls hold only part of it, so other requests find a slot while many threads are polled.
 */
export interface RequestBudget {
  /** A slot of this kind once one is free, FIFO per kind; an aborted `signal` leaves the queue, rejecting. */
  acquire(kind: RequestKind, signal?: AbortSignal): Promise<BudgetSlot>;
  readonly limit: number;
  /** floor(limit × pollShare), at least 1. */
  readonly pollSlots: number;
  inFlight(): number;
  inFlightPolls(): number;
  /** Highest `inFlight()` observed since creation. */
  maxInFlightSeen(): number;
  queued(): number;
}

type Waiter = { kind: RequestKind; start: () => void };

/** The caps: `limit` and the polls' share of it, and with an account share its grant too. */
function budgetCaps(options: RequestBudgetOptions) {
  const limit = options.limit ?? 50;
  const pollShare = options.pollShare ?? 0.8;
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be an integer ≥ 1: ${limit}`);
  if (!(pollShare > 0 && pollShare <= 1)) throw new RangeError(`pollShare must be in (0, 1]: ${pollShare}`);
  const pollSlots = Math.max(1, Math.floor(limit * pollShare));
  const account = options.account;
  if (!account) return { limit, pollSlots, cap: () => limit, pollCap: () => pollSlots };
  const cap = () => Math.min(limit, account.granted());
  const pollCap = () => Math.min(pollSlots, Math.max(1, Math.floor(cap() * pollShare)));
  return { limit, pollSlots, cap, pollCap };
}

/** Joins `waiting` until its `start`; an aborted `signal` takes it out, tells `onLeave` and rejects. */
function waitInLine(
  waiting: Waiter[],
  kind: RequestKind,
  signal: AbortSignal | undefined,
  onLeave: () => void,
) {
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      const index = waiting.indexOf(waiter);
      if (index >= 0) waiting.splice(index, 1);
      onLeave();
      reject(signal?.reason);
    };
    const waiter: Waiter = {
      kind,
      start: () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
    };
    waiting.push(waiter);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Creates a budget; throws RangeError on a limit below 1 or a share outside (0, 1]. */
export function createRequestBudget(options: RequestBudgetOptions = {}): RequestBudget {
  const { limit, pollSlots, cap, pollCap } = budgetCaps(options);
  const account = options.account;
  const waiting: Waiter[] = [];
  let inFlight = 0;
  let inFlightPolls = 0;
  let maxSeen = 0;

  const hasRoom = (kind: RequestKind) => inFlight < cap() && (kind === 'other' || inFlightPolls < pollCap());
  const tellDemand = account ? () => account.demand(inFlight + waiting.length) : () => {};

  const take = (kind: RequestKind) => {
    inFlight += 1;
    if (kind === 'poll') inFlightPolls += 1;
    maxSeen = Math.max(maxSeen, inFlight);
  };

  const drain = () => {
    // Scan in order, not only the head: a poll blocked by its share must not hold back an `other`.
    for (let index = 0; index < waiting.length && inFlight < cap(); ) {
      const waiter = waiting[index] as Waiter;
      if (!hasRoom(waiter.kind)) {
        index += 1;
        continue;
      }
      waiting.splice(index, 1);
      take(waiter.kind);
      waiter.start();
    }
  };
  account?.onGrant(drain);

  const slotOf = (kind: RequestKind): BudgetSlot => {
    let held = true;
    return {
      release: () => {
        if (!held) return;
        held = false;
        inFlight -= 1;
        if (kind === 'poll') inFlightPolls -= 1;
        drain();
        tellDemand();
      },
    };
  };

  return {
    limit,
    pollSlots,
    async acquire(kind: RequestKind, signal?: AbortSignal): Promise<BudgetSlot> {
      signal?.throwIfAborted();
      // Someone already waiting for this kind goes first (FIFO), even if a slot is free now.
      if (hasRoom(kind) && !waiting.some((waiter) => waiter.kind === kind)) {
        take(kind);
        tellDemand();
      } else {
        const started = waitInLine(waiting, kind, signal, tellDemand);
        tellDemand();
        await started;
      }
      return slotOf(kind);
    },
    inFlight: () => inFlight,
    inFlightPolls: () => inFlightPolls,
    maxInFlightSeen: () => maxSeen,
    queued: () => waiting.length,
  };
}
