import type { App } from '@slack/bolt';
import type { AdminCheck } from '../../../commands/access.js';
import type { Ratings } from '../../../conversation/feedback/ratings.js';
import { CONNECTION_FORM_CALLBACK_ID } from '../../views/connection-form.js';
import { COMMENT_VIEW_CALLBACK_ID } from '../../views/feedback.js';
import { type ConnectionFormPorts, connectionFormListener } from './connection-form-submitted.js';
import { feedbackCommentListener } from './feedback-comment.js';

/** View callback ids → listeners (Bolt matches a bare callback id on `view_submission`). */
export function registerViewListeners(
  app: App,
  ports: ConnectionFormPorts & { reactions: Ratings; admins: AdminCheck },
): void {
  app.view(COMMENT_VIEW_CALLBACK_ID, feedbackCommentListener(ports));
  app.view(CONNECTION_FORM_CALLBACK_ID, connectionFormListener(ports, ports.admins));
}
