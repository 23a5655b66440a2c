import type { App } from '@slack/bolt';
import { COMMENT_VIEW_CALLBACK_ID } from '../../views/feedback.js';
import type { ListenerDeps } from '../index.js';
import { feedbackCommentListener } from './feedback-comment.js';

/** View callback ids → listeners. */
export function registerViewListeners(app: App, deps: ListenerDeps): void {
  app.view({ type: 'view_submission', callback_id: COMMENT_VIEW_CALLBACK_ID }, feedbackCommentListener(deps));
}
