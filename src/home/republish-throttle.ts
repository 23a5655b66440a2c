/**
 * At most one home publish per person per interval (DESIGN "App Home"): a request inside the
 * interval is coalesced into one publish at its end; otherwise it publishes at once.
 */
export function createRepublishThrottle(options: {
  /** Default 10 s. */
  intervalMs?: number;
  publish(userId: string): Promise<void>;
  /** Default Date.now. */
  now?: () => number;
}) {
  const intervalMs = options.intervalMs ?? 10_000;
  const now = options.now ?? Date.now;
  /** When each person's home was last published from here; pruned once the interval passed. */
  const lastAt = new Map<string, number>();
  const pending = new Map<string, NodeJS.Timeout>();
  let stopped = false;

  function fire(userId: string): void {
    pending.delete(userId);
    if (stopped) return;
    lastAt.set(userId, now());
    void options.publish(userId).catch(() => undefined);
  }

  /** Publishes now, or once at the end of the person's interval; extra requests meanwhile coalesce. */
  function request(userId: string): void {
    if (stopped || pending.has(userId)) return;
    for (const [user, at] of lastAt) if (now() - at >= intervalMs) lastAt.delete(user);
    const last = lastAt.get(userId);
    if (last === undefined) {
      fire(userId);
      return;
    }
    const timer = setTimeout(() => fire(userId), Math.max(0, last + intervalMs - now()));
    timer.unref();
    pending.set(userId, timer);
  }

  /** A publish that happened anyway (the person opened the tab) starts the person's interval. */
  function published(userId: string): void {
    lastAt.set(userId, now());
  }

  function stop(): void {
    stopped = true;
    for (const timer of pending.values()) clearTimeout(timer);
    pending.clear();
  }

  return { request, published, stop };
}
