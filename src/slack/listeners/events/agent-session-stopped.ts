import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { RunStop } from '../../../conversation/run-stop.js';
import type { Logger } from '../../../runtime/logger.js';
import { personOfReaction } from '../../payload-person.js';
import type { SlackIdentity } from '../../slack-identity.js';

type Args = SlackEventMiddlewareArgs<'agent_session_stopped'> & AllMiddlewareArgs;

/** Stop pressed on a thread's agent session → stop following its run (run-stop.ts checks the person). */
export function agentSessionStoppedListener(deps: {
  stops: RunStop;
  identity: SlackIdentity;
  logger: Logger;
}) {
  return async ({ event, context }: Args): Promise<void> => {
    const result = await deps.stops.onStop({
      teamId: deps.identity.teamId,
      channel: event.channel,
      threadTs: event.thread_ts,
      ...personOfReaction(event),
    });
    deps.logger.debug(
      { channel: event.channel, threadTs: event.thread_ts, result, retryNum: context.retryNum },
      'stop handled',
    );
  };
}
