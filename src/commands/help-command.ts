import { helpLine, type Subcommand } from './subcommand.js';

/** `/agent help`; an unknown or missing subcommand is answered with the help too (registry.ts). */
export const helpCommand: Subcommand<{ kind: 'help'; unknown?: string }, never> = {
  words: ['help'],
  help: [helpLine('help', '/agent help', 'List every /agent command with an example.', { anyone: true })],
  parse: () => ({ kind: 'help' }),
  run: async ({ unknown }) => ({ kind: 'help', unknown }),
};
