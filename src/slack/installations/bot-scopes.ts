/**
 * The bot scopes an OAuth install asks for: manifest.yml's `oauth_config.scopes.bot`, which
 * test/manifest-distribution.test.ts keeps equal to this list (the image carries no manifest).
 */
export const BOT_SCOPES: readonly string[] = [
  'app_mentions:read',
  'channels:history',
  'groups:history',
  'im:history',
  'mpim:history',
  'chat:write',
  'assistant:write',
  'reactions:read',
  'reactions:write',
  'commands',
  'files:write',
  'files:read',
  'users:read',
  'im:write',
  'channels:read',
  'groups:read',
  'mpim:read',
  'im:read',
];
