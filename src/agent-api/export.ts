import { z } from 'zod';
import { type AgentCallOptions, type CallContext, detailsOf, parseBody } from './call-context.js';
import { EmptyAnswerError } from './errors.js';

/** Saved-object export: `<prefix>/kibana/export`, one type per request. */

export const SAVED_OBJECT_TYPES = ['search', 'visualization', 'dashboard'] as const;
export type SavedObjectType = (typeof SAVED_OBJECT_TYPES)[number];

/**
 * The collection, read only as far as the bot needs (how many hits). Hits are not checked at
 * all: older exports lack `_index`, `_id` or `_source.type`, carry `_type: "doc"` and epoch-ms
 * dates, and a backup must keep whatever came (DESIGN, "Exports are lossless").
 */
export const exportCollectionSchema = z.looseObject({
  kibanaVersion: z.string().nullish(),
  hits: z.array(z.unknown()),
});
export type ExportCollection = z.infer<typeof exportCollectionSchema>;

/**
 * The answer as the spec types it: `hits` and `kibanaVersion` are both optional there, so `{}` (or
 * an empty body) is a valid answer that holds no list of objects. That is not "zero objects" —
 * `hits: []` says that — so it is an EmptyAnswerError in words, not an invalid response.
 */
const exportAnswerSchema = exportCollectionSchema.extend({ hits: z.array(z.unknown()).nullish() });

/** The parsed collection, and the response text exactly as served (what the bot uploads). */
export interface ExportResult {
  parsed: ExportCollection;
  raw: string;
}

/** The export, as the client's method. */
export function exportCalls({ send, accountPathPrefix }: CallContext) {
  return {
    /**
     * POST <prefix>/kibana/export with the agent token (the seed: "the token of the account whose
     * data is addressed"). A read despite the POST, so it is retried like one.
     */
    async exportSavedObjects(type: SavedObjectType, options?: AgentCallOptions): Promise<ExportResult> {
      const response = await send(
        {
          endpoint: 'exportSavedObjects',
          method: 'POST',
          path: `${accountPathPrefix}/kibana/export`,
          body: { type },
          retry: 'idempotent',
        },
        options,
      );
      const empty = () =>
        new EmptyAnswerError(
          `the ${type} export came back without a list of saved objects`,
          detailsOf(response),
        );
      if (response.text.trim() === '') throw empty();
      const { hits, ...rest } = parseBody(response, exportAnswerSchema);
      if (hits != null) return { parsed: { ...rest, hits }, raw: response.text };
      // No hits and nothing but the version: empty. Other members: not an export at all (another
      // server's JSON), reported as an invalid response naming the field.
      if (Object.keys(rest).some((member) => member !== 'kibanaVersion')) {
        return { parsed: parseBody(response, exportCollectionSchema), raw: response.text };
      }
      throw empty();
    },
  };
}
