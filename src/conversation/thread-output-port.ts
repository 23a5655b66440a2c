import type { OutsiderReason } from './access/audience.js';
import type { FileReport } from './context/file-context.js';
import type { Refusal } from './refusal.js';
import type { TimeRange } from './run-types.js';
import type { TurnReceipt } from './turn/turn-receipt.js';

/** Where in Slack a turn's output goes. */
export interface ThreadLocation {
  teamId: string;
  channel: string;
  threadTs: string;
}

export interface Progress {
  steps: number;
  elapsedMs: number;
}

/** Everything a turn can end with besides an answer. */
export type TurnNotice =
  | { kind: 'run-error'; reason: string }
  | { kind: 'canceled' }
  /** The turn deadline passed; `watchForMs` > 0: the run is still watched that much longer. */
  | { kind: 'deadline'; waitedMs: number; watchForMs?: number | undefined }
  /** The late watch ended too: nothing more is posted unless the person asks again. */
  | { kind: 'watch-ended'; waitedMs: number }
  | { kind: 'service-error'; error: unknown; referenceId: string }
  | { kind: 'lost-turn' }
  /** Someone stopped the run: the agent may still finish on its side; its answer is not posted. */
  | { kind: 'stopped' }
  /** The conversation became outsider-readable meanwhile and the answer could not go to a DM. */
  | { kind: 'withheld'; reason: OutsiderReason };

/** What the answer's footer tells besides the answer itself. */
export type AnswerNote = 'files-not-sent';

export type { Refusal } from './refusal.js';

/** The thread as the conversation layer sees it; src/slack/ implements it and decides the rendering. */
export interface ThreadOutput {
  /** Posts the progress message tagged with the turn id (a successor finds it); undefined when refused. */
  postProgress(where: ThreadLocation, progress: Progress, turnId: string): Promise<string | undefined>;
  updateProgress(where: ThreadLocation, ts: string, progress: Progress): Promise<void>;
  removeProgress(where: ThreadLocation, ts: string): Promise<void>;
  /**
   * Posts the whole answer; returns every part's ts. `onPart` is awaited after each accepted part.
   * Failures are {@link ThreadOutputError}s (turn/output-error.ts), as for every method.
   */
  postAnswer(
    where: ThreadLocation,
    answer: AnswerToPost,
    onPart?: (ts: string) => Promise<void>,
  ): Promise<string[]>;
  /** `receipt`: the notice ends (or pauses) a turn, and begins with its receipt (a task card). */
  postNotice(
    where: ThreadLocation,
    notice: TurnNotice,
    turnId: string,
    style?: OutputStyle,
    receipt?: TurnReceipt,
  ): Promise<void>;
  /** Tells only `userId` why their message was not taken, next to `sourceTs`. */
  refuse(
    where: ThreadLocation,
    userId: string,
    sourceTs: string,
    refusal: Refusal,
    detail?: RefusalDetail,
  ): Promise<void>;
  /** What of this turn is already in the thread (by metadata), after a takeover or failed post: one read. */
  findTurnMessages(where: ThreadLocation, turnId: string): Promise<TurnMessages>;
}

/** A turn's messages found in its thread. */
export interface TurnMessages {
  /** The ts of every answer part; empty unless the answer is complete (a partial one is posted again). */
  answer: string[];
  notices: Array<TurnNotice['kind']>;
  progress: string[];
}

/** `plain`: the fallback rendering (text only) after Slack refused the rich one. */
export type OutputStyle = 'rich' | 'plain';

export interface AnswerToPost {
  markdown: string;
  turnId: string;
  style?: OutputStyle | undefined;
  /** Set when the answer came after the turn deadline: how long the agent took. */
  lateAfterMs?: number | undefined;
  notes?: AnswerNote[] | undefined;
  /** The files the turn saw, named in the footer: sent, or not and why. */
  files?: FileReport | undefined;
  timerange?: TimeRange | undefined;
  /** The steps, time taken and window, shown first as the answer's receipt (a task card). */
  receipt?: TurnReceipt | undefined;
}

/** What a refusal can say besides its reason. */
export interface RefusalDetail {
  /** For `busy`: how long the agent has been working on the thread's turn. */
  workingForMs?: number | undefined;
  /** For `outsider-audience` and `private-thread-failed`: why the conversation is outsider-readable. */
  audience?: OutsiderReason | undefined;
  /** For `over-limit`: when the sender can ask again (epoch ms), the hourly limit, their zone (else UTC). */
  retryAt?: number | undefined;
  limit?: number | undefined;
  timeZone?: string | undefined;
}
