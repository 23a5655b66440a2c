import type { AllMiddlewareArgs, BlockButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';

type Args = SlackActionMiddlewareArgs<BlockButtonAction> & AllMiddlewareArgs;

/**
 * The alert card's *View in Explore* button opens its URL in the browser; Slack still sends the
 * click as `block_actions`, and an unacknowledged one shows the person a warning. Only acked.
 */
export function viewInExploreListener() {
  return async ({ ack }: Args): Promise<void> => {
    await ack();
  };
}
