/**
 * The pages a person sees while installing (DESIGN "Many workspaces"): plain HTML a screen reader
 * reads well (a language, a title, one heading, real links), no scripts, nothing fetched elsewhere.
 */

/** Escapes text for HTML element content and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;line-height:1.5}' +
  'a.button{display:inline-block;padding:.6rem 1.2rem;border-radius:.3rem;background:#4a154b;color:#fff;text-decoration:none}' +
  'a.button:focus{outline:3px solid #1264a3;outline-offset:2px}';

function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
</body>
</html>
`;
}

/** GET /slack/install: what the app does and the "Add to Slack" link (Slack's authorize URL with state). */
export function renderInstallPage(authorizeUrl: string): string {
  return page(
    'Add the agent bot to Slack',
    `<p>The bot answers questions about your logs in Slack threads: mention it in a channel or send it a direct message.</p>
<p>Slack will ask you to choose a workspace (or, on Enterprise Grid, your organisation) and to allow what the bot needs.</p>
<p><a class="button" href="${escapeHtml(authorizeUrl)}">Add to Slack</a></p>`,
  );
}

/** The bot user's name (manifest.yml's `display_name`, kept equal by its test): what follows `/invite @`. */
export const BOT_DISPLAY_NAME = 'slack-agent-bridge';

/** After Slack's authorize page: the app is installed in a workspace, or org-wide in an org. */
export function renderInstalledPage(place: { name: string | undefined; orgWide: boolean }): string {
  const where = place.name ? escapeHtml(place.name) : 'your workspace';
  const scope = place.orgWide
    ? `<p>It is installed for the whole organisation ${where}: an admin can add it to each workspace from the organisation's app settings.</p>`
    : `<p>It is installed in ${where}.</p>`;
  return page(
    'The agent bot is installed',
    `${scope}
<p>Invite it to a channel (<code>/invite @${BOT_DISPLAY_NAME}</code>) and mention it with a question, or send it a direct message. You can close this page.</p>`,
  );
}

/** What went wrong, in words, by the installer's error code (@slack/oauth ErrorCode). */
const FAILURE_REASONS: Record<string, string> = {
  slack_oauth_invalid_state:
    'The install link has expired or was opened in another browser, so the installation could not be trusted.',
  slack_oauth_missing_state:
    'Slack sent the browser back without the install link’s state, so it could not be checked.',
  slack_oauth_missing_code: 'Slack sent the browser back without an authorization code.',
  slack_oauth_installer_authorization_error: 'The installation was cancelled on Slack’s page.',
  // INSTALL_TEAM_IDS (DESIGN "Who may install").
  install_not_allowed:
    'This app is limited to its own organisation: it cannot be installed in this workspace or organisation. Nothing was kept.',
};

/** The failure code of an install from a workspace or org INSTALL_TEAM_IDS does not list. */
export const INSTALL_NOT_ALLOWED = 'install_not_allowed';

/** After Slack's authorize page: the app was not installed, and why. */
export function renderFailedPage(errorCode: string, installPath: string): string {
  const reason = FAILURE_REASONS[errorCode] ?? 'Slack did not complete the installation.';
  return page(
    'The agent bot was not installed',
    `<p>${escapeHtml(reason)}</p>
<p><a href="${escapeHtml(installPath)}">Start the installation again</a></p>
<p>If it fails again, tell the person who runs the bot this code: <code>${escapeHtml(errorCode)}</code>.</p>`,
  );
}
