import type { App, BlockButtonAction, BlockFeedbackButtonsAction } from '@slack/bolt';
import type { Ratings } from '../../../conversation/feedback/ratings.js';
import type { Logger } from '../../../runtime/logger.js';
import { VIEW_IN_EXPLORE_ACTION_ID } from '../../views/alert-card.js';
import { ADD_COMMENT_ACTION_ID, FEEDBACK_ACTION_ID } from '../../views/feedback.js';
import { addCommentListener } from './add-comment.js';
import { feedbackButtonsListener } from './feedback-buttons.js';
import { viewInExploreListener } from './view-in-explore.js';

/** Block action ids → listeners. */
export function registerActionListeners(app: App, ports: { reactions: Ratings; logger: Logger }): void {
  app.action<BlockFeedbackButtonsAction>(FEEDBACK_ACTION_ID, feedbackButtonsListener(ports));
  app.action<BlockButtonAction>(ADD_COMMENT_ACTION_ID, addCommentListener(ports));
  app.action<BlockButtonAction>(VIEW_IN_EXPLORE_ACTION_ID, viewInExploreListener());
}
