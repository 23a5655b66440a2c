import type { App } from '@slack/bolt';
import { CONNECTION_FORM_CALLBACK_ID } from '../../views/connection-form.js';
import { COMMENT_VIEW_CALLBACK_ID } from '../../views/feedback.js';
import { adminCheckOf } from '../admin-access.js';
import type { ListenerDeps } from '../listener-deps.js';
import { connectionFormListener } from './connection-form-submitted.js';
import { feedbackCommentListener } from './feedback-comment.js';

/** View callback ids → listeners. */
export function registerViewListeners(app: App, deps: ListenerDeps): void {
  app.view({ type: 'view_submission', callback_id: COMMENT_VIEW_CALLBACK_ID }, feedbackCommentListener(deps));
  app.view(
    { type: 'view_submission', callback_id: CONNECTION_FORM_CALLBACK_ID },
    connectionFormListener(deps, adminCheckOf(deps)),
  );
}
