import type { Logger } from '../../runtime/logger.js';
import type { ThreadMessage } from '../context/context-ports.js';
import type { Refusal } from '../refusal.js';
import type { InstallationRef } from '../tenancy.js';

/**
 * Who is inside the app's organisation (DESIGN "Who is inside", "Guests are outside"), known from
 * `auth.test`, never an envelope (in Slack Connect its `team_id` is the channel creator's).
 */

/** The app's own organisation (workspace, and Grid org if any), from `auth.test`. */
export type AppOrganisation = InstallationRef;

/** A person as a payload names them. */
export interface PersonRef {
  userId: string;
  /** The workspace the payload gives for the person; undefined: the directory is asked. */
  workspaceId?: string | undefined;
}

/** What the user directory (`users.info`) says about a person's organisation and standing. */
export interface PersonOrganisation {
  teamId?: string | undefined;
  enterpriseId?: string | undefined;
  /** A guest: `is_restricted` (multi-channel) or `is_ultra_restricted` (single-channel). */
  isGuest: boolean;
  /** Another organisation's person seen through Slack Connect (`is_stranger`). */
  isStranger: boolean;
}

/** Why a person is outside; `lookup-failed`: Slack could not answer (fail closed; they may try again). */
export type OutsideReason = 'other-organisation' | 'unknown-user' | 'lookup-failed' | 'guest';

/** What the person is told for each reason (the words live in slack/views/notices.ts). */
const REFUSAL_OF: Record<OutsideReason, Refusal> = {
  'other-organisation': 'external-user',
  'unknown-user': 'external-user',
  'lookup-failed': 'identity-unchecked',
  guest: 'guest',
};

/** The check's answer; `refusal`: what the person sees when they addressed the bot (ephemeral). */
export type InsideVerdict = { inside: true } | { inside: false; reason: OutsideReason; refusal: Refusal };

const INSIDE: InsideVerdict = { inside: true };

export function outside(reason: OutsideReason): InsideVerdict {
  return { inside: false, reason, refusal: REFUSAL_OF[reason] };
}

/** What the payload alone decides: `ask` means only the directory can tell. */
export function judgeByWorkspace(
  app: AppOrganisation,
  workspaceId: string | undefined,
): 'inside' | 'outside' | 'ask' {
  if (workspaceId === undefined || workspaceId === '') return 'ask';
  if (workspaceId === app.teamId) return 'inside';
  // In a Grid org a sibling workspace is still the organisation: its enterprise decides.
  return app.enterpriseId ? 'ask' : 'outside';
}

/** Whether the directory's person is of the app's workspace or Grid enterprise (never a stranger). */
export function ofTheOrganisation(app: AppOrganisation, person: PersonOrganisation): boolean {
  if (person.isStranger) return false;
  if (person.teamId !== undefined && person.teamId === app.teamId) return true;
  return app.enterpriseId !== undefined && person.enterpriseId === app.enterpriseId;
}

export interface AudienceRules {
  /** ALLOW_GUESTS: guests of the app's organisation count as inside (other organisations' do not). */
  allowGuests: boolean;
}

/** The judgement once the directory answered; `workspaceIsApps`: only the guest and stranger flags count. */
export function judgeByDirectory(
  app: AppOrganisation,
  rules: AudienceRules,
  person: PersonOrganisation | undefined,
  workspaceIsApps = false,
): InsideVerdict {
  // Slack does not know them: nobody can say they are not a guest (fail closed).
  if (!person) return outside('unknown-user');
  const ofOrganisation = workspaceIsApps ? !person.isStranger : ofTheOrganisation(app, person);
  if (!ofOrganisation) return outside('other-organisation');
  if (person.isGuest && !rules.allowGuests) return outside('guest');
  return INSIDE;
}

/** The workspace a message event names for its sender; file shares and broadcasts may name none. */
export function senderWorkspace(event: Pick<ThreadMessage, 'user_team' | 'team' | 'source_team'>) {
  return event.user_team || event.team || event.source_team || undefined;
}

export interface InsideCheckDeps extends AudienceRules {
  app: AppOrganisation;
  /** ALLOW_EXTERNAL_USERS: everyone is answered (guests too), nobody is looked up. */
  allowExternalUsers: boolean;
  /** Port: the person's organisation (undefined: unknown to Slack); throws when Slack cannot answer. */
  lookup: (userId: string) => Promise<PersonOrganisation | undefined>;
  logger: Logger;
}

export function createInsideCheck(deps: InsideCheckDeps) {
  const { app, logger } = deps;
  return {
    /** What a workspace id alone says, for authors with no person to look up (an integration's post). */
    judgeWorkspace: (workspaceId: string | undefined) =>
      deps.allowExternalUsers ? ('inside' as const) : judgeByWorkspace(app, workspaceId),
    async check(person: PersonRef): Promise<InsideVerdict> {
      if (deps.allowExternalUsers) return INSIDE;
      const byWorkspace = judgeByWorkspace(app, person.workspaceId);
      if (byWorkspace === 'outside') return outside('other-organisation');
      // Only the guest flag is left to ask about, and guests are welcome: no look-up.
      if (byWorkspace === 'inside' && deps.allowGuests) return INSIDE;
      let organisation: PersonOrganisation | undefined;
      try {
        organisation = await deps.lookup(person.userId);
      } catch (error) {
        logger.warn({ err: error, userId: person.userId }, 'users.info failed; refusing the person');
        return outside('lookup-failed');
      }
      return judgeByDirectory(app, deps, organisation, byWorkspace === 'inside');
    },
  };
}

/** The one check every entry path calls. */
export type InsideCheck = ReturnType<typeof createInsideCheck>;
