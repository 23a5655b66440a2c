/** Whose thread messages may be quoted (DESIGN "Thread context is quoted data"): the inside check's call. */

import { type InsideCheck, type PersonRef, senderWorkspace } from '../access/who-is-inside.js';
import type { ThreadMessage } from './context-ports.js';
import { authorKind } from './thread-context.js';

/** Most distinct authors one context judges (the check is cached per person, but bounded). */
export const MAX_AUTHOR_CHECKS = 50;

export interface QuotableMessages {
  shown: ThreadMessage[];
  /** Left out: the check says their authors are outside the organisation. */
  outsiders: number;
  /** Left out: the check could not tell (Slack failed to answer), or there was no author to judge. */
  unchecked: number;
}

/** What becomes of a message: quoted, or left out because its author is outside or could not be judged. */
type Verdict = 'quote' | 'outside' | 'unchecked';

/**
 * Messages are judged by their author's check, an integration's by its workspace (none named: kept; DESIGN
 * "Alert text is data"); Slackbot's are kept; past MAX_AUTHOR_CHECKS newest authors, unchecked.
 */
export async function quotableMessages(
  messages: readonly ThreadMessage[],
  inside: Pick<InsideCheck, 'check' | 'judgeWorkspace'>,
): Promise<QuotableMessages> {
  const authors = new Map<string, PersonRef>();
  for (const message of [...messages].reverse()) {
    const person = authorToJudge(message);
    if (person && authors.size < MAX_AUTHOR_CHECKS) authors.set(authorKey(person), person);
  }
  const verdicts = new Map<string, Verdict>();
  await Promise.all(
    [...authors].map(async ([key, person]) => {
      const verdict = await inside.check(person).catch(() => undefined);
      if (verdict?.inside) verdicts.set(key, 'quote');
      // `lookup-failed`: Slack could not answer; any other refusal is a judgement of outside.
      else verdicts.set(key, verdict && verdict.reason !== 'lookup-failed' ? 'outside' : 'unchecked');
    }),
  );
  const verdictOn = (message: ThreadMessage): Verdict => {
    if (authorKind(message) === undefined) return 'unchecked';
    if (authorKind(message) === 'integration') return integrationVerdict(message, inside);
    const person = authorToJudge(message);
    return person ? (verdicts.get(authorKey(person)) ?? 'unchecked') : 'quote';
  };
  const quotable: QuotableMessages = { shown: [], outsiders: 0, unchecked: 0 };
  for (const message of messages) {
    const verdict = verdictOn(message);
    if (verdict === 'quote') quotable.shown.push(message);
    else if (verdict === 'outside') quotable.outsiders += 1;
    else quotable.unchecked += 1;
  }
  return quotable;
}

/** An integration's post, by the workspace it names (no person to look up). */
function integrationVerdict(message: ThreadMessage, inside: Pick<InsideCheck, 'judgeWorkspace'>): Verdict {
  const workspace = senderWorkspace(message) ?? message.bot_profile?.team_id;
  if (workspace === undefined) return 'quote';
  const judged = inside.judgeWorkspace(workspace);
  return judged === 'inside' ? 'quote' : judged === 'outside' ? 'outside' : 'unchecked';
}

/** The user a message names for the check: anyone but an integration (no user of its own) and Slackbot. */
function authorToJudge(message: ThreadMessage): PersonRef | undefined {
  if (!message.user || message.user === 'USLACKBOT' || authorKind(message) === 'integration')
    return undefined;
  return { userId: message.user, workspaceId: senderWorkspace(message) };
}

const authorKey = (person: PersonRef) => `${person.userId}@${person.workspaceId ?? ''}`;
