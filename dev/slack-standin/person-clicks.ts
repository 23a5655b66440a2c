import { responseActionRefusal, SlackRefusedError } from './answer-rules.js';
import { blockActionsPayload, type InteractionActorInput, viewSubmissionPayload } from './event-builders.js';
import type { StandinView } from './inspection.js';
import { postInteraction, type SlackPostResult } from './signed-post.js';
import type { Block, StoredMessage } from './types.js';

/**
 * What a person does with the bot's buttons and forms, done the way Slack does it: find the element
 * in what the stand-in shows, then POST the signed interaction payload to the app. Shared by the
 * sandbox (`/rate`) and the end-to-end tests.
 */
export interface AppEndpoint {
  appUrl: string;
  signingSecret: string;
}

type Element = Block & { action_id?: string; value?: string };

function elementsOf(
  blocks: Block[] | undefined,
  blockType: string,
): Array<{ block: Block; element: Element }> {
  return (blocks ?? [])
    .filter((block) => block.type === blockType && Array.isArray(block.elements))
    .flatMap((block) => (block.elements as Element[]).map((element) => ({ block, element })));
}

/** Clicks 👍 (`positive`) or 👎 on a message's feedback buttons; throws when the message has none. */
export function clickFeedbackButton(
  slack: StandinView,
  app: AppEndpoint,
  message: StoredMessage,
  positive: boolean,
  actor: InteractionActorInput = {},
): Promise<SlackPostResult> {
  const found = elementsOf(message.blocks, 'context_actions').find(
    ({ element }) => element.type === 'feedback_buttons',
  );
  if (!found) throw new Error(`message ${message.ts} has no feedback buttons`);
  const button = found.element[positive ? 'positive_button' : 'negative_button'] as {
    value: string;
    text: Record<string, unknown>;
  };
  const { channel: _channel, deleted: _deleted, ...shown } = message;
  return postInteraction(
    app.appUrl,
    app.signingSecret,
    blockActionsPayload({
      ...actor,
      channel: message.channel,
      message: shown,
      action: {
        type: 'feedback_buttons',
        action_id: found.element.action_id ?? '',
        block_id: (found.block.block_id as string | undefined) ?? undefined,
        value: button.value,
        text: button.text,
      },
      triggerId: slack.issueTriggerId(),
    }),
  );
}

/** Clicks the button `actionId` of the newest ephemeral `user` sees in `channel`; throws when there is none. */
export function clickEphemeralButton(
  slack: StandinView,
  app: AppEndpoint,
  channel: string,
  actionId: string,
  actor: InteractionActorInput & { user: string },
): Promise<SlackPostResult> {
  const ephemeral = slack
    .ephemerals(channel, actor.user)
    .reverse()
    .find((candidate) =>
      elementsOf(candidate.blocks, 'actions').some(({ element }) => element.action_id === actionId),
    );
  const element = elementsOf(ephemeral?.blocks, 'actions').find(
    (found) => found.element.action_id === actionId,
  );
  if (!ephemeral || !element) throw new Error(`no ephemeral with button ${actionId} for ${actor.user}`);
  return postInteraction(
    app.appUrl,
    app.signingSecret,
    blockActionsPayload({
      ...actor,
      channel,
      ephemeralTs: ephemeral.message_ts,
      action: { type: 'button', action_id: actionId, value: element.element.value ?? '' },
      triggerId: slack.issueTriggerId(),
    }),
  );
}

/**
 * POSTs a view_submission and holds the app's answer to Slack's rules (answer-rules.ts): a refused
 * answer is recorded and thrown, so the test that caused it fails with Slack's words.
 */
async function submitView(
  slack: StandinView,
  app: AppEndpoint,
  payload: Record<string, unknown>,
  submitted: Record<string, unknown>,
): Promise<SlackPostResult> {
  const result = await postInteraction(app.appUrl, app.signingSecret, payload);
  const refused = result.status === 200 ? responseActionRefusal(result.body, submitted) : undefined;
  if (refused) throw new SlackRefusedError(slack.refuse('view_submission', refused, result.body));
  return result;
}

/**
 * Fills the single `plain_text_input` of the newest opened modal with `text` and submits it;
 * throws when no modal was opened.
 */
export function submitNewestForm(
  slack: StandinView,
  app: AppEndpoint,
  text: string,
  actor: InteractionActorInput = {},
): Promise<SlackPostResult> {
  const opened = slack.openedViews().at(-1);
  if (!opened) throw new Error('no modal was opened');
  const input = ((opened.view.blocks as Block[] | undefined) ?? []).find((block) => block.type === 'input');
  const element = input?.element as { action_id?: string } | undefined;
  if (!input || !element?.action_id) throw new Error('the modal has no input');
  const payload = viewSubmissionPayload({
    ...actor,
    view: { ...opened.view, id: opened.id },
    values: { [String(input.block_id)]: { [element.action_id]: text } },
  });
  return submitView(slack, app, payload, opened.view);
}

/**
 * Fills the newest opened modal's `plain_text_input`s — `fields` maps each input's block_id to the
 * text typed — and submits it (a `view_submission`, as Slack POSTs it). Inputs not named are
 * submitted empty. Throws when no modal was opened.
 */
export function submitNewestFormFields(
  slack: StandinView,
  app: AppEndpoint,
  fields: Record<string, string>,
  actor: InteractionActorInput = {},
): Promise<SlackPostResult> {
  const opened = slack.openedViews().at(-1);
  if (!opened) throw new Error('no modal was opened');
  const inputs = ((opened.view.blocks as Block[] | undefined) ?? []).filter(
    (block) => block.type === 'input',
  );
  const values: Record<string, Record<string, string>> = {};
  for (const input of inputs) {
    const element = input.element as { action_id?: string } | undefined;
    if (!element?.action_id) continue;
    values[String(input.block_id)] = { [element.action_id]: fields[String(input.block_id)] ?? '' };
  }
  const payload = viewSubmissionPayload({ ...actor, view: { ...opened.view, id: opened.id }, values });
  return submitView(slack, app, payload, opened.view);
}
