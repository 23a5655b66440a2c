import { z } from 'zod';
import { type AgentCallOptions, type CallContext, detailsOf, parseBody } from './call-context.js';
import { EmptyAnswerError } from './errors.js';

/** Saved-object export: `<prefix>/kibana/export`, one type per request. */

/** The types the export takes, one per request. */
export const SAVED_OBJECT_TYPES = ['search', 'visualization', 'dashboard'] as const;
export type SavedObjectType = (typeof SAVED_OBJECT_TYPES)[number];

/** The collection, read only as far as needed: hits stay unchecked (DESIGN, "Exports are lossless"). */
export const exportCollectionSchema = z.looseObject({
  kibanaVersion: z.string().nullish(),
  hits: z.array(z.unknown()),
});
export type ExportCollection = z.infer<typeof exportCollectionSchema>;

/** The spec's answer: `{}` is valid but holds no list (not "zero objects", `hits: []`): an EmptyAnswerError. */
const exportAnswerSchema = exportCollectionSchema.extend({ hits: z.array(z.unknown()).nullish() });

/** The parsed collection, and the response text exactly as served (what the bot uploads). */
export type ExportResult = { parsed: ExportCollection; raw: string };

export function exportCalls({ send, accountPathPrefix }: CallContext) {
  return {
    /** POST <prefix>/kibana/export with the agent token: a read despite the POST, retried like one. */
    async exportSavedObjects(type: SavedObjectType, options?: AgentCallOptions): Promise<ExportResult> {
      const path = `${accountPathPrefix}/kibana/export`;
      const response = await send(
        { endpoint: 'exportSavedObjects', method: 'POST', path, body: { type }, retry: 'idempotent' },
        options,
      );
      const message = `the ${type} export came back without a list of saved objects`;
      const empty = () => new EmptyAnswerError(message, detailsOf(response));
      if (response.text.trim() === '') throw empty();
      const { hits, ...rest } = parseBody(response, exportAnswerSchema);
      if (hits != null) return { parsed: { ...rest, hits }, raw: response.text };
      // Nothing but the version: empty. Other members: another server's JSON, an invalid response.
      if (Object.keys(rest).some((member) => member !== 'kibanaVersion')) {
        return { parsed: parseBody(response, exportCollectionSchema), raw: response.text };
      }
      throw empty();
    },
  };
}
