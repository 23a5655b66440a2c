import { clearLine, createInterface, cursorTo, type Interface } from 'node:readline';
import { type InputLine, parseInputLine } from './input-line.js';
import { SANDBOX_HELP, SPEAKER, speak } from './render-terminal.js';
import type { ChatOutput, SandboxSession } from './sandbox-session.js';

/** Where the chat reads and writes; `interactive` is true for a terminal (TTY) on both ends. */
export interface ChatIo {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  interactive: boolean;
}

/** How the chat ended; a failure carries the message to print. */
export interface ChatResult {
  reason: 'end-of-input' | 'quit' | 'interrupted' | 'failed';
  error?: string;
}

/** A terminal chat: its output (for the session) and its input loop. */
export interface TerminalChat {
  output: ChatOutput;
  run(session: SandboxSession): Promise<ChatResult>;
  /** Ends `run` at once (Ctrl-C, SIGTERM) with reason `interrupted`. */
  interrupt(): void;
}

/** What the person typed, echoed in piped mode (a terminal already shows it). */
export function echoOf(line: InputLine): string | undefined {
  switch (line.kind) {
    case 'message':
      return speak(SPEAKER.you, line.text);
    case 'reaction':
      return speak(SPEAKER.you, `:${line.name}:`);
    case 'command':
      return speak(SPEAKER.you, `/agent ${line.text}`.trim());
    case 'new-thread':
      return speak(SPEAKER.you, '/new');
    case 'alert':
      return speak(SPEAKER.you, `/alert ${line.text}`);
    case 'webhook':
      return speak(SPEAKER.you, `/webhook ${line.text}`);
    case 'toggle-shared':
      return speak(SPEAKER.you, '/shared');
    case 'home':
      return speak(SPEAKER.you, '/home');
    case 'stop':
      return speak(SPEAKER.you, '/stop');
    case 'usage':
    case 'file':
    case 'schedule':
      return speak(SPEAKER.you, line.typed);
    case 'rate':
      return speak(
        SPEAKER.you,
        `/rate ${line.positive ? 'good' : 'bad'}${line.comment ? ` ${line.comment}` : ''}`,
      );
    default:
      return undefined;
  }
}

/** Runs one line; false once the person asked to leave. */
async function dispatch(line: InputLine, session: SandboxSession, out: ChatOutput): Promise<boolean> {
  switch (line.kind) {
    case 'message':
      await session.say(line.text);
      return true;
    case 'reaction':
      await session.react(line.name);
      return true;
    case 'command':
      await session.command(line.text);
      return true;
    case 'rate':
      await session.rate(line.positive, line.comment);
      return true;
    case 'new-thread':
      session.newThread();
      return true;
    case 'webhook':
      await session.webhook(line.text);
      return true;
    case 'alert':
      session.alert(line.text);
      return true;
    case 'toggle-shared':
      await session.toggleShared();
      return true;
    case 'home':
      await session.home();
      return true;
    case 'stop':
      await session.stop();
      return true;
    case 'file':
      await session.shareFile(line.path, line.question);
      return true;
    case 'schedule':
      await session.schedule(line.question, line.now);
      return true;
    case 'help':
      out.line(SANDBOX_HELP);
      return true;
    case 'usage':
      out.line(speak(SPEAKER.sandbox, line.text));
      return true;
    case 'unknown-command':
      out.line(speak(SPEAKER.sandbox, `${line.name} is not a sandbox command (/help lists them)`));
      return true;
    case 'quit':
      return false;
    case 'empty':
      return true;
  }
}

/** Builds the chat for `io`: line by line, each waited for, when piped; free typing on a terminal. */
export function createTerminalChat(io: ChatIo): TerminalChat {
  const interruption = new AbortController();
  const interrupted = new Promise<ChatResult>((resolve) =>
    interruption.signal.addEventListener('abort', () => resolve({ reason: 'interrupted' }), { once: true }),
  );
  let prompt: Interface | undefined;
  const output: ChatOutput = {
    line(text) {
      if (!prompt) {
        io.output.write(`${text}\n`);
        return;
      }
      clearLine(io.output, 0);
      cursorTo(io.output, 0);
      io.output.write(`${text}\n`);
      prompt.prompt(true);
    },
  };

  async function runPiped(session: SandboxSession): Promise<ChatResult> {
    const lines = createInterface({ input: io.input, terminal: false, crlfDelay: Number.POSITIVE_INFINITY });
    try {
      for await (const raw of lines) {
        const line = parseInputLine(raw);
        const echo = echoOf(line);
        if (echo) output.line(echo);
        const keepGoing = await Promise.race([
          dispatch(line, session, output),
          interrupted.then(() => false),
        ]);
        if (interruption.signal.aborted) return { reason: 'interrupted' };
        if (!keepGoing) return { reason: 'quit' };
      }
      return { reason: 'end-of-input' };
    } catch (error) {
      return { reason: 'failed', error: (error as Error).message };
    } finally {
      lines.close();
    }
  }

  function runInteractive(session: SandboxSession): Promise<ChatResult> {
    const rl = createInterface({
      input: io.input,
      output: io.output,
      terminal: true,
      prompt: `${SPEAKER.you} `,
    });
    prompt = rl;
    let quitTyped = false;
    const closed = new Promise<ChatResult>((resolve) =>
      rl.once('close', () => {
        prompt = undefined;
        if (!quitTyped) io.output.write('\n'); // Ctrl-C / Ctrl-D leave the cursor after the prompt
        resolve({ reason: 'quit' });
      }),
    );
    // Ctrl-C on a terminal is how people leave a chat: a normal quit, not a failure.
    rl.on('SIGINT', () => rl.close());
    rl.on('line', (raw) => {
      const line = parseInputLine(raw);
      quitTyped ||= line.kind === 'quit';
      // Not awaited: on a terminal the person may type while a turn runs (and the bot refuses).
      dispatch(line, session, output)
        .then((keepGoing) => keepGoing || rl.close())
        .catch((error: unknown) => output.line(speak(SPEAKER.sandbox, `⚠ ${(error as Error).message}`)));
      rl.prompt();
    });
    rl.prompt();
    return Promise.race([closed, interrupted]).finally(() => rl.close());
  }

  return {
    output,
    run: (session) => (io.interactive ? runInteractive(session) : runPiped(session)),
    interrupt: () => interruption.abort(),
  };
}
