import { type Clock, DONE_WAITING } from '../../runtime/clock.js';

// setTimeout overflows above this and fires at once; longer waits just wake early and re-arm.
const MAX_SLEEP_MS = 2_147_483_647;
const noop = (): void => {};

/** Exactly one clock sleeper, for the earliest of many wake-ups: no timer per turn or per request. */
export function createWakeTimer(clock: Clock, onWake: () => void) {
  let wake: { at: number; controller: AbortController } | undefined;

  function disarm(): void {
    wake?.controller.abort(DONE_WAITING);
    wake = undefined;
  }

  /** Wakes at `at` (never when infinite), unless a sleeper already wakes sooner. */
  function armAt(at: number): void {
    if (at === Number.POSITIVE_INFINITY) {
      disarm();
      return;
    }
    if (wake !== undefined && wake.at <= at) return;
    disarm();
    const now = clock.now();
    const controller = new AbortController();
    const ms = Math.min(Math.max(0, at - now), MAX_SLEEP_MS);
    wake = { at: now + ms, controller };
    clock.sleep(ms, controller.signal).then(() => {
      if (wake?.controller !== controller) return;
      wake = undefined;
      onWake();
    }, noop);
  }

  return { armAt, disarm };
}
