import type { Block } from './types.js';

/**
 * A `context_actions` block: 1–5 elements, each `feedback_buttons` (both buttons with plain_text
 * text and a value, labels ≤ 75) or `icon_button`.
 * https://docs.slack.dev/reference/block-kit/blocks/context-actions-block
 */
export const CONTEXT_ACTIONS_LIMITS = {
  elements: 5,
  buttonTextChars: 75,
  accessibilityLabelChars: 75,
} as const;

type Button = { text?: { type?: string; text?: string }; value?: unknown; accessibility_label?: unknown };

function buttonProblem(button: Button | undefined, side: string, where: string): string | undefined {
  const { buttonTextChars, accessibilityLabelChars } = CONTEXT_ACTIONS_LIMITS;
  if (!button) return `missing required field: ${side} [json-pointer:${where}]`;
  if (button.text?.type !== 'plain_text' || !button.text.text) {
    return `must provide a plain_text text object [json-pointer:${where}/${side}/text]`;
  }
  if (button.text.text.length > buttonTextChars) {
    return `must be less than ${buttonTextChars + 1} characters [json-pointer:${where}/${side}/text/text]`;
  }
  if (typeof button.value !== 'string' || button.value === '') {
    return `missing required field: value [json-pointer:${where}/${side}]`;
  }
  const label = button.accessibility_label;
  if (label !== undefined && (typeof label !== 'string' || label.length > accessibilityLabelChars)) {
    return `must be less than ${accessibilityLabelChars + 1} characters [json-pointer:${where}/${side}/accessibility_label]`;
  }
  return undefined;
}

/** The first problem of a context_actions block at json-pointer `at`, or undefined. */
export function contextActionsProblem(block: Block, at: string): string | undefined {
  const elements = Array.isArray(block.elements) ? (block.elements as Block[]) : [];
  if (elements.length === 0) return `must provide at least 1 item [json-pointer:${at}/elements]`;
  if (elements.length > CONTEXT_ACTIONS_LIMITS.elements) {
    return `must provide no more than ${CONTEXT_ACTIONS_LIMITS.elements} items [json-pointer:${at}/elements]`;
  }
  for (const [j, element] of elements.entries()) {
    const where = `${at}/elements/${j}`;
    if (element?.type === 'icon_button') continue;
    if (element?.type !== 'feedback_buttons')
      return `must be a valid enum value [json-pointer:${where}/type]`;
    for (const side of ['positive_button', 'negative_button'] as const) {
      const problem = buttonProblem(element[side] as Button | undefined, side, where);
      if (problem) return problem;
    }
  }
  return undefined;
}
