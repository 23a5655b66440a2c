import type { App, BlockButtonAction, BlockFeedbackButtonsAction } from '@slack/bolt';
import { VIEW_IN_EXPLORE_ACTION_ID } from '../../views/alert-card.js';
import { ADD_COMMENT_ACTION_ID, FEEDBACK_ACTION_ID } from '../../views/feedback.js';
import type { ListenerDeps } from '../listener-deps.js';
import { addCommentListener } from './add-comment.js';
import { feedbackButtonsListener } from './feedback-buttons.js';
import { viewInExploreListener } from './view-in-explore.js';

/** Block action ids → listeners. */
export function registerActionListeners(app: App, deps: ListenerDeps): void {
  app.action<BlockFeedbackButtonsAction>(FEEDBACK_ACTION_ID, feedbackButtonsListener(deps));
  app.action<BlockButtonAction>(ADD_COMMENT_ACTION_ID, addCommentListener(deps));
  app.action<BlockButtonAction>(VIEW_IN_EXPLORE_ACTION_ID, viewInExploreListener());
}
