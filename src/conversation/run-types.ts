// What a run is to the service; a leaf, as both turn/turn-records.ts and ports.ts (which uses them) need it.

/** Statuses the service reports for a run. `loading` and `timeout` mean "poll again". */
export type RunStatus = 'loading' | 'done' | 'error' | 'canceled' | 'timeout';
export const TERMINAL_STATUSES: ReadonlySet<RunStatus> = new Set(['done', 'error', 'canceled']);

export interface RunStatusReport {
  status: RunStatus;
  message?: string | undefined;
  totalSteps?: number | undefined;
}

/** What the stale rule remembers of a final report (see report-digest.ts): never the answer's text. */
export interface ReportDigest {
  status: RunStatus;
  /** `totalSteps`, 0 when the report had none. */
  totalSteps: number;
  /** SHA-256 (hex) of the message, of '' when the report had none. */
  messageSha256: string;
}

/** What a turn sends to the service as `context`. */
export interface RunInput {
  message: string;
  additionalContext?: string | undefined;
  timerange?: TimeRange | undefined;
}

/** The service's `context.timerange`: ISO 8601 UTC timestamps. */
export interface TimeRange {
  startTime: string;
  endTime: string;
}
