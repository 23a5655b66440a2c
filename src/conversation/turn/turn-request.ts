import type { SharedFile } from '../context/file-context.js';
import type { Tenant } from '../tenancy.js';
import type { ViewedPlace } from '../viewed-context.js';

/* A turn request and what became of it: turn-intake.ts and run-start.ts both use them. */

/** A person's message that the Slack layer classified as a possible turn. */
export interface TurnRequest {
  /**
   * The installation the message came in through, made by its listener (DESIGN "One installation,
   * one tenant"): its bindings and connections serve the turn.
   */
  tenant: Tenant;
  /** The app's own workspace (the thread key's team), never the envelope's. */
  teamId: string;
  channel: string;
  /** The thread the answer goes to (the message's own ts for a new thread). */
  threadTs: string;
  /** The message itself. */
  sourceTs: string;
  userId: string;
  /** The sender's workspace as the event names it (undefined when it names none). */
  workspaceId?: string | undefined;
  prompt: string;
  /** Files shared with the message: text files are read as context (DESIGN "Files are context"). */
  files?: SharedFile[] | undefined;
  /**
   * True when the person addressed the bot (a mention or a DM). False for a thread reply without
   * a mention: only a thread the bot has answered in takes it.
   */
  mentioned: boolean;
  /**
   * A top-level message in an answer channel (`/agent channel answer-all`): it starts a run like a
   * mention, but an outsider who did not address the bot is not told why it stays quiet.
   */
  answerAll?: boolean | undefined;
  /**
   * A DM question's `app_context`: the channel or thread the person was looking at when asking
   * (DESIGN "What the person is looking at"; see viewed-context.ts).
   */
  viewing?: ViewedPlace | undefined;
  /** An alert investigation (src/alerts/): when the alert arrived. */
  alertAt?: number | undefined;
}

/** What became of a turn request: started, or why not. */
export type TurnRequestResult =
  | 'started'
  | 'duplicate'
  | 'no-session'
  | 'busy'
  | 'refused'
  | 'outsider'
  | 'over-limit'
  | 'start-failed'
  | 'failed';
