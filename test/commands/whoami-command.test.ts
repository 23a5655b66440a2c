import { describe, expect, it } from 'vitest';
import { AgentApiError, RegionMismatchError } from '../../src/agent-api/index.js';
import { whoamiProblem } from '../../src/commands/whoami-command.js';
import { renderCommandOutcome } from '../../src/slack/views/commands/index.js';

describe('whoamiProblem', () => {
  it.each([
    ['403', new AgentApiError('token_rejected', 'x', { status: 403 }), 'invalid-token'],
    ['401', new AgentApiError('token_rejected', 'x', { status: 401 }), 'invalid-token'],
    ['404', new AgentApiError('unknown_endpoint', 'x', { status: 404 }), 'wrong-address'],
    ['500', new AgentApiError('http_error', 'x', { status: 500 }), 'wrong-address'],
    [
      'a 200 that is no identity',
      new AgentApiError('invalid_response', 'x', { status: 200 }),
      'wrong-address',
    ],
    ['region mismatch', new RegionMismatchError('us-east-1', 'eu-central-1', { status: 400 }), 'service'],
    ['503', new AgentApiError('maintenance', 'x', { status: 503 }), 'service'],
    ['network', new AgentApiError('network', 'x'), 'service'],
    ['not an API error', new Error('x'), 'service'],
  ])('%s', (_name, error, expected) => {
    expect(whoamiProblem(error)).toBe(expected);
  });
});

describe('/agent whoami replies', () => {
  it('names the account', () => {
    expect(renderCommandOutcome({ kind: 'whoami', accountId: 7, accountName: 'Prod' }).text).toBe(
      'Connected to *Prod* (account id 7).',
    );
  });

  it('says the token is invalid, with what the service said', () => {
    const reply = renderCommandOutcome({
      kind: 'whoami-failed',
      problem: 'invalid-token',
      status: 403,
      serviceMessage: 'Insufficient privileges',
      error: new Error('x'),
      referenceId: 'r1',
    });
    expect(reply.text).toBe(
      "The bot's token is invalid: the agent service answered 403 “Insufficient privileges”. An admin needs to set a valid AGENT_API_TOKEN (ref: r1).",
    );
  });
});
