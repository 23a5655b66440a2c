import { type WebAPICallResult, WebClient, type WebClientOptions } from '@slack/web-api';
import type { WorkspaceScope } from './workspace-scope.js';

/** Raised when a Slack call is made for no installation: a wiring fault, never a person's. */
export class NoInstallationInScopeError extends Error {
  readonly code = 'no_installation_in_scope';
  constructor(method: string) {
    super(`${method} was called outside any Slack installation's scope`);
    this.name = 'NoInstallationInScopeError';
  }
}

/** A Web client without a token: each call carries its installation's (workspace-scope.ts); one pool. */
export class InstallationWebClient extends WebClient {
  constructor(
    private readonly scope: WorkspaceScope,
    options: WebClientOptions,
  ) {
    super(undefined, options);
  }

  override apiCall(method: string, options: Record<string, unknown> = {}): Promise<WebAPICallResult> {
    if (options.token) return super.apiCall(method, options);
    const workspace = this.scope.current();
    if (!workspace) return Promise.reject(new NoInstallationInScopeError(method));
    return super.apiCall(method, { ...options, token: workspace.botToken });
  }
}
