import { z } from 'zod';
import { type AgentCallOptions, type CallContext, callFields } from './call-context.js';
import { parseBody } from './parse-body.js';

/** Saved-object export: `<prefix>/kibana/export`, one type per request. */

export const SAVED_OBJECT_TYPES = ['search', 'visualization', 'dashboard'] as const;
export type SavedObjectType = (typeof SAVED_OBJECT_TYPES)[number];

/**
 * The collection, read only as far as the bot needs (how many hits). Hits are not checked at
 * all: older exports lack `_index`, `_id` or `_source.type`, carry `_type: "doc"` and epoch-ms
 * dates, and a backup must keep whatever came (DESIGN, "Exports are lossless").
 */
export const exportCollectionSchema = z.looseObject({
  kibanaVersion: z.string().optional(),
  hits: z.array(z.unknown()),
});
export type ExportCollection = z.infer<typeof exportCollectionSchema>;

/** The parsed collection, and the response text exactly as served (what the bot uploads). */
export interface ExportResult {
  parsed: ExportCollection;
  raw: string;
}

/**
 * POST <prefix>/kibana/export with the agent token (the seed: "the token of the account whose
 * data is addressed"). A read despite the POST, so it is retried like one.
 */
export async function exportSavedObjects(
  context: CallContext,
  type: SavedObjectType,
  options?: AgentCallOptions,
): Promise<ExportResult> {
  const response = await context.send({
    endpoint: 'exportSavedObjects',
    method: 'POST',
    path: `${context.accountPathPrefix}/kibana/export`,
    token: context.agentToken,
    body: { type },
    kind: 'other',
    retry: 'idempotent',
    ...callFields(options, context.requestTimeoutMs),
  });
  return { parsed: parseBody(response, exportCollectionSchema), raw: response.text };
}
