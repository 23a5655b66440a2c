import type { ContextRequest } from '../context/turn-context.js';
import type { ViewedPlace } from '../viewed-context.js';

/** A person's message that the Slack layer classified as a possible turn. */
export interface TurnRequest extends ContextRequest {
  /** The app's own workspace (the thread key's team), never the envelope's. */
  teamId: string;
  /** The sender's workspace as the event names it (undefined when it names none). */
  workspaceId?: string | undefined;
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
