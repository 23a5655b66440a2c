import { describe, expect, it } from 'vitest';
import {
  AgentApiError,
  AgentApiErrorCode,
  EmptyAnswerError,
  InvalidResponseError,
  RegionMismatchError,
} from '../../../src/agent-api/errors.js';
import {
  ConnectionKeyMissingError,
  UnknownConnectionError,
} from '../../../src/connections/connection-clients.js';
import { describeError, newReferenceId } from '../../../src/slack/views/describe-error.js';

const REF = 'a1b2c3d4';
const error = (code: AgentApiErrorCode, details: ConstructorParameters<typeof AgentApiError>[2] = {}) =>
  new AgentApiError(code, 'internal detail', details);

/** Sentence ends outside quoted service text. */
function sentenceCount(text: string): number {
  return text.replace(/“[^”]*”/g, '').match(/[.!?](\s|$)/g)?.length ?? 0;
}

describe('describeError', () => {
  it.each<[string, unknown, string]>([
    [
      'token rejected',
      error(AgentApiErrorCode.TokenRejected, { status: 401, path: '/v2/ai-agent/a1' }),
      "The agent service rejected the bot's API token — an admin needs to check AGENT_API_TOKEN",
    ],
    [
      'token rejected on account management',
      error(AgentApiErrorCode.TokenRejected, {
        status: 401,
        path: '/account-management/time-based-accounts',
      }),
      'an admin needs to check ACCOUNT_API_TOKEN',
    ],
    [
      'agent disabled',
      error(AgentApiErrorCode.AgentDisabled, { status: 404 }),
      'This agent is disabled — an admin can turn it on with `/agent enable`',
    ],
    [
      'maintenance',
      error(AgentApiErrorCode.Maintenance, { status: 503 }),
      'The agent service is down for maintenance — please try again later',
    ],
    [
      'region mismatch',
      new RegionMismatchError('us-east-1', 'eu-central-1'),
      "token belongs to region us-east-1 but the bot talks to eu-central-1; an admin needs to set AGENT_API_URL to the account's region",
    ],
    [
      'region mismatch found in the service message',
      error(AgentApiErrorCode.RegionMismatch, {
        serviceMessage: 'Account region uk-west-2 differs from current server region us-east-1',
      }),
      'region uk-west-2 but the bot talks to us-east-1',
    ],
    [
      'region mismatch without regions',
      error(AgentApiErrorCode.RegionMismatch),
      "an admin needs to set AGENT_API_URL to the account's region",
    ],
    ['rate limited', error(AgentApiErrorCode.RateLimited, { status: 429 }), 'too many requests'],
    [
      'turn in progress',
      error(AgentApiErrorCode.TurnInProgress, { status: 409 }),
      'still working on the previous message',
    ],
    [
      'rejected request',
      error(AgentApiErrorCode.RejectedRequest, {
        status: 400,
        serviceMessage: 'context.message is too long.',
      }),
      'The agent service rejected the request: “context.message is too long”',
    ],
    [
      'rejected request in words with mrkdwn’s reserved characters (escaped, not read as a link)',
      error(AgentApiErrorCode.RejectedRequest, {
        status: 400,
        serviceMessage: 'expected <string> & got <null>',
      }),
      'rejected the request: “expected &lt;string&gt; &amp; got &lt;null&gt;”',
    ],
    [
      'rejected request without a message',
      error(AgentApiErrorCode.RejectedRequest, { status: 400, serviceErrorCode: 'BAD_INPUT' }),
      'rejected the request (BAD_INPUT)',
    ],
    ['unknown endpoint', error(AgentApiErrorCode.UnknownEndpoint, { status: 404 }), 'check AGENT_API_URL'],
    [
      '404 on a follow-up: about the agent, not the address',
      error(AgentApiErrorCode.AgentUnavailable, { status: 404, path: '/v2/ai-agent/my-agent/s-1' }),
      'The agent service says the agent `my-agent` is disabled or unknown — an admin can turn it on with `/agent enable my-agent`',
    ],
    [
      '404 on enable: an id the service does not know',
      error(AgentApiErrorCode.AgentUnavailable, { status: 404, path: '/v2/ai-agent/typo-agent/enable' }),
      "The agent service doesn't know the agent `typo-agent` — check the agent id",
    ],
    ['http error', error(AgentApiErrorCode.HttpError, { status: 502 }), 'unexpected error (HTTP 502)'],
    ['network', error(AgentApiErrorCode.Network), "couldn't reach the agent service"],
    ['timeout', error(AgentApiErrorCode.Timeout), 'took too long to respond'],
    ['invalid response', new InvalidResponseError(['sessionId: required']), "couldn't understand"],
    [
      'an empty answer the spec allows: what it lacked, in words, no schema',
      new EmptyAnswerError(
        'the identity check (/v2/whoami) came back without an account id or an account name',
      ),
      'The agent service answered, but the identity check (/v2/whoami) came back without an account id or an account name — please try again',
    ],
    ['not configured', error(AgentApiErrorCode.NotConfigured), 'ACCOUNT_API_TOKEN'],
    [
      'invalid input, caught before sending: the message is the bot’s own and names the value',
      new AgentApiError(AgentApiErrorCode.InvalidInput, '“admin@localhost” is not an email address'),
      'The bot did not send this request, which the service would refuse: “admin@localhost” is not an email address',
    ],
    ['look-alike from another module copy', { code: 'maintenance' }, 'down for maintenance'],
    [
      'a removed service connection',
      new UnknownConnectionError('eu-prod'),
      'The service connection `eu-prod` this conversation uses is gone — an admin can add it again with `/agent connections add`',
    ],
    [
      "a connection whose token can't be opened",
      new ConnectionKeyMissingError('eu-prod'),
      'an admin needs to set STATE_ENCRYPTION_KEY to the key it was added with',
    ],
    [
      'a connection code with an alias that would end the code span',
      { code: 'unknown_connection', alias: 'a`<!here>' },
      "`a'",
    ],
    ['a connection code without an alias', { code: 'unknown_connection' }, 'Something went wrong'],
    ['plain Error', new Error('boom'), 'Something went wrong'],
    ['Node system error', Object.assign(new Error('x'), { code: 'ECONNRESET' }), 'Something went wrong'],
    ['a string', 'nope', 'Something went wrong'],
    ['undefined', undefined, 'Something went wrong'],
    ['null', null, 'Something went wrong'],
  ])('%s', (_name, input, expected) => {
    const sentence = describeError(input, REF);
    expect(sentence).toContain(expected);
    expect(sentence.endsWith(`(ref: ${REF}).`)).toBe(true);
    expect(sentenceCount(sentence)).toBe(1);
    expect(sentence).not.toContain('internal detail');
    expect(sentence).not.toContain('<!here>');
  });

  it('has a sentence for every code', () => {
    const sentences = Object.values(AgentApiErrorCode).map((code) => describeError(error(code), REF));
    for (const sentence of sentences) expect(sentence).not.toContain('Something went wrong');
    expect(new Set(sentences).size).toBe(sentences.length);
  });

  it('neutralises and shortens the service message', () => {
    const serviceMessage = `<!channel> ${'x'.repeat(1_000)}`;
    const sentence = describeError(error(AgentApiErrorCode.RejectedRequest, { serviceMessage }), REF);
    expect(sentence).not.toContain('<!channel>');
    expect(sentence.length).toBeLessThan(500);
    expect(sentence).toContain('…”');
  });
});

describe('newReferenceId', () => {
  it('is short, hex and random', () => {
    const ids = Array.from({ length: 200 }, newReferenceId);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
