import { submitNewestFormFields, visibleText } from '../slack-standin/index.js';
import { SPEAKER, speak, unescapeSlack } from './render-terminal.js';
import type { ChatOutput } from './sandbox-session.js';
import { SANDBOX_USER, type SandboxStack } from './sandbox-stack.js';

/** The add-connection form's callback id and its inputs' block ids (src/slack/views/connection-form.ts). */
const FORM_CALLBACK_ID = 'service_connection_add';
const BLOCKS = {
  alias: 'connection_alias',
  address: 'connection_address',
  token: 'connection_token',
} as const;
/** The alias the sandbox gives the demo account. */
export const DEMO_ALIAS = 'demo';

/**
 * `/agent connections add` in the terminal (DESIGN "Many accounts"): the bot opened its form with
 * views.open; the sandbox shows it filled in for the demo account — the second simulator, another
 * account with its own token — submits it as Slack would (`view_submission`) and prints the bot's
 * answer: the form replaced by the result, or errors under the fields. The token is never printed.
 */
export async function fillConnectionForm(ctx: { stack: SandboxStack; out: ChatOutput }): Promise<void> {
  const { stack, out } = ctx;
  const opened = stack.slack.openedViews().at(-1);
  if (opened?.view.callback_id !== FORM_CALLBACK_ID) return;
  const title = (opened.view.title as { text?: string } | undefined)?.text ?? 'a form';
  out.line(
    speak(SPEAKER.sandbox, `the bot opened the form “${title}”; you fill it in for the demo account:`),
  );
  out.line(`    Alias            ${DEMO_ALIAS}`);
  out.line(`    Region address   ${stack.demoSim.url}  (a second simulator: another account)`);
  out.line(`    API token        ${'•'.repeat(12)}  (that account's token)`);
  const answer = await submitNewestFormFields(
    stack.slack,
    { appUrl: stack.appUrl, signingSecret: stack.signingSecret },
    { [BLOCKS.alias]: DEMO_ALIAS, [BLOCKS.address]: stack.demoSim.url, [BLOCKS.token]: stack.demoToken },
    { user: SANDBOX_USER.id },
  );
  if (answer.status !== 200) throw new Error(`the bot answered HTTP ${answer.status} to the form`);
  const body = JSON.parse(answer.body || '{}') as {
    response_action?: string;
    errors?: Record<string, string>;
    view?: { blocks?: unknown[] };
  };
  if (body.response_action === 'errors') {
    for (const error of Object.values(body.errors ?? {})) out.line(speak(SPEAKER.onlyYou, `⚠ ${error}`));
    return;
  }
  const shown = visibleText({ blocks: (body.view?.blocks ?? []) as never });
  out.line(speak(SPEAKER.onlyYou, unescapeSlack(shown)));
}
