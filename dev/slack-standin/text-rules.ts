import { mrkdwnEscapeProblem } from './mrkdwn-rules.js';

/**
 * Text objects (https://docs.slack.dev/reference/block-kit/composition-objects/text-object):
 * `{type: 'plain_text' | 'mrkdwn', text}`, at most 3,000 characters unless the field that holds
 * one says less (a header 150, a button 75, a modal title 24…). mrkdwn text obeys the escaping rule.
 * Each check returns Slack's words with a json-pointer, or undefined.
 */

/** The longest text object Slack takes anywhere. */
export const TEXT_OBJECT_MAX_CHARS = 3_000;

export interface TextRule {
  /** Longest `text` (default 3,000). */
  max?: number;
  /** Only `plain_text` is allowed here (headers, buttons, titles, labels). */
  plainOnly?: boolean;
}

/** The problem with one text object at json-pointer `at` (e.g. `/blocks/0/text`). */
export function textObjectProblem(value: unknown, at: string, rule: TextRule = {}): string | undefined {
  if (!value || typeof value !== 'object') return `must be a text object [json-pointer:${at}]`;
  const { type, text } = value as { type?: unknown; text?: unknown };
  if (type !== 'plain_text' && type !== 'mrkdwn')
    return `must be a valid enum value [json-pointer:${at}/type]`;
  if (rule.plainOnly && type !== 'plain_text') return `must be plain_text [json-pointer:${at}/type]`;
  if (typeof text !== 'string' || text === '') return `must be a non-empty string [json-pointer:${at}/text]`;
  const max = rule.max ?? TEXT_OBJECT_MAX_CHARS;
  if (text.length > max) return `must be less than ${max + 1} characters [json-pointer:${at}/text]`;
  if (type === 'mrkdwn') return mrkdwnTextProblem(text, `${at}/text`);
  return undefined;
}

/** The escaping rule for one mrkdwn string at json-pointer `at`. */
export function mrkdwnTextProblem(text: string, at: string): string | undefined {
  const problem = mrkdwnEscapeProblem(text);
  return problem ? `${problem} [json-pointer:${at}]` : undefined;
}

/** An optional string no longer than `max` (ids, values, urls). */
export function stringProblem(value: unknown, at: string, max: number): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') return `must be a string [json-pointer:${at}]`;
  if (value.length > max) return `must be less than ${max + 1} characters [json-pointer:${at}]`;
  return undefined;
}
