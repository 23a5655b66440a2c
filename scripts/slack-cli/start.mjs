// The Slack CLI's `start` hook (`slack run`): compiles the bot if needed and runs it, as `npm start`
// does. The CLI hands the development app's tokens over as SLACK_BOT_TOKEN and SLACK_APP_TOKEN (an
// app token means Socket Mode); the agent service's variables come from `.env` in the directory the
// CLI runs in, where a variable already set in the environment (the CLI's tokens) wins.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const envFile = join(process.cwd(), '.env');
if (existsSync(envFile)) process.loadEnvFile(envFile);

execFileSync(process.execPath, [join(root, 'scripts/build-if-needed.mjs')], { cwd: root, stdio: 'inherit' });

const bot = spawn(process.execPath, [join(root, 'dist/src/main.js')], { cwd: root, stdio: 'inherit' });
// Ctrl-C in `slack run` and a stop from the CLI reach the bot, which shuts down cleanly.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => bot.kill(signal));
bot.on('exit', (code, signal) => {
  process.exitCode = code ?? (signal ? 1 : 0);
});
