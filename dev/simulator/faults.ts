/** Fault switches and the seeded PRNG that makes statusErrorRate repeatable. */
import type { SimResponse } from './http-io.js';
import { errorResponse } from './http-io.js';
import type { ErrorBodyShape, SimulatorFaults } from './types.js';

/** A fresh set of switches, all off unless given. */
export function createFaults(initial: Partial<SimulatorFaults> = {}): SimulatorFaults {
  return { maintenance: false, statusErrorRate: 0, statusLatencyMs: 0, ...initial };
}

/** Turns every switch off, in place, so callers holding the object see it. */
export function clearFaults(faults: SimulatorFaults): void {
  Object.assign(faults, createFaults());
  faults.failPutForAccount = undefined;
  faults.malformed = undefined;
  faults.failPutAfterApplyForAccount = undefined;
  faults.failListingsAfter = undefined;
  faults.createWithoutToken = undefined;
  faults.createAnswersEmpty = undefined;
  faults.listingOmits = undefined;
  faults.consumptionPlanAccount = undefined;
  faults.specSpelling = undefined;
  faults.legacyExport = undefined;
  faults.exportAnswersEmpty = undefined;
  faults.whoamiAnswersEmpty = undefined;
  faults.errorBodyShape = undefined;
  faults.agentTokenAs = undefined;
  faults.feedbackRecordDrift = undefined;
}

/** mulberry32: small, fast, and the same sequence for the same seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A status-poll failure: a 500 in the service's shape, or a gateway's 502 HTML page. */
export function statusFailure(random: () => number): SimResponse {
  if (random() < 0.5) return errorResponse(500, 'INTERNAL_ERROR', 'Simulated internal error');
  return {
    status: 502,
    text: '<html><head><title>502 Bad Gateway</title></head><body>502 Bad Gateway</body></html>',
    contentType: 'text/html',
  };
}

/** The body that breaks the seed's shapes, served as a 200 for `faults.malformed` paths. */
export function malformedResponse(): SimResponse {
  return { status: 200, text: '{"status":42}' };
}

/**
 * An error response's body in another of the service's shapes. Only bodies in the usual
 * `{errorCode, message, …}` shape are rewritten (whoami's `{code, message}` is its own).
 */
export function reshapeErrorBody(response: SimResponse, shape: ErrorBodyShape | undefined): SimResponse {
  if (shape === undefined || shape === 'standard' || response.status < 400) return response;
  const body = response.body as { errorCode?: unknown; message?: unknown } | undefined;
  if (typeof body !== 'object' || body === null || typeof body.errorCode !== 'string') return response;
  const message = String(body.message);
  const reshaped =
    shape === 'message' ? { message } : shape === 'errorMessage' ? { errorMessage: message } : message;
  return { ...response, body: reshaped };
}
