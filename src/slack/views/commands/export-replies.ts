/** `/agent export` replies: what was exported and sent, and what failed, per type. */
import type { ExportOutcome } from '../../../commands/export-command.js';
import { describeError } from '../describe-error.js';
import { type Replies, reply } from '../mrkdwn-reply.js';

export const exportReplies: Replies<ExportOutcome> = {
  exported: (outcome) => {
    const lines = outcome.files.map(
      (f) => `• ${f.type}: ${f.count} saved object${f.count === 1 ? '' : 's'} (\`${f.filename}\`)`,
    );
    const failed = outcome.failures.map((f) => `• ${f.type}: ${describeError(f.error, f.referenceId)}`);
    const head =
      outcome.files.length === 0
        ? 'The export failed:'
        : outcome.delivery?.ok === true
          ? 'Exported — the files are in your direct messages with the bot:'
          : `Exported, but sending the files to you failed (ref: ${outcome.delivery?.ok === false ? outcome.delivery.referenceId : '-'}):`;
    return reply(head, [...lines, ...failed].join('\n'));
  },
};
