import type { Block } from './types.js';

/**
 * A `task_card` block as Slack takes it (https://docs.slack.dev/reference/block-kit/blocks/task-card-block/):
 * `task_id` and `title` required (strings), `status` one of pending, in_progress, complete, error,
 * `details` and `output` each a single `rich_text`, `sources` an array of `url` source elements.
 * Returns the first problem as Slack words it, or undefined.
 */
const TASK_STATUSES = new Set(['pending', 'in_progress', 'complete', 'error']);

export function taskCardProblem(block: Block, at: string): string | undefined {
  for (const field of ['task_id', 'title'] as const) {
    const value = block[field];
    if (typeof value !== 'string' || value === '')
      return `missing required field: ${field} [json-pointer:${at}]`;
  }
  if (block.status !== undefined && !TASK_STATUSES.has(String(block.status))) {
    return `must be a valid enum value [json-pointer:${at}/status]`;
  }
  for (const field of ['details', 'output'] as const) {
    const value = block[field] as { type?: unknown; elements?: unknown } | undefined;
    if (value === undefined) continue;
    if (value?.type !== 'rich_text' || !Array.isArray(value.elements)) {
      return `must be a rich_text object [json-pointer:${at}/${field}]`;
    }
  }
  if (block.sources !== undefined) {
    if (!Array.isArray(block.sources)) return `must be an array [json-pointer:${at}/sources]`;
    const bad = (block.sources as Array<{ type?: unknown; url?: unknown }>).findIndex(
      (source) => source?.type !== 'url' || typeof source.url !== 'string',
    );
    if (bad >= 0) return `must be a url source element [json-pointer:${at}/sources/${bad}]`;
  }
  return undefined;
}
