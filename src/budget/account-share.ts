import type { Logger } from '../runtime/logger.js';
import type { AccountShare } from './request-budget.js';

/** What a replica asks of an account's shared budget. */
export interface SlotRequest {
  /** Slots wanted in all: replaces what the holder held (ask at least for what is in flight). */
  want: number;
  /** The account's slots across every holder (AGENT_ACCOUNT_CONCURRENCY). */
  limit: number;
  /** How long the grant lasts unless leased again: a dead holder's slots fall out after it. */
  ttlMs: number;
}

/** The store's slot leases, in memory and in Redis: one record per account, holder → count and expiry. */
export interface AccountSlotLeases {
  /** Sets `holder`'s slots to at most `want`, within what the live others leave; resolves with the grant. */
  leaseAccountSlots(account: string, holder: string, request: SlotRequest): Promise<number>;
  /** Gives every slot of `holder` back (a clean shutdown). */
  releaseAccountSlots(account: string, holder: string): Promise<void>;
}

export interface AccountShareOptions {
  leases: AccountSlotLeases;
  /** The account's key in the store (never a token: see accountKeyOf in connections/agent-api-factory.ts). */
  account: string;
  /** This process's name among the holders; unique per process. */
  holder: string;
  /** AGENT_ACCOUNT_CONCURRENCY: slots of the account across all holders. */
  accountLimit: number;
  /** AGENT_MAX_IN_FLIGHT: this process never asks for more. */
  processLimit: number;
  /** How long a grant lasts without renewal. */
  ttlMs: number;
  logger?: Logger | undefined;
}

/** An account share that renews itself until stopped. */
export interface LeasedAccountShare extends AccountShare {
  /** Stops renewing and gives the slots back. */
  stop(): Promise<void>;
}

/**
 * This process's slots of an account's budget, leased from the store, renewed while used, given
 * back at shutdown, expiring when a replica dies. The hot path only compares numbers: the store is
 * asked when demand outgrows the grant (with headroom) and on a renewal timer that also shrinks it.
 */
export function createAccountShare(options: AccountShareOptions): LeasedAccountShare {
  const { leases, account, holder, accountLimit, processLimit, ttlMs, logger } = options;
  // Headroom asked for above the demand, so a growing load needs few lease calls.
  const batch = Math.max(1, Math.ceil(processLimit / 10));
  const renewMs = Math.max(100, Math.floor(ttlMs / 3));
  const retryMs = Math.max(50, Math.floor(ttlMs / 10));
  let granted = 0;
  let current = 0;
  let peak = 0;
  let pending: Promise<void> | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  let failing = false;
  /** The last lease got less than it asked for (or failed). */
  let full = false;
  const listeners: Array<() => void> = [];

  function lease(): Promise<void> {
    if (pending || stopped) return pending ?? Promise.resolve();
    const want = peak === 0 ? 0 : Math.min(processLimit, peak + batch);
    pending = leases
      .leaseAccountSlots(account, holder, { want, limit: accountLimit, ttlMs })
      .then((grant) => {
        failing = false;
        full = grant < want;
        if (stopped || grant === granted) return;
        granted = grant;
        for (const listener of listeners) listener();
      })
      .catch((error: unknown) => {
        // Keep the last grant: while the store cannot be reached, no other replica can take more either.
        if (!failing)
          logger?.warn({ err: error, account }, 'account budget not leased; keeping the last grant');
        failing = true;
        full = true;
      })
      .finally(() => {
        pending = undefined;
        peak = current;
        if (stopped || current <= granted || granted >= processLimit || retry) return;
        // Demand grew meanwhile: ask again now; the account was full (or the store failed): shortly.
        if (!full) void lease();
        else
          retry = setTimeout(() => {
            retry = undefined;
            void lease();
          }, retryMs).unref();
      });
    return pending;
  }

  const renewal = setInterval(() => {
    if (granted > 0 || peak > 0) void lease();
  }, renewMs).unref();

  return {
    granted: () => granted,
    demand(slots) {
      current = slots;
      if (slots > peak) peak = slots;
      if (slots > granted && granted < processLimit && !pending && !retry) void lease();
    },
    onGrant(listener) {
      listeners.push(listener);
    },
    async stop() {
      stopped = true;
      clearInterval(renewal);
      clearTimeout(retry);
      await pending;
      granted = 0;
      await leases.releaseAccountSlots(account, holder).catch((error: unknown) => {
        logger?.warn({ err: error, account }, 'account budget not given back; it expires on its own');
      });
    },
  };
}
