/** One alert's claims (dedupe, cooldown) as a handle carrying its own token; a repeat waits for the ts. */
import { createHash } from 'node:crypto';
import type { Clock } from '../runtime/clock.js';
import { normaliseTitle } from './alert-payload.js';
import type { ClaimStore } from './alert-ports.js';
import { parseJson } from './template-body.js';

/** How long a repeat waits for the first alert's card ts (a concurrent first is still posting). */
const PENDING_WAIT_MS = 3_000;
const PENDING_STEP_MS = 100;

export interface AlertClaimHandle {
  /** Takes `name` for this alert, or tells the ts of the alert that holds it. */
  take(name: string, ttlMs: number): Promise<{ taken: true } | { taken: false; ts: string | undefined }>;
  /** Records the ts this alert settled on in `names` (default: every claim it holds). */
  settle(ts: string | undefined, names?: string[]): Promise<void>;
  /** Gives one claim back (default: all of them), so a retry or a repeat may take it. */
  giveBack(names?: string[]): Promise<void>;
}

export function createAlertClaims(deps: { store: ClaimStore; clock: Clock; newId: () => string }) {
  const { store, clock } = deps;

  /** The ts a claim settled on; a claim still pending is read again for a short while. */
  async function settledTs(name: string, held: string): Promise<string | undefined> {
    let value: string | undefined = held;
    for (let waited = 0; ; waited += PENDING_STEP_MS) {
      const ts = tsOf(value);
      if (ts || value === undefined || waited >= PENDING_WAIT_MS) return ts;
      await clock.sleep(PENDING_STEP_MS);
      value = await store.readClaim(name);
    }
  }

  /** A handle for one alert; `postedTs`: its ts is known from the start (an integration's post). */
  function open(postedTs?: string): AlertClaimHandle {
    const token = JSON.stringify({ id: deps.newId(), ts: postedTs });
    const held: string[] = [];
    return {
      async take(name, ttlMs) {
        const result = await store.claim(name, token, ttlMs);
        if (!result.claimed) return { taken: false, ts: await settledTs(name, result.value) };
        held.push(name);
        return { taken: true };
      },
      async settle(ts, names = held) {
        await Promise.all(names.map((name) => store.settleClaim(name, token, JSON.stringify({ ts }))));
      },
      async giveBack(names = [...held]) {
        await Promise.all(names.map((name) => store.releaseClaim(name, token).catch(() => undefined)));
        for (const name of names) held.splice(held.indexOf(name), 1);
      },
    };
  }

  return { open };
}

function tsOf(value: string | undefined): string | undefined {
  const ts = (value ? (parseJson(value) as { ts?: unknown } | null | undefined) : undefined)?.ts;
  return typeof ts === 'string' ? ts : undefined;
}

/** Vendor text (long, holding anything) hashed into a fixed-length claim name part. */
const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 32);

/** The dedupe claim of one alert event (or one Slack message) in one channel. */
export const dedupeClaimName = (channel: string, eventKey: string): string =>
  `alert-event:${channel}:${digest(eventKey)}`;

/** The cooldown claim of one title in one channel. */
export const cooldownClaimName = (channel: string, title: string): string =>
  `alert-cooldown:${channel}:${digest(normaliseTitle(title))}`;
