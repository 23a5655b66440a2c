import type { AllMiddlewareArgs, BlockButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';

type Args = SlackActionMiddlewareArgs<BlockButtonAction> & AllMiddlewareArgs;

/** *View in Explore* opens its URL, but Slack still sends the click, and warns the person unless acked. */
export function viewInExploreListener() {
  return async ({ ack }: Args): Promise<void> => {
    await ack();
  };
}
