import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * `npm run sandbox` as a person pipes a script into it: the real entry point in a child process,
 * its output collected until it exits (or is killed after `timeoutMs`).
 */
export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export interface SandboxRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `extraEnv`: variables the person's shell would set (e.g. INIT_CWD, where `npm run` was typed). */
export function runSandbox(
  input: string,
  args: string[] = [],
  timeoutMs = 20_000,
  extraEnv: Record<string, string> = {},
): Promise<SandboxRun> {
  return new Promise((resolve, reject) => {
    // The bot's default audience policy, whatever the shell running the tests exported.
    const { OUTSIDER_AUDIENCE: _policy, ...inherited } = process.env;
    const env = { ...inherited, ...extraEnv };
    const child = spawn(process.execPath, ['--import', 'tsx', 'dev/sandbox/main.ts', ...args], {
      cwd: repoRoot,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`sandbox did not exit within ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(input);
  });
}
