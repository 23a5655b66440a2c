import type { PollEntry, PollHandlers } from './poll-contract.js';

/** An entry being polled, and where it is in its round of request, handler and wait. */
export class Tracked {
  /** `gone` once it left the roster (removed, replaced, expired, stopped): never served again. */
  phase: 'ready' | 'parked' | 'polling' | 'handling' | 'settling' | 'gone' = 'ready';
  lastPollAt = 0;
  errors = 0;
  /** The deadline passed while a handler ran: expire once it returns. */
  deadlineDue = false;
  controller: AbortController | undefined;

  constructor(
    readonly entry: PollEntry,
    readonly handlers: PollHandlers,
  ) {}
}

export const isGone = (t: Tracked): boolean => t.phase === 'gone';

/** Who is being polled: one entry per turn id; an entry that leaves has its request aborted. */
export function createPollRoster() {
  const entries = new Map<string, Tracked>();
  let closed = false;

  function drop(t: Tracked, reason: string): void {
    if (entries.get(t.entry.id) === t) entries.delete(t.entry.id);
    t.phase = 'gone';
    if (t.controller) t.controller.abort(new DOMException(reason, 'AbortError'));
  }

  return {
    /** Enters an entry, replacing an earlier one of its id. Throws once closed. */
    join(entry: PollEntry, handlers: PollHandlers): Tracked {
      if (closed) throw new Error('poll scheduler is stopped');
      const existing = entries.get(entry.id);
      if (existing) drop(existing, 'replaced');
      const t = new Tracked({ ...entry }, handlers);
      entries.set(entry.id, t);
      return t;
    },
    drop,
    remove(id: string): boolean {
      const t = entries.get(id);
      if (t) drop(t, 'removed');
      return t !== undefined;
    },
    has: (id: string) => entries.has(id),
    ids: () => [...entries.keys()],
    size: () => entries.size,
    /** Drops every entry; later joins throw. */
    close(reason: string): void {
      closed = true;
      for (const t of [...entries.values()]) drop(t, reason);
    },
  };
}
