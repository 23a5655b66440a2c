import { z } from 'zod';
import { type AgentCallOptions, type CallContext, callFields } from './call-context.js';
import { parseBody } from './parse-body.js';

/** Saved-object export: `<prefix>/kibana/export`, one type per request. */

export const SAVED_OBJECT_TYPES = ['search', 'visualization', 'dashboard'] as const;
export type SavedObjectType = (typeof SAVED_OBJECT_TYPES)[number];

/** One saved object. Loose everywhere: exports carry members the seed does not list. */
const exportHitSchema = z.looseObject({
  _index: z.string(),
  _type: z.string(),
  _id: z.string(),
  _score: z.number().nullish(),
  _source: z.looseObject({ type: z.string() }),
});

export const exportCollectionSchema = z.looseObject({
  kibanaVersion: z.string(),
  hits: z.array(exportHitSchema),
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
