/** Time, injected so polling and deadlines can be tested without fake timers. */
export interface Clock {
  now(): number;
  /** Resolves after `ms`, or rejects with the signal's reason when it aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The reason to abort with when nobody reads it (`abort()` builds a DOMException and stack each time). */
export const DONE_WAITING: DOMException = new DOMException('The operation was aborted', 'AbortError');

/** The abort reason's stand-in when a signal carries none. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted', 'AbortError');
}

/** Wall-clock time and `setTimeout` sleeps; what the process uses outside tests. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortReason(signal));
        return;
      }
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(abortReason(signal as AbortSignal));
      };
      const delay = Math.max(0, ms);
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, delay);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  },
};
