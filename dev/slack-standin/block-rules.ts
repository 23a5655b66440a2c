import { contextActionsProblem } from './context-actions-rules.js';
import { taskCardProblem } from './task-card-rules.js';
import { mrkdwnTextProblem, stringProblem, textObjectProblem } from './text-rules.js';
import type { Block } from './types.js';

/**
 * Per-block rules of Block Kit (https://docs.slack.dev/reference/block-kit/blocks), the same in
 * messages, modals and Home tabs. Each returns the first problem as Slack words it (with a
 * json-pointer under `at`, e.g. `/blocks/3`), or undefined.
 */
export const BLOCK_LIMITS = {
  /** A section's `text`. */
  sectionTextChars: 3_000,
  /** Each of a section's `fields`. */
  sectionFieldChars: 2_000,
  sectionFields: 10,
  /** A header's plain_text. */
  headerTextChars: 150,
  /** A context block's elements (text objects and images). */
  contextElements: 10,
  /** An actions block's elements. */
  actionsElements: 25,
  /** A button's label, value and url (https://docs.slack.dev/reference/block-kit/block-elements/button-element). */
  buttonTextChars: 75,
  buttonValueChars: 2_000,
  buttonUrlChars: 3_000,
  /** Any element's action_id and any block's block_id. */
  idChars: 255,
  /** An input's label and hint; a plain_text_input's placeholder. */
  inputLabelChars: 2_000,
  placeholderChars: 150,
} as const;

type Element = Record<string, unknown>;

const list = (value: unknown): Element[] => (Array.isArray(value) ? (value as Element[]) : []);

/** One interactive element: its action_id, and a button's text, value and url. */
function elementProblem(element: Element, at: string): string | undefined {
  const id = stringProblem(element.action_id, `${at}/action_id`, BLOCK_LIMITS.idChars);
  if (id) return id;
  if (element.type === 'button') {
    return (
      textObjectProblem(element.text, `${at}/text`, { max: BLOCK_LIMITS.buttonTextChars, plainOnly: true }) ??
      stringProblem(element.value, `${at}/value`, BLOCK_LIMITS.buttonValueChars) ??
      stringProblem(element.url, `${at}/url`, BLOCK_LIMITS.buttonUrlChars)
    );
  }
  if (element.placeholder !== undefined) {
    return textObjectProblem(element.placeholder, `${at}/placeholder`, {
      max: BLOCK_LIMITS.placeholderChars,
      plainOnly: true,
    });
  }
  return undefined;
}

function sectionProblem(block: Block, at: string): string | undefined {
  const fields = list(block.fields);
  if (block.text === undefined && fields.length === 0)
    return `must provide text or fields [json-pointer:${at}]`;
  if (block.text !== undefined) {
    const text = textObjectProblem(block.text, `${at}/text`, { max: BLOCK_LIMITS.sectionTextChars });
    if (text) return text;
  }
  if (fields.length > BLOCK_LIMITS.sectionFields) {
    return `must provide no more than ${BLOCK_LIMITS.sectionFields} items [json-pointer:${at}/fields]`;
  }
  for (const [j, field] of fields.entries()) {
    const problem = textObjectProblem(field, `${at}/fields/${j}`, { max: BLOCK_LIMITS.sectionFieldChars });
    if (problem) return problem;
  }
  const accessory = block.accessory as Element | undefined;
  return accessory ? elementProblem(accessory, `${at}/accessory`) : undefined;
}

function contextProblem(block: Block, at: string): string | undefined {
  const elements = list(block.elements);
  if (elements.length === 0) return `must provide at least 1 item [json-pointer:${at}/elements]`;
  if (elements.length > BLOCK_LIMITS.contextElements) {
    return `must provide no more than ${BLOCK_LIMITS.contextElements} items [json-pointer:${at}/elements]`;
  }
  for (const [j, element] of elements.entries()) {
    if (element?.type === 'image') continue;
    const problem = textObjectProblem(element, `${at}/elements/${j}`);
    if (problem) return problem;
  }
  return undefined;
}

function actionsProblem(block: Block, at: string): string | undefined {
  const elements = list(block.elements);
  if (elements.length === 0) return `must provide at least 1 item [json-pointer:${at}/elements]`;
  if (elements.length > BLOCK_LIMITS.actionsElements) {
    return `must provide no more than ${BLOCK_LIMITS.actionsElements} items [json-pointer:${at}/elements]`;
  }
  for (const [j, element] of elements.entries()) {
    const problem = elementProblem(element, `${at}/elements/${j}`);
    if (problem) return problem;
  }
  return undefined;
}

function inputProblem(block: Block, at: string): string | undefined {
  const plain = { max: BLOCK_LIMITS.inputLabelChars, plainOnly: true };
  const label = textObjectProblem(block.label, `${at}/label`, plain);
  if (label) return label;
  if (block.hint !== undefined) {
    const hint = textObjectProblem(block.hint, `${at}/hint`, plain);
    if (hint) return hint;
  }
  const element = block.element as Element | undefined;
  if (!element) return `missing required field: element [json-pointer:${at}]`;
  return elementProblem(element, `${at}/element`);
}

/** The first rule `block` breaks at json-pointer `at`, or undefined. */
export function blockProblem(block: Block, at: string): string | undefined {
  const id = stringProblem(block.block_id, `${at}/block_id`, BLOCK_LIMITS.idChars);
  if (id) return id;
  switch (block.type) {
    case 'section':
      return sectionProblem(block, at);
    case 'header':
      return textObjectProblem(block.text, `${at}/text`, {
        max: BLOCK_LIMITS.headerTextChars,
        plainOnly: true,
      });
    case 'context':
      return contextProblem(block, at);
    case 'actions':
      return actionsProblem(block, at);
    case 'input':
      return inputProblem(block, at);
    case 'markdown':
      // Markdown, not mrkdwn: no escaping rule; the per-message total is checked by the caller.
      return typeof block.text === 'string' ? undefined : `must provide a string [json-pointer:${at}/text]`;
    case 'context_actions':
      return contextActionsProblem(block, at);
    case 'task_card':
      return taskCardProblem(block, at);
    default:
      return undefined;
  }
}

/** The action_ids of a block's elements (an action_id is unique within its block). */
export function actionIdsOf(block: Block): string[] {
  const elements = [
    ...list(block.elements),
    ...(block.accessory ? [block.accessory as Element] : []),
    ...(block.element ? [block.element as Element] : []),
  ];
  return elements.map((element) => element.action_id).filter((id): id is string => typeof id === 'string');
}

export { mrkdwnTextProblem };
