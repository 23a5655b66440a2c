import { NOTHING_TO_GIVE_BACK } from './access/spending.js';
import type { ReadyTurn, RunStart } from './turn/run-start.js';
import type { TurnRequest } from './turn/turn-request.js';

/**
 * The run start's arguments for a run of the bot's own (an alert investigation, a scheduled question):
 * asked as a mention in a new thread under the bot's post `ts`, costing nobody's allowance.
 */
export function ownRunRequest(
  run: Pick<TurnRequest, 'tenant' | 'channel' | 'userId' | 'prompt' | 'alertAt'> & { ts: string },
  prepared: ReadyTurn,
): Parameters<RunStart['begin']> {
  const { ts, ...asked } = run;
  const request = { ...asked, teamId: run.tenant.teamId, threadTs: ts, sourceTs: ts, mentioned: true };
  return [request, undefined, prepared, NOTHING_TO_GIVE_BACK];
}
