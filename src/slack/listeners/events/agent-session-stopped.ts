import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import { personOfStop } from '../../payload-person.js';
import type { ListenerDeps } from '../listener-deps.js';

type Args = SlackEventMiddlewareArgs<'agent_session_stopped'> & AllMiddlewareArgs;

/**
 * Stop pressed on a thread's agent session → stop following its run (conversation/run-stop.ts,
 * which also checks that the person is inside the organisation). Slack shows the button only
 * while the session is `processing` and the app subscribes to this event.
 */
export function agentSessionStoppedListener(deps: ListenerDeps) {
  return async ({ event, context }: Args): Promise<void> => {
    const result = await deps.stops.onStop({
      teamId: deps.identity.teamId,
      channel: event.channel,
      threadTs: event.thread_ts,
      ...personOfStop(event),
    });
    deps.logger.debug(
      { channel: event.channel, threadTs: event.thread_ts, result, retryNum: context.retryNum },
      'stop handled',
    );
  };
}
