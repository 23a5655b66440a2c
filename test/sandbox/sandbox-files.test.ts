import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileQuestion, readLocalFile, SANDBOX_FILE_MAX_BYTES } from '../../dev/sandbox/sandbox-file.js';
import { runSandbox } from '../support/run-sandbox.js';

/**
 * DESIGN "Files are context" in the sandbox: `/file <path> [question]` shares a local file in the
 * Slack stand-in with the question; the bot downloads it with its token, and the answer's footer
 * (and, with `[sim echo=context]`, the answer) shows what reached the agent.
 */

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sandbox-files-'));
  await writeFile(join(dir, 'checkout.log'), '09:58:01 ERROR pool exhausted\n09:58:02 WARN retrying\n');
  await writeFile(join(dir, 'graph one.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]));
  await writeFile(join(dir, 'core.dump'), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0]));
  await writeFile(join(dir, 'nginx.conf'), 'worker_processes 4;\n');
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('readLocalFile', () => {
  it('reads a file relative to the working directory, under its own name', async () => {
    const read = await readLocalFile('checkout.log', dir);
    expect(read).toMatchObject({ ok: true, name: 'checkout.log' });
    if (read.ok) expect(read.content.toString('utf8')).toContain('pool exhausted');
  });

  it('says why a path is not shared: missing, a folder, a device, too big', async () => {
    const big = join(dir, 'huge.log');
    await writeFile(big, '');
    await truncate(big, SANDBOX_FILE_MAX_BYTES + 1_000_000); // sparse: nothing written
    expect(await readLocalFile('missing.log', dir)).toEqual({
      ok: false,
      why: `/file: there is no file at ${join(dir, 'missing.log')} — nothing was sent`,
    });
    expect(await readLocalFile(dir, '/')).toEqual({
      ok: false,
      why: `/file: ${dir} is a folder, not a file — nothing was sent`,
    });
    expect(await readLocalFile('/dev/zero', '/')).toEqual({
      ok: false,
      why: '/file: /dev/zero is not a regular file — nothing was sent',
    });
    expect(await readLocalFile(big, '/')).toEqual({
      ok: false,
      why: `/file: ${big} is 9.0 MB, more than the sandbox shares (8.0 MB) — nothing was sent`,
    });
    await rm(big);
  });

  it('asks a question naming the file when none was typed (a [sim …] tag alone is none)', () => {
    expect(fileQuestion('a.log')).toBe('what does a.log show?');
    expect(fileQuestion('a.log', '[sim steps=1]')).toBe('what does a.log show? [sim steps=1]');
    expect(fileQuestion('a.log', 'why? [sim steps=1]')).toBe('why? [sim steps=1]');
  });
});

describe('npm run sandbox: /file (piped)', () => {
  it('shares a local file with the question: sent to the agent, quoted in its context; images and binaries named as not sent; a missing file sends nothing', async () => {
    const quick = '[sim steps=1 stepms=50';
    const run = await runSandbox(
      [
        `/file checkout.log what broke? ${quick} echo=context]`,
        '/new',
        `/file "${join(dir, 'graph one.png')}" ${quick}]`,
        `/file core.dump and this one? ${quick}]`,
        `/file nginx.conf ${quick} answer="Four workers."]`,
        `/file missing.log why? ${quick}]`,
        '/file',
        '',
      ].join('\n'),
      [],
      40_000,
      // Where the person typed `npm run sandbox`: relative paths start there.
      { INIT_CWD: dir },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const out = run.stdout;
    // The text file, in a new thread: its line, then the answer with the file quoted and the footer.
    const first = out.slice(out.indexOf('you   › /file checkout.log'), out.indexOf('you   › /new'));
    expect(first).toContain('  · 📎 checkout.log (53 bytes) shared in #sandbox with your question');
    expect(first).toContain('You asked: what broke?');
    expect(first).toMatch(
      /File “checkout\.log”:\n\s+'''\n\s+09:58:01 ERROR pool exhausted\n\s+09:58:02 WARN retrying/,
    );
    expect(first).toContain(':paperclip: Sent to the agent: `checkout.log`');
    // An image is not downloaded, a binary is refused; the run starts all the same.
    expect(out).toContain('  · 📎 graph one.png (6 bytes) shared in #sandbox with your question');
    expect(out).toContain('You asked: what does graph one.png show?');
    expect(out).toContain(':paperclip: Not sent: `graph one.png` (image)');
    expect(out).toContain(':paperclip: Not sent: `core.dump` (not a text file)');
    // A text file whose extension the bot does not list is still text (Slack types it text/plain).
    expect(out).toMatch(/Four workers\.\n\s+:paperclip: Sent to the agent: `nginx\.conf`/);
    // A missing file: one sentence, nothing sent (the next line follows at once, no run).
    expect(out).toContain(
      `you   › /file missing.log why? ${quick}]\n  · /file: there is no file at ${join(dir, 'missing.log')} — nothing was sent\nyou   › /file\n`,
    );
    expect(out).toContain('  · /file needs a path: /file <path> [question]');
    expect(out.match(/^agent › Agent run complete/gm)).toHaveLength(4);
  }, 45_000);
});
