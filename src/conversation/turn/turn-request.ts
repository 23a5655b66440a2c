import type { SharedFile } from '../context/file-context.js';
import type { Tenant } from '../tenancy.js';
import type { ViewedPlace } from '../viewed-context.js';

/** A person's message that the Slack layer classified as a possible turn. */
export interface TurnRequest {
  /** The installation the message came in through (DESIGN "One installation, one tenant"). */
  tenant: Tenant;
  /** The app's own workspace (the thread key's team), never the envelope's. */
  teamId: string;
  channel: string;
  /** The thread the answer goes to (the message's own ts for a new thread). */
  threadTs: string;
  sourceTs: string;
  userId: string;
  /** The sender's workspace as the event names it (undefined when it names none). */
  workspaceId?: string | undefined;
  prompt: string;
  /** Files shared with the message: text files are read as context (DESIGN "Files are context"). */
  files?: SharedFile[] | undefined;
  /** A mention or a DM; false for a bare thread reply (only a thread the bot answered in takes it). */
  mentioned: boolean;
  /** A top-level message in an answer channel (`/agent channel answer-all`): a turn, no outsider notice. */
  answerAll?: boolean | undefined;
  /** A DM question's `app_context`: where the person was looking (DESIGN "What the person is looking at"). */
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
