import { afterEach, describe, expect, it } from 'vitest';
import {
  AgentApiErrorCode,
  EmptyAnswerError,
  InvalidResponseError,
  identityProblem,
} from '../../src/agent-api/index.js';
import { testClient } from './support/client.js';
import { rejectionOf } from './support/rejection.js';
import { inOrder, type ScriptedServer, startScriptedServer } from './support/scripted-server.js';

/**
 * Answers the vendor's spec allows but that hold nothing the call is for: its WhoAmI and export
 * response members are all optional. They are an EmptyAnswerError whose message says, in words,
 * what was missing; an answer that is not of the kind at all stays an invalid response.
 */

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function answered(body: unknown) {
  server = await startScriptedServer(inOrder({ status: 200, body }));
  return testClient(server.url).api;
}

describe('whoami', () => {
  it.each([
    [{}, 'without an account id or an account name'],
    [{ accountId: null, accountName: null }, 'without an account id or an account name'],
    [{ accountId: 5 }, 'without an account name'],
    [{ accountName: 'Production' }, 'without an account id'],
  ])('%j is an empty answer: “%s”', async (body, words) => {
    const error = await rejectionOf((await answered(body)).whoami(), EmptyAnswerError);
    expect(error).toMatchObject({ code: AgentApiErrorCode.EmptyAnswer, status: 200, path: '/v2/whoami' });
    expect(error.message).toBe(`the identity check (/v2/whoami) came back ${words}`);
    // Not a wrong address (the spec allows it), and nothing to stop the bot for.
    expect(identityProblem(error)).toBe('unavailable');
  });

  it('another server’s JSON is still not an identity: invalid, the wrong-address case', async () => {
    const error = await rejectionOf((await answered({ status: 42 })).whoami(), InvalidResponseError);
    expect(identityProblem(error)).toBe('not-the-service');
  });

  it('a member of the wrong type is invalid, not empty', async () => {
    await rejectionOf(
      (await answered({ accountId: 'five', accountName: 'P' })).whoami(),
      InvalidResponseError,
    );
  });

  it('a whole answer is the identity', async () => {
    const api = await answered({ accountId: 5, accountName: 'Production' });
    await expect(api.whoami()).resolves.toEqual({ accountId: 5, accountName: 'Production' });
  });
});

describe('export', () => {
  it.each([
    ['{}', {}],
    ['only the version', { kibanaVersion: '7.10.2' }],
    ['hits null', { kibanaVersion: '7.10.2', hits: null }],
    ['an empty body', undefined],
  ])('%s is an empty answer', async (_name, body) => {
    const error = await rejectionOf((await answered(body)).exportSavedObjects('dashboard'), EmptyAnswerError);
    expect(error.message).toBe('the dashboard export came back without a list of saved objects');
  });

  it('an empty list is zero objects, backed up as served', async () => {
    const { parsed, raw } = await (await answered({ kibanaVersion: '7.10.2', hits: [] })).exportSavedObjects(
      'search',
    );
    expect(parsed.hits).toEqual([]);
    expect(JSON.parse(raw)).toEqual({ kibanaVersion: '7.10.2', hits: [] });
  });

  it('another server’s JSON is still not an export: invalid', async () => {
    await rejectionOf((await answered({ status: 42 })).exportSavedObjects('search'), InvalidResponseError);
  });
});
