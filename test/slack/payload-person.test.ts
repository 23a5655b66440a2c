import { describe, expect, it } from 'vitest';
import {
  personOfCommand,
  personOfInteraction,
  personOfMessage,
  personOfReaction,
} from '../../src/slack/payload-person.js';

/** The person behind each payload, as the inside check reads them (never the envelope's team_id). */
describe('payload person', () => {
  it('a message: user_team, else team, else source_team; none for a team-less file share', () => {
    expect(personOfMessage({ user: 'U1', user_team: 'T2', team: 'T1', source_team: 'T3' })).toEqual({
      userId: 'U1',
      workspaceId: 'T2',
    });
    expect(personOfMessage({ user: 'U1', source_team: 'T3' })).toEqual({ userId: 'U1', workspaceId: 'T3' });
    expect(personOfMessage({ user: 'U1' })).toEqual({ userId: 'U1', workspaceId: undefined });
  });

  it('a reaction names no workspace', () => {
    expect(personOfReaction({ user: 'U1' })).toEqual({ userId: 'U1', workspaceId: undefined });
  });

  it('a slash command: its team_id', () => {
    expect(personOfCommand({ user_id: 'U1', team_id: 'T1' })).toEqual({ userId: 'U1', workspaceId: 'T1' });
    expect(personOfCommand({ user_id: 'U1', team_id: '' })).toEqual({ userId: 'U1', workspaceId: undefined });
  });

  it("an interaction (block_actions, view_submission): the user's team_id, else the payload's team", () => {
    const clicked = { user: { id: 'W1', team_id: 'T2' }, team: { id: 'T1' } };
    expect(personOfInteraction(clicked)).toEqual({ userId: 'W1', workspaceId: 'T2' });
    expect(personOfInteraction({ user: { id: 'W1' }, team: { id: 'T1' } })).toEqual({
      userId: 'W1',
      workspaceId: 'T1',
    });
    expect(personOfInteraction({ user: { id: 'W1' }, team: null })).toEqual({
      userId: 'W1',
      workspaceId: undefined,
    });
  });
});
