/**
 * How a failed write to the thread is treated. The Slack edge classifies it (src/slack/slack-errors.ts),
 * so delivery needs no Slack error names:
 * - `transient`: Slack or the network is having a moment (rate limit, 5xx, timeout): try again later;
 * - `permanent`: Slack will keep refusing (not in the channel, archived, token revoked): give up now;
 * - `content`: Slack refused this rendering (too long, invalid blocks): a simpler one may pass.
 */
export type OutputFailureKind = 'transient' | 'permanent' | 'content';

/** A thread write that failed, with its class and the platform's own code (for logs and metrics). */
export class ThreadOutputError extends Error {
  constructor(
    readonly kind: OutputFailureKind,
    /** Slack's error name (`not_in_channel`) or a transport code (`http_500`, `network`). */
    readonly code: string,
    readonly method: string,
    options?: { cause?: unknown },
  ) {
    super(`${method} failed: ${code} (${kind})`, options);
    this.name = 'ThreadOutputError';
  }
}

/** The class of any error a ThreadOutput threw; an unclassified error is taken as transient. */
export function outputFailureKind(error: unknown): OutputFailureKind {
  return error instanceof ThreadOutputError ? error.kind : 'transient';
}

/** The code to log and count for an output error. */
export function outputFailureCode(error: unknown): string {
  return error instanceof ThreadOutputError ? error.code : 'unexpected';
}
