/**
 * The add-connection modal (DESIGN "Many accounts"): no token typed into a slash command, which Slack
 * keeps. https://docs.slack.dev/surfaces/modals#displaying_errors
 */
import type { AddResult, ConnectionField } from '../../connections/connection-admin.js';
import { connectionProblemSentence, NO_KEY_SENTENCE } from './connection-replies.js';
import { escapeMrkdwn } from './mrkdwn-reply.js';
import { neutraliseSlackControls } from './neutralise.js';

export const CONNECTION_FORM_CALLBACK_ID = 'service_connection_add';
/** Block ids of the three inputs; each input's action id is `<block>_input`. */
export const CONNECTION_BLOCKS: Record<ConnectionField, string> = {
  alias: 'connection_alias',
  address: 'connection_address',
  token: 'connection_token',
};
const inputId = (field: ConnectionField) => `${CONNECTION_BLOCKS[field]}_input`;

const plain = (text: string) => ({ type: 'plain_text' as const, text, emoji: true });

function input(field: ConnectionField, label: string, hint: string, placeholder: string, maxLength: number) {
  return {
    type: 'input',
    block_id: CONNECTION_BLOCKS[field],
    label: plain(label),
    hint: plain(hint),
    element: {
      type: 'plain_text_input',
      action_id: inputId(field),
      placeholder: plain(placeholder),
      max_length: maxLength,
    },
  };
}

export function renderConnectionForm() {
  return {
    type: 'modal' as const,
    callback_id: CONNECTION_FORM_CALLBACK_ID,
    title: plain('Add a connection'),
    submit: plain('Check and add'),
    close: plain('Cancel'),
    blocks: [
      input('alias', 'Alias', 'Lower-case letters, digits and “-”, at most 32 characters.', 'eu-prod', 32),
      input(
        'address',
        'Region address',
        'The account’s regional API address: a URL or a host.',
        'api-eu.logz.io',
        200,
      ),
      input(
        'token',
        'API token',
        'Checked with the service before it is saved, then kept encrypted; never shown again.',
        'the account’s API token',
        200,
      ),
    ],
  };
}

/** The form's values as submitted (`view.state.values`). */
export function readConnectionForm(values: Record<string, Record<string, { value?: string | null }>>) {
  const read = (field: ConnectionField) => values[CONNECTION_BLOCKS[field]]?.[inputId(field)]?.value ?? '';
  return { alias: read('alias'), address: read('address'), token: read('token') };
}

/** Error texts under the fields are plain text: no mrkdwn marks. */
const plainText = (text: string) => neutraliseSlackControls(text).replace(/[`*]/g, '').slice(0, 300);

/** The answer to a submitted form: errors under a field, or the result in place of the form. */
export function renderAddAnswer(result: AddResult) {
  if (result.ok) {
    // Escaped, the placeholder too (`<agent-id>` would be a control sequence to Slack).
    const alias = escapeMrkdwn(result.alias, 40).replace(/`/g, "'");
    const text = `Added *${alias}*: account *${escapeMrkdwn(result.accountName, 100)}* (id ${escapeMrkdwn(String(result.accountId), 40)}), region ${escapeMrkdwn(result.region, 100)}. Bind a channel to an agent on it with \`/agent channel use &lt;agent-id&gt; on ${alias}\`.`;
    return {
      response_action: 'update' as const,
      view: {
        type: 'modal' as const,
        callback_id: `${CONNECTION_FORM_CALLBACK_ID}_done`,
        title: plain('Connection added'),
        close: plain('Done'),
        blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }],
      },
    };
  }
  const [field, sentence] = refusal(result);
  return { response_action: 'errors' as const, errors: { [CONNECTION_BLOCKS[field]]: plainText(sentence) } };
}

function refusal(result: Exclude<AddResult, { ok: true }>): [ConnectionField, string] {
  switch (result.reason) {
    case 'no-key':
      return ['token', NO_KEY_SENTENCE];
    case 'invalid':
      return [result.field, `Not saved: ${result.problem}.`];
    case 'check-failed':
      return [
        result.field,
        `Not saved. ${connectionProblemSentence(result.problem, result.error, 'the address', result.referenceId)}`,
      ];
  }
}

/** Shown under the alias when someone who is not an admin submits the form. */
export const ADMINS_ONLY_FORM = 'Only admins can add service connections. Nothing was saved.';
