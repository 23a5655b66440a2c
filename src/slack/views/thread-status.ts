/** The working status: https://docs.slack.dev/reference/methods/assistant.threads.setStatus */
import type { Progress } from '../../conversation/thread-output-port.js';
import { progressDetail } from './notices.js';

export interface StatusView {
  /** Shown after the app's name ("… is working on it"); empty clears the status. */
  status: string;
  loading_messages?: string[];
}

/** "is working on it… step 3 · 42 s", and the same words as the loading message. */
export function renderThreadStatus(progress: Progress | undefined): StatusView {
  if (!progress) return { status: '' };
  const detail = progressDetail(progress);
  return { status: `is working on it… ${detail}`, loading_messages: [`Working on it… ${detail}`] };
}
